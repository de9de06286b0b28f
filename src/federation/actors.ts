// Local accounts as ActivityPub actors (and the instance's service actors), with their key pairs.
// What an actor publishes follows the family (Pleroma/Akkoma's UserView): collections, both keys, profile
// fields as PropertyValue, avatar/header only when set (the family's `no_default`), custom emoji tags,
// `alsoKnownAs`/`movedTo`, and the family's extensions `capabilities.acceptsChatMessages` and `webfinger`.
// A deactivated account answers 410 Gone with a Tombstone (Fedify's handling of a Tombstone actor).
import {
  Application,
  Emoji,
  Endpoints,
  Group,
  Image,
  Organization,
  Person,
  PropertyValue,
  Service,
  Tombstone,
  type Actor,
} from "@fedify/vocab";
import type { Federation, RequestContext } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import type { Account } from "../generated/prisma/client.ts";
import type { Services } from "../domain/context.ts";
import { escapeHtml } from "../kernel/escape.ts";
import { storedEmojis } from "../domain/emoji/emojify.ts";
import { accountKeyPairs, cryptoKeyPairs } from "./keys.ts";
import { INSTANCE_ACTOR, isServiceActor, RELAY_ACTOR, SERVICE_ACTOR_PATHS, serviceActorKeys } from "./service-actors.ts";

export const ACTOR_PATH = "/users/{identifier}";

const ACTOR_CLASSES = { Person, Service, Application, Group, Organization } as const;

/** JSON-LD terms of the family's extensions (the family's litepub context defines them the same way). */
const LITEPUB_TERMS = {
  litepub: "http://litepub.social/ns#",
  capabilities: "litepub:capabilities",
  acceptsChatMessages: { "@id": "litepub:acceptsChatMessages", "@type": "http://www.w3.org/2001/XMLSchema#boolean" },
  webfinger: "litepub:webfinger",
};

/** The local account behind an actor identifier (its nickname), deactivated or not. */
async function localAccount(services: Services, identifier: string): Promise<Account | null> {
  return services.db.account.findFirst({ where: { nickname: identifier, local: true } });
}

/** The local, active account behind an actor identifier (its nickname). */
export async function localActorAccount(services: Services, identifier: string): Promise<Account | null> {
  const account = await localAccount(services, identifier);
  return account && !account.deactivated ? account : null;
}

const instant = (date: Date) => Temporal.Instant.from(date.toISOString());

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", avif: "image/avif", svg: "image/svg+xml" };
export function imageOf(url: string): Image {
  const ext = new URL(url).pathname.split(".").pop()?.toLowerCase() ?? "";
  return new Image({ url: new URL(url), mediaType: IMAGE_TYPES[ext] ?? null });
}

/** Plain text (local bios and field values) as the HTML other servers expect. */
export const plainToHtml = (text: string) => (text ? `<p>${escapeHtml(text).replace(/\r?\n/g, "<br/>")}</p>` : "");

export function emojiTags(stored: unknown): Emoji[] {
  return storedEmojis(stored).map((e) => new Emoji({ id: null, name: `:${e.shortcode}:`, icon: imageOf(e.url), updated: null }));
}

/**
 * Adds JSON-LD that Fedify's vocabulary has no property for (the family's extensions) to an actor.
 * Fedify serves an object's cached JSON-LD as it is when there is one: the only way to publish terms
 * outside its vocabulary without rewriting its response.
 */
async function withExtensions<T extends Actor>(ctx: RequestContext<Services>, actor: T, extra: Record<string, unknown>): Promise<T> {
  const doc = (await actor.toJsonLd({ contextLoader: ctx.contextLoader })) as Record<string, unknown>;
  const context = Array.isArray(doc["@context"]) ? doc["@context"] : [doc["@context"]];
  (actor as unknown as { _cachedJsonLd: unknown })._cachedJsonLd = { ...doc, "@context": [...context, LITEPUB_TERMS], ...extra };
  return actor;
}

async function serviceActor(ctx: RequestContext<Services>, identifier: typeof INSTANCE_ACTOR | typeof RELAY_ACTOR): Promise<Actor> {
  const keys = await ctx.getActorKeyPairs(identifier);
  return new Application({
    id: ctx.getActorUri(identifier),
    preferredUsername: identifier,
    name: identifier === INSTANCE_ACTOR ? ctx.data.settings.domain : "Relay",
    summary: identifier === INSTANCE_ACTOR ? "The instance's own actor: it signs fetches made for the server." : "The instance's relay actor.",
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey,
    assertionMethods: keys.map((k) => k.multikey),
    manuallyApprovesFollowers: true,
    discoverable: false,
  });
}

async function actorOf(ctx: RequestContext<Services>, identifier: string): Promise<Actor | Tombstone | null> {
  if (isServiceActor(identifier)) return serviceActor(ctx, identifier);
  const account = await localAccount(ctx.data, identifier);
  if (!account) return null;
  const id = ctx.getActorUri(identifier);
  if (account.deactivated) return new Tombstone({ id, formerType: ACTOR_CLASSES[account.actorType] ?? Person, deleted: instant(account.updatedAt) });
  const [keys, movedTo] = await Promise.all([
    ctx.getActorKeyPairs(identifier),
    account.movedToId ? ctx.data.db.account.findUnique({ where: { id: account.movedToId }, select: { apId: true } }) : null,
  ]);
  const base = ctx.data.settings.baseUrl;
  const fields = (account.fields as { name: string; value: string }[]) ?? [];
  const Cls = ACTOR_CLASSES[account.actorType] ?? Person;
  const actor = new Cls({
    id,
    preferredUsername: account.nickname,
    name: account.displayName || account.nickname,
    summary: plainToHtml(account.note),
    url: new URL(account.apId),
    published: instant(account.createdAt),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    following: ctx.getFollowingUri(identifier),
    featured: ctx.getFeaturedUri(identifier),
    featuredTags: ctx.getFeaturedTagsUri(identifier),
    endpoints: new Endpoints({
      sharedInbox: ctx.getInboxUri(),
      oauthAuthorizationEndpoint: new URL(`${base}/oauth/authorize`),
      oauthTokenEndpoint: new URL(`${base}/oauth/token`),
    }),
    publicKey: keys[0]?.cryptographicKey,
    assertionMethods: keys.map((k) => k.multikey),
    manuallyApprovesFollowers: account.locked,
    discoverable: account.discoverable,
    attachments: fields.map((f) => new PropertyValue({ name: f.name, value: plainToHtml(f.value) })),
    icon: account.avatar ? imageOf(account.avatar) : null,
    image: account.header ? imageOf(account.header) : null,
    tags: emojiTags(account.emojis),
    aliases: account.alsoKnownAs.flatMap((u) => (URL.canParse(u) ? [new URL(u)] : [])),
    successor: movedTo ? new URL(movedTo.apId) : null,
  });
  return withExtensions(ctx, actor, {
    capabilities: { acceptsChatMessages: account.acceptsChatMessages },
    webfinger: `acct:${account.nickname}@${ctx.data.settings.domain}`,
  });
}

export function registerActors(federation: Federation<Services>) {
  federation
    .setActorDispatcher(ACTOR_PATH, (ctx, identifier) => actorOf(ctx, identifier))
    .mapActorAlias(SERVICE_ACTOR_PATHS[INSTANCE_ACTOR], INSTANCE_ACTOR)
    .mapActorAlias(SERVICE_ACTOR_PATHS[RELAY_ACTOR], RELAY_ACTOR)
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      if (isServiceActor(identifier)) return cryptoKeyPairs(await serviceActorKeys(ctx.data, identifier));
      // a deactivated account keeps its keys: the Delete that announces its end is signed with them
      const account = await localAccount(ctx.data, identifier);
      if (!account) return [];
      return cryptoKeyPairs(await accountKeyPairs(ctx.data.db, account));
    });
}
