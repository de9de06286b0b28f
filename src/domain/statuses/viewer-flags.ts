// What a reader did to a status — favourited, reblogged, bookmarked, its poll votes — said once. The
// status view's statement (status-data.ts) embeds these conditions for its one reader; the stream
// fan-out (and whatever renders one status for many readers) asks them for every reader at once with
// `loadViewerFlags`. What a flag means changes here, for both.
import { Prisma } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

type Cond = (viewer: Prisma.Sql, target: Prisma.Sql) => Prisma.Sql;

/** SQL for one flag of `viewer` (an account id expression) on `target` (a status id, or a poll id for `ownVotes`). */
export const viewerFlagSql: { favourited: Cond; reblogged: Cond; bookmarked: Cond; ownVotes: Cond } = {
  favourited: (viewer, status) => Prisma.sql`EXISTS (SELECT 1 FROM favourites f WHERE f.account_id = ${viewer} AND f.status_id = ${status})`,
  reblogged: (viewer, status) => Prisma.sql`EXISTS (SELECT 1 FROM statuses r WHERE r.account_id = ${viewer} AND r.reblog_of_id = ${status})`,
  bookmarked: (viewer, status) => Prisma.sql`EXISTS (SELECT 1 FROM bookmarks b WHERE b.account_id = ${viewer} AND b.status_id = ${status})`,
  /** the viewer's choices in the poll, ascending, as a JSON array; null when it has not voted */
  ownVotes: (viewer, poll) => Prisma.sql`(SELECT json_agg(choice ORDER BY choice) FROM poll_votes WHERE poll_id = ${poll} AND account_id = ${viewer})`,
};

export interface ViewerFlags {
  /** status ids */
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  /** status id → the reader's choices in its poll */
  votes: Map<string, number[]>;
}

/**
 * Every reader's flags on the statuses, in ONE statement whatever the numbers of readers and statuses.
 * Readers who did nothing to any of them are absent from the answer.
 */
export async function loadViewerFlags(ctx: Pick<Ctx, "db">, viewerIds: readonly string[], statusIds: readonly string[]): Promise<Map<string, ViewerFlags>> {
  const out = new Map<string, ViewerFlags>();
  if (viewerIds.length === 0 || statusIds.length === 0) return out;
  const v = Prisma.sql`v.id`;
  const s = Prisma.sql`s.id`;
  const rows = await ctx.db.$queryRaw<{ accountId: string; statusId: string; favourited: boolean; reblogged: boolean; bookmarked: boolean; votes: number[] | null }[]>`
    SELECT * FROM (
      SELECT v.id AS "accountId", s.id AS "statusId",
        ${viewerFlagSql.favourited(v, s)} AS favourited,
        ${viewerFlagSql.reblogged(v, s)} AS reblogged,
        ${viewerFlagSql.bookmarked(v, s)} AS bookmarked,
        (SELECT ${viewerFlagSql.ownVotes(v, Prisma.sql`pl.id`)} FROM polls pl WHERE pl.status_id = s.id) AS votes
      FROM unnest(${[...new Set(viewerIds)]}::text[]) AS v(id) CROSS JOIN unnest(${[...new Set(statusIds)]}::text[]) AS s(id)
    ) flags WHERE favourited OR reblogged OR bookmarked OR votes IS NOT NULL`;
  for (const r of rows) {
    let f = out.get(r.accountId);
    if (!f) out.set(r.accountId, (f = { favourited: new Set(), reblogged: new Set(), bookmarked: new Set(), votes: new Map() }));
    if (r.favourited) f.favourited.add(r.statusId);
    if (r.reblogged) f.reblogged.add(r.statusId);
    if (r.bookmarked) f.bookmarked.add(r.statusId);
    if (r.votes) f.votes.set(r.statusId, r.votes);
  }
  return out;
}
