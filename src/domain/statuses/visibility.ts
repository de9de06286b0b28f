// Who may see a status: the one place that decides, for single reads (canSee) and for lists
// (visibleWhere, a Prisma filter; timelines use its two halves, visibleAuthorWhere and
// visibleStatusWhere, to keep one join of the author; visibleAuthorSql and visibleStatusSql state
// the same halves in SQL for the hand-written home page statement). Admin "godmode" lives in the admin endpoints only.
import { Prisma, type Status, type Visibility } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { sqlFor } from "../../db/sql.ts";

type Seen = Pick<Status, "accountId" | "visibility" | "recipientIds">;

export interface ViewerContext {
  viewerId: string | null;
  /** authors the viewer follows (accepted) */
  following: Set<string>;
  /** authors that block the viewer or that the viewer blocks */
  blocked: Set<string>;
}

/** What `canSee` needs about the viewer and these authors, in two queries. */
export async function viewerContext(ctx: Ctx, authorIds: readonly string[]): Promise<ViewerContext> {
  const viewerId = ctx.viewer.account?.id ?? null;
  if (!viewerId || authorIds.length === 0) return { viewerId, following: new Set(), blocked: new Set() };
  const ids = [...new Set(authorIds)];
  const [follows, blocks] = await Promise.all([
    ctx.db.follow.findMany({ where: { followerId: viewerId, followingId: { in: ids }, state: "accept" }, select: { followingId: true } }),
    ctx.db.userRelationship.findMany({
      where: { type: "block", OR: [{ sourceId: viewerId, targetId: { in: ids } }, { sourceId: { in: ids }, targetId: viewerId }] },
      select: { sourceId: true, targetId: true },
    }),
  ]);
  return {
    viewerId,
    following: new Set(follows.map((f) => f.followingId)),
    blocked: new Set(blocks.map((b) => (b.sourceId === viewerId ? b.targetId : b.sourceId))),
  };
}

/**
 * Which of these authors are active, with viewerContext's answer about them, in ONE statement (three
 * before: the active authors, then the viewer's follows and blocks). Every action on a status (favourite,
 * reblog, bookmark…) and every read by id starts here. Follows and blocks are read for all the authors,
 * not only the active ones: callers see nothing of an inactive author's statuses anyway.
 */
export async function activeAuthorsAndViewer(ctx: Ctx, authorIds: readonly string[]): Promise<{ active: Set<string>; viewer: ViewerContext }> {
  const viewerId = ctx.viewer.account?.id ?? null;
  const ids = [...new Set(authorIds)];
  if (ids.length === 0) return { active: new Set(), viewer: { viewerId, following: new Set(), blocked: new Set() } };
  if (!viewerId) {
    const authors = await ctx.db.account.findMany({ where: { id: { in: ids }, deactivated: false }, select: { id: true } });
    return { active: new Set(authors.map((a) => a.id)), viewer: { viewerId, following: new Set(), blocked: new Set() } };
  }
  const [row] = await sqlFor(ctx.db).query<{ active: string[] | null; following: string[] | null; blocked: string[] | null }>(
    `SELECT
      (SELECT json_agg(a.id) FROM accounts a WHERE a.id = ANY($1::text[]) AND NOT a.deactivated) AS active,
      (SELECT json_agg(f.following_id) FROM follows f WHERE f.follower_id = $2 AND f.following_id = ANY($1::text[]) AND f.state = 'accept') AS following,
      (SELECT json_agg(CASE WHEN r.source_id = $2 THEN r.target_id ELSE r.source_id END) FROM user_relationships r
        WHERE r.type = 'block' AND ((r.source_id = $2 AND r.target_id = ANY($1::text[])) OR (r.source_id = ANY($1::text[]) AND r.target_id = $2))) AS blocked`,
    [ids, viewerId],
  );
  return { active: new Set(row?.active ?? []), viewer: { viewerId, following: new Set(row?.following ?? []), blocked: new Set(row?.blocked ?? []) } };
}

export function canSee(v: ViewerContext, s: Seen): boolean {
  if (v.viewerId && s.accountId === v.viewerId) return true;
  if (v.blocked.has(s.accountId)) return false;
  switch (s.visibility) {
    case "public":
    case "unlisted":
      return true;
    case "local":
      // local-only posts are for this instance's signed-in users, as in the family
      return !!v.viewerId;
    case "private":
      return !!v.viewerId && (v.following.has(s.accountId) || s.recipientIds.includes(v.viewerId));
    case "direct":
    case "list":
      return !!v.viewerId && s.recipientIds.includes(v.viewerId);
  }
}

/** What canSee shows any signed-in viewer whatever their relation to the author (the author being visible). */
const OPEN: Visibility[] = ["public", "unlisted", "local"];
/** …and what it shows a follower of the author as well. */
export const FOLLOWER_VISIBILITIES: Visibility[] = [...OPEN, "private"];

/** Accounts the viewer follows (accepted); `extra` narrows the follow (show_reblogs). */
export function followedBy(viewerId: string, extra: Prisma.FollowWhereInput = {}): Prisma.AccountWhereInput {
  return { followers: { some: { followerId: viewerId, state: "accept", ...extra } } };
}

/**
 * visibleWhere's conditions on the author: active, and no block either way. `hiddenBy` adds other
 * relations of the viewer to the author that hide it (the timelines' active mutes) to the same
 * subquery, so that a caller can keep every condition on the author in ONE relation filter:
 * Prisma joins `accounts` once per relation filter, and planning time grows with the joins.
 */
export function visibleAuthorWhere(ctx: Ctx, hiddenBy: Prisma.UserRelationshipWhereInput[] = []): Prisma.AccountWhereInput {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return { deactivated: false };
  const byViewer: Prisma.UserRelationshipWhereInput = hiddenBy.length ? { OR: [{ type: "block" }, ...hiddenBy] } : { type: "block" };
  return {
    deactivated: false,
    relationsOut: { none: { targetId: viewerId, type: "block" } },
    relationsIn: { none: { sourceId: viewerId, ...byViewer } },
  };
}

/** visibleWhere's conditions on the status itself, for an author that passes visibleAuthorWhere. */
export function visibleStatusWhere(ctx: Ctx): Prisma.StatusWhereInput {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return { visibility: { in: ["public", "unlisted"] } };
  return {
    OR: [
      { accountId: viewerId },
      { visibility: { in: OPEN } },
      { recipientIds: { has: viewerId } },
      { visibility: "private", account: followedBy(viewerId) },
    ],
  };
}

/** The same rule as a Prisma filter, for lists and timelines. */
export function visibleWhere(ctx: Ctx): Prisma.StatusWhereInput {
  return { account: visibleAuthorWhere(ctx), ...visibleStatusWhere(ctx) };
}

// ---- the same rule in SQL, for hand-written statements (the home timeline's page) ----------------

/** A list of values as a SQL array of `type`, for `= ANY (…)` and `<> ALL (…)`. */
export function sqlArray(values: readonly string[], type: string): Prisma.Sql {
  return values.length ? Prisma.sql`ARRAY[${Prisma.join(values)}]::${Prisma.raw(type)}[]` : Prisma.sql`ARRAY[]::${Prisma.raw(type)}[]`;
}

// The viewer's own sets (whom they block, mute and follow; whom blocks them; their muted threads and
// exclusive lists) are written as uncorrelated `[NOT] IN (SELECT … WHERE <the viewer>)`: PostgreSQL reads
// each set once per statement and probes a hash for every row the page walks (a hashed SubPlan), where a
// correlated `EXISTS` cost an index probe per row and per set — most of a home page's execution, which
// walks some ten rows for each one it keeps (docs/performance.md, "Eighth round"). Nor does the planner
// turn `NOT IN` into an anti-join: with each top-level `[NOT] EXISTS` turned into one, it searched the join
// orders of all of them at once, and planning the home page cost 10–30 ms for a 1 ms execution (the
// "HTTP benchmark" section). Every column compared is NOT NULL: a NULL in a `NOT IN` list would hide
// every row.

/**
 * visibleAuthorWhere on the author `a` (joined by the caller) of the status `s`. `hiddenBy` are
 * conditions on the viewer's relation `r` to the author, as visibleAuthorWhere's.
 */
export function visibleAuthorSql(ctx: Ctx, s: Prisma.Sql, a: Prisma.Sql, hiddenBy: Prisma.Sql[] = []): Prisma.Sql {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return Prisma.sql`NOT ${a}.deactivated`;
  return Prisma.sql`NOT ${a}.deactivated
    AND ${s}.account_id NOT IN (SELECT r.source_id FROM user_relationships r WHERE r.target_id = ${viewerId} AND r.type = 'block')
    AND ${s}.account_id NOT IN (SELECT r.target_id FROM user_relationships r WHERE r.source_id = ${viewerId}
                    AND (${Prisma.join([Prisma.sql`r.type = 'block'`, ...hiddenBy], " OR ")}))`;
}

/** visibleStatusWhere on the status `s`. */
export function visibleStatusSql(ctx: Ctx, s: Prisma.Sql): Prisma.Sql {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return Prisma.sql`${s}.visibility = ANY (${sqlArray(["public", "unlisted"], '"Visibility"')})`;
  return Prisma.sql`(${s}.account_id = ${viewerId} OR ${s}.visibility = ANY (${sqlArray(OPEN, '"Visibility"')}) OR ${s}.recipient_ids @> ARRAY[${viewerId}]::text[]
    OR (${s}.visibility = 'private' AND ${s}.account_id IN (SELECT f.following_id FROM follows f WHERE f.follower_id = ${viewerId} AND f.state = 'accept')))`;
}
