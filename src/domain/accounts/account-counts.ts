// Follower/following/status counts of many accounts in a constant number of queries.
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

export interface AccountCounts {
  followers: number;
  following: number;
  statuses: number;
}

export async function loadAccountCounts(ctx: Pick<Ctx, "db">, ids: readonly string[]): Promise<Map<string, AccountCounts>> {
  const unique = [...new Set(ids)];
  const [followers, following] = await Promise.all([
    ctx.db.follow.groupBy({ by: ["followingId"], where: { followingId: { in: unique }, state: "accept" }, _count: { _all: true } }),
    ctx.db.follow.groupBy({ by: ["followerId"], where: { followerId: { in: unique }, state: "accept" }, _count: { _all: true } }),
  ]);
  const result = new Map<string, AccountCounts>(unique.map((id) => [id, { followers: 0, following: 0, statuses: 0 }]));
  for (const row of followers) result.get(row.followingId)!.followers = row._count._all;
  for (const row of following) result.get(row.followerId)!.following = row._count._all;
  return result;
}

/** What others may see: hide_followers_count / hide_follows_count show 0 to everyone but the owner. */
export function visibleCounts(account: Pick<Account, "id" | "hideFollowersCount" | "hideFollowsCount">, counts: AccountCounts, viewerId: string | undefined): AccountCounts {
  if (viewerId === account.id) return counts;
  return { ...counts, followers: account.hideFollowersCount ? 0 : counts.followers, following: account.hideFollowsCount ? 0 : counts.following };
}
