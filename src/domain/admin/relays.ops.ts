// Relay subscriptions of the admin API. A Relay row is the instance's wish to follow a relay actor:
// it stays `pending` until federation delivers the Follow and the relay's Accept arrives.
// Federation seam: nothing is sent yet. The federation issue sends a Follow (from the instance's
// relay actor to `actor`) for each pending row and an Undo when a row is removed, at the two
// places marked below, through the delivery queue (never inline in the request).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Relay } from "../../generated/prisma/client.ts";
import { requireAdmin } from "../auth/policy.ts";
import { DomainError } from "../errors.ts";
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
  input: z.object({}),
  authorize: (ctx) => requireAdmin(ctx),
  run: (ctx): Promise<Relay[]> => ctx.db.relay.findMany({ orderBy: { createdAt: "asc" } }),
});

/** Follows a relay; following one again keeps its row (the family sends the Follow again). */
export const followRelay = operation({
  name: "admin.relays.follow",
  input: z.object({ relay_url: relayUrl }),
  authorize: (ctx) => requireAdmin(ctx),
  async run(ctx, input): Promise<Relay> {
    const relay = await ctx.db.relay.upsert({
      where: { actor: input.relay_url },
      create: { id: newId(ctx.clock().getTime()), actor: input.relay_url, state: "pending", createdAt: ctx.clock() },
      update: {},
    });
    // federation: deliver Follow(relay actor → input.relay_url) here; the relay's Accept sets state "accepted"
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
  input: z.object({ relay_url: z.string().min(1), force: bool().optional().default(false) }),
  authorize: (ctx) => requireAdmin(ctx),
  async run(ctx, input): Promise<string> {
    const { count } = await ctx.db.relay.deleteMany({ where: { actor: input.relay_url } });
    if (count === 0 && !input.force) throw new RelayFailure(input.relay_url, `Not following relay ${input.relay_url}`);
    // federation: deliver Undo(Follow) to input.relay_url here (skipped for a forced removal of an unknown relay)
    await logAction(ctx, { action: "relay_unfollow", target: input.relay_url });
    return input.relay_url;
  },
});
