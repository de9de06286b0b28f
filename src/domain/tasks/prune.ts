// Database maintenance: remote statuses older than a cut-off that no local user interacted with go —
// not favourited, bookmarked, reacted to, replied to or reblogged by a local user, not mentioning one,
// not replying to a local status. What cascades with a status (its media rows, tags, remote reblogs and
// favourites, notifications) goes with it; reports keep their snapshots. Batches in id order: the task's
// cursor is the last id scanned, so an interrupted prune continues there.
import type { Ctx } from "../context.ts";
import { deletedStatusesWhere } from "../streams/streams.read.ts";
import { allStatusesChanged } from "../statuses/status-cache.ts";
import { statusCountsChanged } from "../accounts/account-counts.ts";

const BATCH = 500;

const PRUNABLE = `
  s.local = false AND s.created_at < $1::timestamp
  AND NOT EXISTS (SELECT 1 FROM favourites f JOIN accounts a ON a.id = f.account_id WHERE f.status_id = s.id AND a.local)
  AND NOT EXISTS (SELECT 1 FROM reactions x JOIN accounts a ON a.id = x.account_id WHERE x.status_id = s.id AND a.local)
  AND NOT EXISTS (SELECT 1 FROM bookmarks b WHERE b.status_id = s.id)
  AND NOT EXISTS (SELECT 1 FROM mentions m JOIN accounts a ON a.id = m.account_id WHERE m.status_id = s.id AND a.local)
  AND NOT EXISTS (SELECT 1 FROM statuses r WHERE (r.in_reply_to_id = s.id OR r.reblog_of_id = s.id) AND r.local)
  AND NOT EXISTS (SELECT 1 FROM statuses p WHERE p.id = s.in_reply_to_id AND p.local)`;

export async function countPrunable(ctx: Pick<Ctx, "db">, before: string): Promise<number> {
  const [row] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM statuses s WHERE ${PRUNABLE}`, before);
  return row.n;
}

/** One batch after `after`: deletes it and answers how many went and the last id, or null when none is left. */
export async function pruneBatch(ctx: Pick<Ctx, "db" | "bus">, before: string, after: string): Promise<{ deleted: number; last: string } | null> {
  const rows = await ctx.db.$queryRawUnsafe<{ id: string }[]>(`SELECT s.id FROM statuses s WHERE s.id > $2 AND ${PRUNABLE} ORDER BY s.id LIMIT ${BATCH}`, before, after);
  if (rows.length === 0) return null;
  const ids = rows.map((r) => r.id);
  const gone = await deletedStatusesWhere(ctx, { id: { in: ids } });
  const { count } = await ctx.db.status.deleteMany({ where: { id: { in: ids } } });
  allStatusesChanged(ctx); // their parents' replies_count, their originals' reblogs_count
  statusCountsChanged(ctx, gone); // their authors' statuses_count
  for (const d of gone) ctx.bus.publish("status_deleted", d); // open streams drop them too
  return { deleted: count, last: ids.at(-1)! };
}
