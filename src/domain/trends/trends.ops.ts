// Trends (the reference API's `/api/v1/trends/*`) computed from the last week of local and federated
// activity, and their review by staff (`/api/v1/admin/trends/*`). Nothing is precomputed: each list is
// one grouped statement over the week's rows (found through the time-ordered ids), and a tag list one
// more for the tags' daily history. Unreviewed items trend; staff approve or reject them (trend_reviews).
import { z } from "zod";
import { firstIdAt } from "../../db/ids.ts";
import { Prisma, type Status, type Tag } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { visibleAuthorSql } from "../statuses/visibility.ts";

const DAY = 24 * 3600 * 1000;
/** The window trends are computed over, and the days of a tag's history: a week, as the reference. */
const WINDOW_DAYS = 7;

export interface TagDay {
  /** midnight UTC of the day */
  day: Date;
  uses: number;
  accounts: number;
}

export interface TrendingTag {
  tag: Tag;
  /** the last WINDOW_DAYS days, newest first */
  history: TagDay[];
  /** null: not reviewed yet */
  allowed: boolean | null;
  /** whether the viewer follows it (null when anonymous) */
  following: boolean | null;
}

export interface TrendingStatus {
  status: Status;
  allowed: boolean | null;
}

/** Staff who may review trends: reviewing is moderating content, the privilege of deleting statuses. */

const listInput = z.object({ limit: int().optional(), offset: int().optional() });

/** The window's start, and the first id a row of the window can have (ids are time-ordered). */
function windowStart(ctx: Ctx) {
  const today = Math.floor(ctx.clock().getTime() / DAY) * DAY;
  const since = new Date(today - (WINDOW_DAYS - 1) * DAY);
  return { since, firstId: firstIdAt(since.getTime()) };
}

function paging(input: z.output<typeof listInput>, defaultLimit: number, maxLimit: number) {
  return { limit: Math.min(Math.max(input.limit ?? defaultLimit, 1), maxLimit), offset: Math.max(input.offset ?? 0, 0) };
}

/**
 * Hashtags of the week's public posts (reblogs excluded, from active accounts), ranked by the number of
 * distinct accounts that used them, then by uses, then by the latest use. `review: false` leaves out rejected ones (the public
 * list); the staff list holds every one, with its review state.
 */
async function trendingTags(ctx: Ctx, input: z.output<typeof listInput>, review: boolean, maxLimit: number): Promise<TrendingTag[]> {
  const { since, firstId } = windowStart(ctx);
  const { limit, offset } = paging(input, 10, maxLimit);
  const rows = await ctx.db.$queryRaw<{ id: string; allowed: boolean | null }[]>`
    SELECT st.tag_id AS id, tr.allowed
    FROM status_tags st
    JOIN statuses s ON s.id = st.status_id
    JOIN accounts a ON a.id = s.account_id
    LEFT JOIN trend_reviews tr ON tr.kind = 'tag' AND tr.target_id = st.tag_id
    WHERE s.id >= ${firstId} AND s.created_at >= ${since} AND s.visibility = 'public' AND s.reblog_of_id IS NULL
      AND NOT a.deactivated ${review ? Prisma.empty : Prisma.sql`AND tr.allowed IS DISTINCT FROM false`}
    GROUP BY st.tag_id, tr.allowed
    ORDER BY count(DISTINCT s.account_id) DESC, count(*) DESC, max(s.id) DESC
    LIMIT ${limit} OFFSET ${offset}`;
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const me = ctx.viewer.account;
  const [tags, days, followed] = await Promise.all([
    ctx.db.tag.findMany({ where: { id: { in: ids } } }),
    tagDays(ctx, ids),
    me ? ctx.db.followedTag.findMany({ where: { accountId: me.id, tagId: { in: ids } }, select: { tagId: true } }) : null,
  ]);
  const byId = new Map(tags.map((t) => [t.id, t]));
  const following = followed && new Set(followed.map((f) => f.tagId));
  return rows.map((r) => ({ tag: byId.get(r.id)!, history: historyOf(ctx, days.get(r.id)), allowed: r.allowed, following: following ? following.has(r.id) : null }));
}

/** Uses and distinct accounts per tag and day of the window, in one statement. */
async function tagDays(ctx: Ctx, tagIds: string[]): Promise<Map<string, Map<number, TagDay>>> {
  const { since, firstId } = windowStart(ctx);
  const rows = await ctx.db.$queryRaw<{ tag_id: string; day: Date; uses: number; accounts: number }[]>`
    SELECT st.tag_id, date_trunc('day', s.created_at) AS day, count(*)::int AS uses, count(DISTINCT s.account_id)::int AS accounts
    FROM status_tags st JOIN statuses s ON s.id = st.status_id JOIN accounts a ON a.id = s.account_id
    WHERE st.tag_id = ANY (${tagIds}::text[]) AND s.id >= ${firstId} AND s.created_at >= ${since}
      AND s.visibility = 'public' AND s.reblog_of_id IS NULL AND NOT a.deactivated
    GROUP BY st.tag_id, day`;
  const out = new Map<string, Map<number, TagDay>>();
  for (const r of rows) {
    const day = new Date(r.day);
    if (!out.has(r.tag_id)) out.set(r.tag_id, new Map());
    out.get(r.tag_id)!.set(day.getTime(), { day, uses: r.uses, accounts: r.accounts });
  }
  return out;
}

/** Every day of the window, newest first, zero where the tag was not used. */
function historyOf(ctx: Ctx, days: Map<number, TagDay> | undefined): TagDay[] {
  const today = Math.floor(ctx.clock().getTime() / DAY) * DAY;
  return Array.from({ length: WINDOW_DAYS }, (_, i) => {
    const at = today - i * DAY;
    return days?.get(at) ?? { day: new Date(at), uses: 0, accounts: 0 };
  });
}

/**
 * The week's public, non-reblog posts of discoverable active accounts ranked by the favourites and
 * reblogs they received in the window. Blocks either way and the viewer's mutes leave a post out for
 * that viewer. Rejected posts are left out of the public list.
 */
async function trendingStatuses(ctx: Ctx, input: z.output<typeof listInput>, review: boolean, maxLimit: number): Promise<TrendingStatus[]> {
  const { since, firstId } = windowStart(ctx);
  const { limit, offset } = paging(input, 20, maxLimit);
  const hiddenBy = review ? [] : [Prisma.sql`r.type = 'mute'`];
  const rows = await ctx.db.$queryRaw<{ id: string; allowed: boolean | null }[]>`
    WITH acts AS (
      SELECT status_id FROM favourites WHERE id >= ${firstId} AND created_at >= ${since}
      UNION ALL
      SELECT reblog_of_id FROM statuses WHERE id >= ${firstId} AND reblog_of_id IS NOT NULL AND created_at >= ${since}
    )
    SELECT s.id, tr.allowed
    FROM acts JOIN statuses s ON s.id = acts.status_id JOIN accounts a ON a.id = s.account_id
    LEFT JOIN trend_reviews tr ON tr.kind = 'status' AND tr.target_id = s.id
    WHERE s.id >= ${firstId} AND s.created_at >= ${since} AND s.visibility = 'public' AND s.reblog_of_id IS NULL
      AND a.discoverable AND ${visibleAuthorSql(ctx, Prisma.sql`s`, Prisma.sql`a`, hiddenBy)}
      ${review ? Prisma.empty : Prisma.sql`AND tr.allowed IS DISTINCT FROM false`}
    GROUP BY s.id, tr.allowed
    ORDER BY count(*) DESC, s.id DESC
    LIMIT ${limit} OFFSET ${offset}`;
  if (!rows.length) return [];
  const statuses = await ctx.db.status.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  const byId = new Map(statuses.map((s) => [s.id, s]));
  return rows.flatMap((r) => (byId.has(r.id) ? [{ status: byId.get(r.id)!, allowed: r.allowed }] : []));
}

export const listTrendingTags = operation({
  name: "trends.tags",
  access: { scopes: ["read"], optional: true },
  input: listInput,
  run: (ctx, input) => trendingTags(ctx, input, false, 20),
});

export const listTrendingStatuses = operation({
  name: "trends.statuses",
  access: { scopes: ["read"], optional: true },
  input: listInput,
  run: (ctx, input) => trendingStatuses(ctx, input, false, 40),
});

/**
 * Trending links: none. Links trend in the reference from the preview cards it fetches for posts; this
 * server fetches no preview cards (statuses' `card` is null), so there is nothing to rank.
 */
export const listTrendingLinks = operation({
  name: "trends.links",
  access: { scopes: ["read"], optional: true },
  input: listInput,
  run: async (): Promise<never[]> => [],
});

// ---- review -----------------------------------------------------------------------------------------

export const reviewTrendingTags = operation({
  name: "admin.trends.tags",
  access: { scopes: ["admin:read"], privilege: "messages_delete" },
  input: listInput,
  run: (ctx, input) => trendingTags(ctx, input, true, 200),
});

export const reviewTrendingStatuses = operation({
  name: "admin.trends.statuses",
  access: { scopes: ["admin:read"], privilege: "messages_delete" },
  input: listInput,
  run: (ctx, input) => trendingStatuses(ctx, input, true, 200),
});

const reviewInput = z.object({ id: z.string(), allowed: z.boolean() });

async function review(ctx: Ctx, kind: "tag" | "status", targetId: string, allowed: boolean, target: string) {
  const at = ctx.clock();
  await ctx.db.$transaction(async (tx) => {
    await tx.trendReview.upsert({ where: { kind_targetId: { kind, targetId } }, create: { kind, targetId, allowed, reviewedAt: at }, update: { allowed, reviewedAt: at } });
    await logAction(ctx, { action: allowed ? "trend_approve" : "trend_reject", kind, target }, tx);
  });
}

/** Approves (`allowed`) or rejects a hashtag's trending; the tag with its week's history. */
export const reviewTag = operation({
  name: "admin.trends.reviewTag",
  access: { scopes: ["admin:write"], privilege: "messages_delete" },
  input: reviewInput,
  async run(ctx, input): Promise<TrendingTag> {
    const tag = await ctx.db.tag.findUnique({ where: { id: input.id } });
    if (!tag) throw NotFound("Record not found");
    await review(ctx, "tag", tag.id, input.allowed, `#${tag.name}`);
    const days = await tagDays(ctx, [tag.id]);
    return { tag, history: historyOf(ctx, days.get(tag.id)), allowed: input.allowed, following: null };
  },
});

/** Approves or rejects a status's trending. */
export const reviewStatus = operation({
  name: "admin.trends.reviewStatus",
  access: { scopes: ["admin:write"], privilege: "messages_delete" },
  input: reviewInput,
  async run(ctx, input): Promise<TrendingStatus> {
    const status = await ctx.db.status.findUnique({ where: { id: input.id } });
    if (!status || status.reblogOfId) throw NotFound("Record not found");
    await review(ctx, "status", status.id, input.allowed, `status ${status.id}`);
    return { status, allowed: input.allowed };
  },
});
