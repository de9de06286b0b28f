// Follower/following/status counts of many accounts in one statement.
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

export interface AccountCounts {
  followers: number;
  following: number;
  statuses: number;
}

export async function loadAccountCounts(ctx: Pick<Ctx, "db">, ids: readonly string[]): Promise<Map<string, AccountCounts>> {
  const unique = [...new Set(ids)];
  const result = new Map<string, AccountCounts>(unique.map((id) => [id, { followers: 0, following: 0, statuses: 0 }]));
  if (unique.length === 0) return result;
  const rows = await ctx.db.$queryRaw<{ id: string; followers: number; following: number }[]>`
    SELECT a.id,
      (SELECT count(*)::int FROM follows f WHERE f.following_id = a.id AND f.state = 'accept') AS followers,
      (SELECT count(*)::int FROM follows f WHERE f.follower_id = a.id AND f.state = 'accept') AS following
    FROM accounts a WHERE a.id = ANY(${unique}::text[])`;
  for (const row of rows) Object.assign(result.get(row.id)!, { followers: row.followers, following: row.following });
  return result;
}

/** What only the account itself is shown of its own: pending follow requests and unread notifications. Two counts, in parallel. */
export async function loadOwnerCounts(ctx: Pick<Ctx, "db">, accountId: string): Promise<{ followRequests: number; unreadNotifications: number }> {
  const [followRequests, unreadNotifications] = await Promise.all([
    ctx.db.follow.count({ where: { followingId: accountId, state: "pending" } }),
    ctx.db.notification.count({ where: { accountId, seen: false, filtered: false } }),
  ]);
  return { followRequests, unreadNotifications };
}

/** What others may see: hide_followers_count / hide_follows_count show 0 to everyone but the owner. */
export function visibleCounts(account: Pick<Account, "id" | "hideFollowersCount" | "hideFollowsCount">, counts: AccountCounts, viewerId: string | undefined): AccountCounts {
  if (viewerId === account.id) return counts;
  return { ...counts, followers: account.hideFollowersCount ? 0 : counts.followers, following: account.hideFollowsCount ? 0 : counts.following };
}
