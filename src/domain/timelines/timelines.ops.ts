// Timelines: home, public, hashtag, bubble and an account's statuses (lists.ops.ts runs the list
// timeline through `runTimeline` too). Each page is ONE Prisma query: visibleWhere(ctx) AND the
// timeline's own conditions AND the viewer's filters (mutes, muted threads, domain blocks,
// visibilities, replies), ordered by id — plus, for a signed-in viewer, one query each for their
// domain blocks, muted threads and keyword filters, whatever the page's length (the home page:
// keyword filters, its ids, its rows).
// Query shape matters more than indexes here (docs/performance.md): Prisma joins `accounts` once per
// relation filter, and the planner's time grows fast with the joins, so every condition on an author
// goes into ONE `account` filter per level (the status, and the original of a reblog); hashtags are
// resolved to ids first so that the planner sees each tag's own statistics. The home timeline's
// "by someone the viewer follows" still costs Prisma joins that multiply its planning time, so its page
// rows come from one hand-written statement (sqlPage, the same rules in SQL).
// inclusion.ts states the same rules for one status in memory (the streams): change both together.
import { z } from "zod";
import { decodeModel, modelJson } from "../../db/model-rows.ts";
import { Prisma, type Status } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import { loadActiveFilters, rejectFiltered, type FilterContext } from "../filters/filters.read.ts";
import type { Ctx } from "../context.ts";
import { array, bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { FOLLOWER_VISIBILITIES, NO_PULL_UP, sqlArray, visibleAuthorSql, visibleAuthorWhere, visibleStatusSql, visibleStatusWhere, visibleWhere } from "../statuses/visibility.ts";
import { openVisibilities } from "./inclusion.ts";

const VISIBILITIES = ["public", "unlisted", "private", "direct", "local", "list"] as const;

/** Parameters every timeline accepts. */
export const commonInput = pageInput.extend({
  with_muted: bool().optional(),
  exclude_visibilities: array(z.enum(VISIBILITIES)).optional(),
  only_media: bool().optional(),
  remote: bool().optional(),
});

/** Home, public, hashtag (and list) timelines also filter by origin and reply targets. */
export const feedInput = commonInput.extend({
  local: bool().optional(),
  reply_visibility: z.enum(["following", "self"]).optional(),
});

type CommonInput = z.output<typeof commonInput>;
type FeedInput = z.output<typeof feedInput>;

const tagName = (t: string) => t.trim().replace(/^#/, "").toLowerCase();

/**
 * The ids of the named hashtags that exist, by name. Filtering `status_tags` by tag id rather than
 * through a join on the tag's name lets the planner use the tag's own frequency, not the average
 * (a Seq Scan of `statuses` otherwise).
 */
async function tagIds(ctx: Ctx, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await ctx.db.tag.findMany({ where: { name: { in: names } }, select: { id: true, name: true } });
  return new Map(rows.map((t) => [t.name, t.id]));
}

/** The viewer's filters that hold for the status itself and for the original of a reblog. */
interface AuthorFilters {
  /** relations of the viewer to the author that hide it (active mutes) */
  hiddenBy: Prisma.UserRelationshipWhereInput[];
  /** other conditions on the author (domain blocks) */
  author: Prisma.AccountWhereInput[];
  /** conditions on the status (muted threads) */
  status: Prisma.StatusWhereInput[];
}

function authorFilters(ctx: Ctx, opts: { withMuted: boolean; blockedDomains: string[]; mutedThreads?: string[] }): AuthorFilters {
  const viewerId = ctx.viewer.account?.id;
  const f: AuthorFilters = { hiddenBy: [], author: [], status: [] };
  if (viewerId && !opts.withMuted) f.hiddenBy.push({ type: "mute", ...activeRelation(ctx.clock()) });
  if (opts.blockedDomains.length) f.author.push({ OR: [{ domain: null }, { domain: { notIn: opts.blockedDomains } }] });
  // as in the family, a muted thread hides every status in it, the viewer's own included
  if (opts.mutedThreads?.length) f.status.push({ context: { notIn: opts.mutedThreads } });
  return f;
}

/**
 * authorFilters in SQL, on the status `s` and its author `a` (`hiddenBy` on their relation `r`, as
 * visibleAuthorSql takes it), reading the viewer's domain blocks and thread mutes in subqueries.
 */
function authorFiltersSql(ctx: Ctx, s: Prisma.Sql, a: Prisma.Sql, opts: { withMuted: boolean; mutedThreads: boolean }) {
  const viewerId = ctx.viewer.account?.id;
  const f = { hiddenBy: [] as Prisma.Sql[], and: [] as Prisma.Sql[] };
  if (!viewerId) return f;
  const now = Prisma.sql`(${ctx.clock().toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  if (!opts.withMuted) f.hiddenBy.push(Prisma.sql`(r.type = 'mute' AND (r.expires_at IS NULL OR r.expires_at > ${now}))`);
  f.and.push(Prisma.sql`(${a}.domain IS NULL OR NOT EXISTS (SELECT 1 FROM domain_blocks d WHERE d.account_id = ${viewerId} AND d.domain = ${a}.domain))`);
  if (opts.mutedThreads)
    f.and.push(Prisma.sql`NOT EXISTS (SELECT 1 FROM thread_mutes tm WHERE tm.account_id = ${viewerId} AND tm.context = ${s}.context AND (tm.expires_at IS NULL OR tm.expires_at > ${now}) ${NO_PULL_UP})`);
  return f;
}

/**
 * visibleWhere AND the viewer's filters for one level (the status, or the original of a reblog), with
 * every condition on the author in one `account` filter. `statusVisibility: false` leaves out
 * visibleStatusWhere when the timeline's own conditions already imply it.
 */
function visibleLevel(ctx: Ctx, f: AuthorFilters, opts: { author?: Prisma.AccountWhereInput[]; statusVisibility: boolean }): Prisma.StatusWhereInput[] {
  const author = [...f.author, ...(opts.author ?? [])];
  const account: Prisma.AccountWhereInput = { ...visibleAuthorWhere(ctx, f.hiddenBy), ...(author.length ? { AND: author } : {}) };
  return [{ account }, ...(opts.statusVisibility ? [visibleStatusWhere(ctx)] : []), ...f.status];
}

async function blockedDomains(ctx: Ctx): Promise<string[]> {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return [];
  const rows = await ctx.db.domainBlock.findMany({ where: { accountId: viewerId }, select: { domain: true } });
  return rows.map((r) => r.domain);
}

/** The contexts of the viewer's unexpired thread mutes; none when muted content is asked for. */
async function mutedThreads(ctx: Ctx, wanted: boolean): Promise<string[]> {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId || !wanted) return [];
  const rows = await ctx.db.threadMute.findMany({ where: { accountId: viewerId, ...activeRelation(ctx.clock()) }, select: { context: true } });
  return rows.map((r) => r.context);
}

export interface Build {
  /** the keyword-filter context whose irreversible filters drop matches */
  filterContext: FilterContext;
  /** the timeline's own conditions */
  where?: Prisma.StatusWhereInput[];
  /** the timeline's own conditions on the author, merged into the author's one relation filter */
  author?: Prisma.AccountWhereInput[];
  /**
   * …or the timeline's own conditions in SQL, on the status `s` (`a` its author): the page then
   * comes from one hand-written statement (see the top of this file)
   */
  sql?: Prisma.Sql[];
  /**
   * the timeline's own conditions admit only statuses that visibleStatusWhere admits too, for an
   * author that passes visibleAuthorWhere (open visibilities, or the home timeline's rule), so that
   * part is left out
   */
  visibilityImplied?: boolean;
  /** muting does not hide the author's own statuses (account timelines), only the originals of reblogs */
  muteAuthor?: boolean;
  /** statuses in threads the viewer muted are hidden (unless `with_muted`); account timelines keep them */
  threadMutes?: boolean;
  reblogs?: boolean;
}

type Input = CommonInput & Partial<FeedInput>;
type Keyset = ReturnType<typeof keyset>;

/** Runs one timeline page: the composed conditions, keyset ordering by id. */
export async function runTimeline(ctx: Ctx, input: Input, build: Build): Promise<Page<Status>> {
  const k = keyset(input);
  const viewer = ctx.viewer.account?.id;
  // `hide` filters drop statuses here, as the family's irreversible filters do; the others only mark them (`filtered`)
  const [rows, irreversible] = await Promise.all([
    (build.sql ? sqlPage : prismaPage)(ctx, input, build, k),
    viewer ? loadActiveFilters(ctx, [viewer], { context: build.filterContext, action: "hide" }) : Promise.resolve([]),
  ]);
  const page = k.finish(rows, (s) => s.id);
  if (irreversible.length === 0) return page;
  // the cursors stay those of the unfiltered page, so paging never stalls on a filtered page
  return { ...page, items: await rejectFiltered(ctx, irreversible, page.items) };
}

/** The page as one Prisma query, after reading the viewer's domain blocks and muted threads. */
async function prismaPage(ctx: Ctx, input: Input, build: Build, k: Keyset): Promise<Status[]> {
  const viewerId = ctx.viewer.account?.id;
  const [domains, threads] = await Promise.all([blockedDomains(ctx), mutedThreads(ctx, build.threadMutes !== false && !input.with_muted)]);
  const own = authorFilters(ctx, { withMuted: !!input.with_muted, blockedDomains: domains, mutedThreads: threads });
  const top = build.muteAuthor !== false ? own : authorFilters(ctx, { withMuted: true, blockedDomains: domains });
  const and: Prisma.StatusWhereInput[] = [...visibleLevel(ctx, top, { author: build.author, statusVisibility: !build.visibilityImplied }), ...(build.where ?? [])];
  // a reblog is shown only when its original is visible and passes the same filters
  if (build.reblogs === false) and.push({ reblogOfId: null });
  else and.push({ OR: [{ reblogOfId: null }, { reblogOf: { AND: visibleLevel(ctx, own, { statusVisibility: true }) } }] });
  if (input.exclude_visibilities?.length) and.push({ visibility: { notIn: input.exclude_visibilities } });
  if (input.only_media) and.push({ OR: [{ media: { some: {} } }, { reblogOf: { media: { some: {} } } }] });
  if (input.local) and.push({ local: true });
  if (input.remote) and.push({ local: false });
  if (viewerId && input.reply_visibility) {
    const directed: Prisma.StatusWhereInput[] = [{ inReplyToId: null }, { accountId: viewerId }, { inReplyToAccountId: viewerId }];
    if (input.reply_visibility === "following")
      directed.push({ inReplyTo: { account: { followers: { some: { followerId: viewerId, state: "accept" } } } } });
    and.push({ OR: directed });
  }
  return ctx.db.status.findMany({
    where: { AND: [...and, ...(k.cursor ? [{ id: k.cursor }] : [])] },
    orderBy: { id: k.order },
    take: k.take,
  });
}

/**
 * prismaPage in SQL, condition for condition (`s` the status, `a` its author, `o` and `oa` a reblog's
 * original and its author), in one statement.
 */
async function sqlPage(ctx: Ctx, input: Input, build: Build, k: Keyset): Promise<Status[]> {
  const viewerId = ctx.viewer.account?.id;
  const [s, a, o, oa] = ["s", "a", "o", "oa"].map((alias) => Prisma.raw(alias));
  const level = (st: Prisma.Sql, au: Prisma.Sql, f: ReturnType<typeof authorFiltersSql>, statusVisibility: boolean) => [
    visibleAuthorSql(ctx, st, au, f.hiddenBy),
    ...f.and,
    ...(statusVisibility ? [visibleStatusSql(ctx, st)] : []),
  ];
  const threads = build.threadMutes !== false && !input.with_muted;
  const own = (st: Prisma.Sql, au: Prisma.Sql) => authorFiltersSql(ctx, st, au, { withMuted: !!input.with_muted, mutedThreads: threads });
  const top = build.muteAuthor !== false ? own(s, a) : authorFiltersSql(ctx, s, a, { withMuted: true, mutedThreads: false });
  const and: Prisma.Sql[] = [...level(s, a, top, !build.visibilityImplied), ...(build.sql ?? [])];
  if (build.reblogs === false) and.push(Prisma.sql`s.reblog_of_id IS NULL`);
  else and.push(Prisma.sql`(s.reblog_of_id IS NULL OR (o.id IS NOT NULL AND ${Prisma.join(level(o, oa, own(o, oa), true), " AND ")}))`);
  if (input.exclude_visibilities?.length) and.push(Prisma.sql`s.visibility <> ALL (${sqlArray(input.exclude_visibilities, '"Visibility"')})`);
  if (input.only_media)
    and.push(Prisma.sql`(EXISTS (SELECT 1 FROM media_attachments m WHERE m.status_id = s.id) OR EXISTS (SELECT 1 FROM media_attachments m WHERE m.status_id = o.id))`);
  if (input.local) and.push(Prisma.sql`s.local`);
  if (input.remote) and.push(Prisma.sql`NOT s.local`);
  if (viewerId && input.reply_visibility) {
    const followed =
      input.reply_visibility === "following"
        ? Prisma.sql`OR EXISTS (SELECT 1 FROM statuses p JOIN follows f ON f.following_id = p.account_id WHERE p.id = s.in_reply_to_id AND f.follower_id = ${viewerId} AND f.state = 'accept')`
        : Prisma.empty;
    and.push(Prisma.sql`(s.in_reply_to_id IS NULL OR s.account_id = ${viewerId} OR s.in_reply_to_account_id = ${viewerId} ${followed})`);
  }
  if (k.cursor?.lt) and.push(Prisma.sql`s.id < ${k.cursor.lt}`);
  if (k.cursor?.gt) and.push(Prisma.sql`s.id > ${k.cursor.gt}`);
  // the rows come as JSON from the same statement (one round trip and one plan less than reading them by id)
  const found = await ctx.db.$queryRaw<{ row: Record<string, unknown> }[]>`
    SELECT ${modelJson(ctx.db, "Status", "s")} AS row FROM statuses s
    JOIN accounts a ON a.id = s.account_id
    LEFT JOIN statuses o ON o.id = s.reblog_of_id
    LEFT JOIN accounts oa ON oa.id = o.account_id
    WHERE ${Prisma.join(and, " AND ")}
    ORDER BY s.id ${Prisma.raw(k.order === "asc" ? "ASC" : "DESC")} LIMIT ${k.take}`;
  return found.map((r) => decodeModel(ctx.db, "Status", r.row));
}

/** Public-ish timelines show public statuses, and local-only ones to signed-in (local) users (inclusion.ts: the same rule for streams). */
function openVisibility(ctx: Ctx): Prisma.StatusWhereInput {
  return { visibility: { in: openVisibilities(!!ctx.viewer.account) } };
}

export const homeTimeline = operation({
  name: "timelines.home",
  input: feedInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const viewerId = ctx.viewer.account!.id;
    return runTimeline(ctx, input, {
      filterContext: "home",
      sql: [
        // the viewer's, addressed to them, what a follower sees (visibility.ts) of someone they follow
        // (with reblogs, unless hidden), or a public status with a hashtag they follow: with
        // visibleAuthorSql, this implies visibleStatusSql
        Prisma.sql`(s.account_id = ${viewerId} OR s.recipient_ids @> ARRAY[${viewerId}]::text[]
          OR (s.visibility = ANY (${sqlArray(FOLLOWER_VISIBILITIES, '"Visibility"')})
              AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewerId} AND f.following_id = s.account_id
                          AND f.state = 'accept' AND (s.reblog_of_id IS NULL OR f.show_reblogs)))
          OR (s.visibility = 'public' AND s.reblog_of_id IS NULL
              AND EXISTS (SELECT 1 FROM followed_tags ft JOIN status_tags st ON st.tag_id = ft.tag_id
                          WHERE ft.account_id = ${viewerId} AND st.status_id = s.id)))`,
        // members of the viewer's exclusive lists are read in those lists only (reference API);
        // the viewer is never a member of their own lists, so their own statuses stay
        Prisma.sql`NOT EXISTS (SELECT 1 FROM list_members lm JOIN lists l ON l.id = lm.list_id
                               WHERE lm.account_id = s.account_id AND l.account_id = ${viewerId} AND l.exclusive ${NO_PULL_UP})`,
      ],
      visibilityImplied: true,
    });
  },
});

/** Direct statuses the viewer wrote or is addressed by, newest first (the reference API's earlier direct timeline; the `direct` stream lists the same). */
export const directTimeline = operation({
  name: "timelines.direct",
  input: commonInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const viewerId = ctx.viewer.account!.id;
    return runTimeline(ctx, input, {
      filterContext: "home",
      where: [{ visibility: "direct" }, { OR: [{ accountId: viewerId }, { recipientIds: { has: viewerId } }] }],
      reblogs: false,
    });
  },
});

export const publicTimeline = operation({
  name: "timelines.public",
  input: feedInput.extend({ instance: z.string().optional() }),
  async run(ctx, input) {
    const author: Prisma.AccountWhereInput[] = input.instance ? [{ domain: input.instance.trim().toLowerCase() }] : [];
    return runTimeline(ctx, input, { filterContext: "public", where: [openVisibility(ctx)], author, visibilityImplied: true, reblogs: false });
  },
});

export const tagTimeline = operation({
  name: "timelines.tag",
  input: feedInput.extend({
    hashtag: z.string().min(1),
    any: array(z.string()).optional(),
    all: array(z.string()).optional(),
    none: array(z.string()).optional(),
  }),
  async run(ctx, input) {
    const names = (list: string[] | undefined) => [...new Set((list ?? []).map(tagName).filter(Boolean))];
    const [any, all, none] = [names([input.hashtag, ...(input.any ?? [])]), names(input.all), names(input.none)];
    const ids = await tagIds(ctx, [...any, ...all, ...none]);
    const anyIds = any.flatMap((t) => ids.get(t) ?? []);
    // a status can carry no unknown tag
    if (anyIds.length === 0 || all.some((t) => !ids.has(t))) return { items: [] };
    const where: Prisma.StatusWhereInput[] = [openVisibility(ctx), { tags: { some: { tagId: { in: anyIds } } } }];
    for (const t of all) where.push({ tags: { some: { tagId: ids.get(t)! } } });
    const noneIds = none.flatMap((t) => ids.get(t) ?? []);
    if (noneIds.length) where.push({ tags: { none: { tagId: { in: noneIds } } } });
    return runTimeline(ctx, input, { filterContext: "public", where, visibilityImplied: true, reblogs: false });
  },
});

export const bubbleTimeline = operation({
  name: "timelines.bubble",
  input: commonInput.extend({ reply_visibility: z.enum(["following", "self"]).optional() }),
  async run(ctx, input) {
    const hosts = ctx.config.get("instance", "local_bubble").map((h) => h.toLowerCase());
    const origin: Prisma.StatusWhereInput = hosts.length ? { OR: [{ local: true }, { account: { domain: { in: hosts } } }] } : { local: true };
    return runTimeline(ctx, input, { filterContext: "public", where: [openVisibility(ctx), origin], reblogs: false });
  },
});

export const accountStatuses = operation({
  name: "timelines.account",
  input: commonInput.extend({
    id: z.string(),
    pinned: bool().optional(),
    tagged: z.string().optional(),
    exclude_reblogs: bool().optional(),
    exclude_replies: bool().optional(),
  }),
  async run(ctx, input) {
    const account = await getAccount(ctx, input.id);
    const where: Prisma.StatusWhereInput[] = [{ accountId: account.id }];
    if (input.tagged) {
      const tagged = tagName(input.tagged);
      const id = (await tagIds(ctx, [tagged])).get(tagged);
      if (!id) return { items: [] } as Page<Status>;
      where.push({ tags: { some: { tagId: id } } });
    }
    if (input.exclude_replies) where.push({ inReplyToId: null });
    if (input.pinned) {
      // pinned statuses come by pin date, newest first, in one page
      where.push({ pinnedAt: { not: null } }, visibleWhere(ctx));
      const items = await ctx.db.status.findMany({
        where: { AND: where },
        orderBy: [{ pinnedAt: "desc" }, { id: "desc" }],
        take: keyset(input).take,
      });
      return { items } as Page<Status>;
    }
    return runTimeline(ctx, input, { filterContext: "account", where, muteAuthor: false, threadMutes: false, reblogs: !input.exclude_reblogs });
  },
});
