// Moving an account: the mover names a target that lists the mover among its aliases (alsoKnownAs);
// the mover is marked as moved and its local followers who allow it follow the target instead.
import { z } from "zod";
import type { Account } from "../../generated/prisma/client.ts";
import { resolveRemoteAccount } from "../accounts/accounts.read.ts";
import { normalizeHandle } from "../accounts/lookup.ts";
import { confirmPassword } from "../accounts/account-actions.ops.ts";
import type { Ctx } from "../context.ts";
import { DomainError, Invalid, NotFound } from "../../kernel/errors.ts";
import { notify } from "../notifications/notify.ts";
import { federate, hasRemoteFollowers } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { followAs, unfollowAs } from "./follows.ops.ts";
import { MOVE_FOLLOWERS_JOB } from "./relationships.job-names.ts";
import { signedIn } from "./relationships.policy.ts";
import { accountByName } from "../../db/account-names.ts";

export const NOT_ALIASED = "Target account must have the origin in `alsoKnownAs`";

export const moveAccount = operation({
  name: "relationships.moveAccount",
  access: { scopes: ["write:accounts"] },
  input: z.object({ password: z.string(), target_account: z.string() }),
  authorize: signedIn,
  async run(ctx, input) {
    const mover = await confirmPassword(ctx, input.password);
    const nickname = normalizeHandle(ctx, input.target_account);
    const known = nickname ? await accountByName(ctx.db, { nicknames: [nickname], active: true }) : null;
    // a remote target is fetched (fresh when stored: its alsoKnownAs must name the mover by now)
    const target = known && !known.local && ctx.federation ? ((await ctx.federation.refreshAccount(ctx, known.id)) ?? known) : (known ?? (await resolveRemoteAccount(ctx, input.target_account)));
    if (!target || target.deactivated) throw NotFound("Target account not found.");
    await moveAs(ctx, mover, target);
    // federation: the Move activity is published to the mover's followers here
    if (await hasRemoteFollowers(ctx, mover.id)) await federate(ctx, { type: "move", accountId: mover.id, targetId: target.id });
    return { status: "success" as const };
  },
});

/**
 * `mover` (local, or a remote account whose Move was received) moves to `target`, which must list it
 * among its aliases: it is marked as moved, its followers are told, and its local followers move.
 */
export async function moveAs(ctx: Ctx, mover: Account, target: Account): Promise<void> {
  if (target.id === mover.id || !target.alsoKnownAs.includes(mover.apId)) throw Invalid(NOT_ALIASED, { target_account: "is not aliased" });
  await ctx.db.account.update({ where: { id: mover.id }, data: { movedToId: target.id } });
  // every follower learns of the move (a `move` notification whose target is the new account)
  const followers = await ctx.db.follow.findMany({ where: { followingId: mover.id, state: "accept" }, select: { followerId: true } });
  await notify(ctx, followers.map((f) => ({ accountId: f.followerId, type: "move" as const, fromAccountId: mover.id })));
  await ctx.jobs.enqueue(MOVE_FOLLOWERS_JOB, { originId: mover.id, targetId: target.id });
}

/**
 * The job after a move: each local follower (or requester) of the origin whose allowFollowingMove is
 * on follows the target (same options; a locked target gets a request) and stops following the origin.
 * Batches of 50; a follower the target refuses (blocks) just loses the old follow, as in the family.
 */
export async function moveFollowers(ctx: Ctx, payload: { originId: string; targetId: string }) {
  const [target, origin] = await Promise.all([ctx.db.account.findUnique({ where: { id: payload.targetId } }), ctx.db.account.findUnique({ where: { id: payload.originId } })]);
  if (!target || !origin) return;
  for (;;) {
    const rows = await ctx.db.follow.findMany({
      where: { followingId: payload.originId, state: { in: ["pending", "accept"] }, follower: { local: true, allowFollowingMove: true } },
      include: { follower: true },
      orderBy: { id: "asc" },
      take: 50,
    });
    if (rows.length === 0) return;
    for (const row of rows) {
      if (row.followerId !== target.id) {
        try {
          await followAs(ctx, row.follower, target, { reblogs: row.showReblogs, notify: row.notify });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
      }
      // as an unfollow: a remote origin gets the Undo of the Follow
      await unfollowAs(ctx, row.follower, origin);
    }
  }
}
