// Follower/following/status counts of many accounts in one statement, for the accounts the count
// cache (count-cache.ts) lacks: what it has is not counted again, and what is counted goes to it.
// `statuses_count` counts what Pleroma's `note_count` does: the account's own statuses (not its
// reblogs) addressed to the public, that is public and unlisted ones (docs/compatibility.md,
// "Accounts"). Statuses are counted where they are (statuses_account_id_id_idx), not kept in a
// column: a counter on the account row would be written by every post, and the count cache makes a
// recount rare.
import { Prisma, type Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { announceCountWrites } from "../../db/row-writes.ts";
import { rows } from "../../db/sql.ts";
import { countCache } from "./count-cache.ts";

export interface AccountCounts {
  followers: number;
  following: number;
  statuses: number;
}

/** the statuses `statuses_count` counts, as a condition on `statuses s` */
export const COUNTED_STATUSES = Prisma.sql`s.reblog_of_id IS NULL AND s.visibility IN ('public', 'unlisted')`;

/** Whether `statuses_count` counts the status (COUNTED_STATUSES, in JavaScript). */
export function countedStatus(s: { reblogOfId: string | null; visibility: string }): boolean {
  return s.reblogOfId === null && (s.visibility === "public" || s.visibility === "unlisted");
}

/**
 * Tells the count caches of every process that these statuses were stored or deleted, or left or
 * joined the counted ones: their authors' `statuses_count` is counted again (after the commit, when
 * called inside a transaction).
 */
export function statusCountsChanged(ctx: Pick<Ctx, "db">, statuses: readonly { accountId: string; reblogOfId: string | null; visibility: string }[]): void {
  announceCountWrites(ctx.db, statuses.filter(countedStatus).map((s) => s.accountId));
}

/**
 * The counts as SQL: a JSON array of [id, followers, following, statuses] for the account ids `ids` selects (one
 * column) but those in `skip` (the ones the count cache has: one array parameter, so that the text is
 * the same whatever the page).
 */
export function accountCountsSql(ids: Prisma.Sql, skip?: readonly string[]): Prisma.Sql {
  // array_position rather than `<> ALL`: PostgreSQL estimates it the same whatever the array holds, so a named
  // statement's generic plan is not judged dearer than a plan made for a long list of skipped ids (it then planned
  // a timeline's page statement anew at every request: status-data.ts, loadPageWithStatusData)
  const unless = skip ? Prisma.sql`WHERE array_position(${skip}::text[], id) IS NULL` : Prisma.empty;
  return Prisma.sql`(SELECT json_agg(json_build_array(_c.id,
      (SELECT count(*)::int FROM follows f WHERE f.following_id = _c.id AND f.state = 'accept'),
      (SELECT count(*)::int FROM follows f WHERE f.follower_id = _c.id AND f.state = 'accept'),
      (SELECT count(*)::int FROM statuses s WHERE s.account_id = _c.id AND ${COUNTED_STATUSES})))
    FROM (SELECT DISTINCT id FROM (${ids}) AS _i(id) ${unless}) AS _c)`;
}

/** one account's counts as `accountCountsSql` answers them */
export type CountsRow = [id: string, followers: number, following: number, statuses: number];

/** The counts of `ids`: the count cache's, and the others counted in one statement (none when it has them all). */
export async function loadAccountCounts(ctx: Pick<Ctx, "db" | "bus">, ids: readonly string[]): Promise<Map<string, AccountCounts>> {
  const cache = countCache(ctx);
  const result = new Map<string, AccountCounts>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = cache.get(id);
    result.set(id, hit ?? { followers: 0, following: 0, statuses: 0 });
    if (!hit) missing.push(id);
  }
  if (missing.length === 0) return result;
  const since = cache.begin();
  const [row] = await rows<{ counts: CountsRow[] | null }>(ctx.db, Prisma.sql`
    SELECT ${accountCountsSql(Prisma.sql`SELECT unnest(${missing}::text[])`)} AS counts`);
  for (const [id, followers, following, statuses] of row?.counts ?? []) Object.assign(result.get(id)!, { followers, following, statuses });
  for (const id of missing) cache.store(since, id, result.get(id)!);
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
