// Relay subscriptions of the admin API. A Relay row is the instance's wish to follow a relay actor:
// it stays `pending` until the Follow (from the instance's relay actor, queued through `federate`) is
// answered by the relay's Accept; `followed_back` records that the relay follows the relay actor too.
// Unfollowing removes the row at once and queues the Undo: a relay that no longer answers cannot
// keep itself on the list. Inbound answers come through the functions at the end (src/federation/inbox/relay.ts).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Relay } from "../../generated/prisma/client.ts";
import { DomainError } from "../../kernel/errors.ts";
import type { Ctx } from "../context.ts";
import { federate } from "../federation/outbox.ts";
import { bool } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";

const relayUrl = z.url({ protocol: /^https?$/, error: "Invalid URL" });

/** The family's failure: the relay URL itself is the whole answer (see compatibility.md). */
export class RelayFailure extends DomainError {
  constructor(readonly relayUrl: string, message: string) {
    super("unprocessable", message);
  }
}

export const listRelays = operation({
  name: "admin.relays.list",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({}),
  run: (ctx): Promise<Relay[]> => ctx.db.relay.findMany({ orderBy: { createdAt: "asc" } }),
});

/** Follows a relay; following one again keeps its row (the family sends the Follow again). */
export const followRelay = operation({
  name: "admin.relays.follow",
  access: { scopes: ["admin:write:follows"], role: "admin" },
  input: z.object({ relay_url: relayUrl }),
  async run(ctx, input): Promise<Relay> {
    const relay = await ctx.db.relay.upsert({
      where: { actor: input.relay_url },
      create: { id: newId(ctx.clock().getTime()), actor: input.relay_url, state: "pending", createdAt: ctx.clock() },
      update: {},
    });
    // the relay's Accept sets state "accepted" (relayAnswered below)
    await federate(ctx, { type: "relay.follow", relayId: relay.id, actor: relay.actor });
    await logAction(ctx, { action: "relay_follow", target: input.relay_url });
    return relay;
  },
});

/**
 * Stops following a relay and answers its URL. An unknown relay is a failure unless `force`
 * (the family's way to drop a relay that can no longer be reached).
 */
export const unfollowRelay = operation({
  name: "admin.relays.unfollow",
  access: { scopes: ["admin:write:follows"], role: "admin" },
  input: z.object({ relay_url: z.string().min(1), force: bool().optional().default(false) }),
  async run(ctx, input): Promise<string> {
    const relay = await ctx.db.relay.findUnique({ where: { actor: input.relay_url } });
    if (!relay && !input.force) throw new RelayFailure(input.relay_url, `Not following relay ${input.relay_url}`);
    if (relay) {
      await ctx.db.relay.deleteMany({ where: { id: relay.id } });
      // best effort: a relay that does not answer any more just never gets it (force is the family's way to say so)
      await federate(ctx, { type: "relay.undo", relayId: relay.id, actor: relay.actor });
    }
    await logAction(ctx, { action: "relay_unfollow", target: input.relay_url });
    return input.relay_url;
  },
});

/** The relay whose actor is `actorApId` (inbound: the relay's answers and announces). */
export const relayByActor = (ctx: Pick<Ctx, "db">, actorApId: string) => ctx.db.relay.findUnique({ where: { actor: actorApId } });

/** The relay accepted (or rejected: the row is dropped, as the family forgets a refused follow) our Follow. */
export async function relayAnswered(ctx: Pick<Ctx, "db">, relayId: string, answer: "accept" | "reject"): Promise<void> {
  if (answer === "accept") await ctx.db.relay.updateMany({ where: { id: relayId }, data: { state: "accepted" } });
  else await ctx.db.relay.deleteMany({ where: { id: relayId } });
}

/** The relay followed the relay actor back (or stopped following it). */
export async function relayFollowedBack(ctx: Pick<Ctx, "db">, relayId: string, followedBack: boolean): Promise<void> {
  await ctx.db.relay.updateMany({ where: { id: relayId }, data: { followedBack } });
}
