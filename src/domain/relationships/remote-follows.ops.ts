// A remote account's answer to a local account's follow (Accept or Reject of our Follow). Follows of
// local accounts by remote ones go through follows.ops.ts `followAs` like local follows.
import type { Follow } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { leaveFollowerLists } from "../lists/lists.ops.ts";
import { publishFollowUpdate } from "./follows.ops.ts";

/** The follow a remote answer names: by the Follow's id, else by the two accounts. */
export async function followAnswerTarget(ctx: Ctx, followApId: string | null, followerId: string, followingId: string): Promise<Follow | null> {
  if (followApId) {
    const byId = await ctx.db.follow.findFirst({ where: { apId: followApId, followingId } });
    if (byId) return byId;
  }
  return ctx.db.follow.findUnique({ where: { followerId_followingId: { followerId, followingId } } });
}

/** The followed remote account accepted: the request becomes a follow (again is a no-op). */
export async function remoteFollowAccepted(ctx: Ctx, follow: Follow): Promise<void> {
  if (follow.state === "accept") return;
  // the ends name the row's counts to the count cache (src/db/row-writes.ts); by id alone it would drop them all
  const ends = { followerId: follow.followerId, followingId: follow.followingId };
  const { count } = await ctx.db.follow.updateMany({ where: { id: follow.id, ...ends, state: { not: "accept" } }, data: { state: "accept" } });
  if (count) await publishFollowUpdate(ctx, follow.followerId, follow.followingId, "follow_accept");
}

/** The followed remote account rejected the request, or removed the follower: the follow ends, as a local reject ends it. */
export async function remoteFollowRejected(ctx: Ctx, follow: Follow): Promise<void> {
  const ends = { followerId: follow.followerId, followingId: follow.followingId }; // see above
  const [{ count }] = await ctx.db.$transaction([ctx.db.follow.deleteMany({ where: { id: follow.id, ...ends } }), leaveFollowerLists(ctx, follow.followerId, follow.followingId)]);
  if (count) await publishFollowUpdate(ctx, follow.followerId, follow.followingId, "follow_reject");
}
