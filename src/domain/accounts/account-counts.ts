// Follower/following/status counts of many accounts in one statement.
import { Prisma, type Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { rows } from "../../db/sql.ts";

export interface AccountCounts {
  followers: number;
  following: number;
  statuses: number;
}

/** The counts as SQL: a JSON array of [id, followers, following] for the account ids `ids` selects (one column). */
export function accountCountsSql(ids: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT json_agg(json_build_array(_c.id,
      (SELECT count(*)::int FROM follows f WHERE f.following_id = _c.id AND f.state = 'accept'),
      (SELECT count(*)::int FROM follows f WHERE f.follower_id = _c.id AND f.state = 'accept')))
    FROM (SELECT DISTINCT id FROM (${ids}) AS _i(id)) AS _c)`;
}

export async function loadAccountCounts(ctx: Pick<Ctx, "db">, ids: readonly string[]): Promise<Map<string, AccountCounts>> {
  const unique = [...new Set(ids)];
  const result = new Map<string, AccountCounts>(unique.map((id) => [id, { followers: 0, following: 0, statuses: 0 }]));
  if (unique.length === 0) return result;
  const [row] = await rows<{ counts: [string, number, number][] | null }>(ctx.db, Prisma.sql`
    SELECT ${accountCountsSql(Prisma.sql`SELECT unnest(${unique}::text[])`)} AS counts`);
  for (const [id, followers, following] of row?.counts ?? []) Object.assign(result.get(id)!, { followers, following });
  return result;
}

/** What only the account itself is shown of its own: pending follow requests and unread notifications, in one statement. */
export async function loadOwnerCounts(ctx: Pick<Ctx, "db">, accountId: string): Promise<{ followRequests: number; unreadNotifications: number }> {
  const [row] = await rows<{ followRequests: number; unreadNotifications: number }>(ctx.db, Prisma.sql`
    SELECT (SELECT count(*)::int FROM follows WHERE following_id = ${accountId} AND state = 'pending') AS "followRequests",
      (SELECT count(*)::int FROM notifications WHERE account_id = ${accountId} AND NOT seen AND NOT filtered) AS "unreadNotifications"`);
  return { followRequests: row?.followRequests ?? 0, unreadNotifications: row?.unreadNotifications ?? 0 };
}

/** What others may see: hide_followers_count / hide_follows_count show 0 to everyone but the owner. */
export function visibleCounts(account: Pick<Account, "id" | "hideFollowersCount" | "hideFollowsCount">, counts: AccountCounts, viewerId: string | undefined): AccountCounts {
  if (viewerId === account.id) return counts;
  return { ...counts, followers: account.hideFollowersCount ? 0 : counts.followers, following: account.hideFollowsCount ? 0 : counts.following };
}
