// Local accounts as ActivityPub actors (and the instance's service actors), with their key pairs.
import { Application, Endpoints, Group, Organization, Person, Service, type Actor } from "@fedify/vocab";
import type { Federation, RequestContext } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import type { Account } from "../generated/prisma/client.ts";
import type { Services } from "../domain/context.ts";
import { accountKeyPairs, cryptoKeyPairs } from "./keys.ts";
import { INSTANCE_ACTOR, isServiceActor, serviceActorKeys } from "./service-actors.ts";

export const ACTOR_PATH = "/users/{identifier}";

const ACTOR_CLASSES = { Person, Service, Application, Group, Organization } as const;

/** The local, active account behind an actor identifier (its nickname). */
export async function localActorAccount(services: Services, identifier: string): Promise<Account | null> {
  return services.db.account.findFirst({ where: { nickname: identifier, local: true, deactivated: false } });
}

async function actorOf(ctx: RequestContext<Services>, identifier: string): Promise<Actor | null> {
  const keys = await ctx.getActorKeyPairs(identifier);
  const common = {
    id: ctx.getActorUri(identifier),
    preferredUsername: identifier,
    inbox: ctx.getInboxUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey,
    assertionMethods: keys.map((k) => k.multikey),
  };
  if (isServiceActor(identifier)) {
    return new Application({ ...common, name: identifier === INSTANCE_ACTOR ? ctx.data.settings.domain : "Relay", manuallyApprovesFollowers: true });
  }
  const account = await localActorAccount(ctx.data, identifier);
  if (!account) return null;
  const Cls = ACTOR_CLASSES[account.actorType] ?? Person;
  return new Cls({
    ...common,
    name: account.displayName || null,
    summary: account.note || null,
    url: new URL(`${ctx.data.settings.baseUrl}/@${account.nickname}`),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    manuallyApprovesFollowers: account.locked,
    discoverable: account.discoverable,
    published: Temporal.Instant.from(account.createdAt.toISOString()),
  });
}

export function registerActors(federation: Federation<Services>) {
  federation
    .setActorDispatcher(ACTOR_PATH, (ctx, identifier) => actorOf(ctx, identifier))
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      if (isServiceActor(identifier)) return cryptoKeyPairs(await serviceActorKeys(ctx.data, identifier));
      const account = await localActorAccount(ctx.data, identifier);
      if (!account) return [];
      return cryptoKeyPairs(await accountKeyPairs(ctx.data.db, account));
    });
}
