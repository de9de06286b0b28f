// Timelines: home, public, hashtag, bubble and an account's statuses (lists.ops.ts runs the list
// timeline through `runTimeline` too). What each lists is rules.ts (the rule list, and each rule in
// its Prisma, SQL and in-memory forms, shared with the streams); this module runs the page. Each page
// is ONE query: visibility AND the timeline's own conditions AND the viewer's filters (mutes, muted
// threads, domain blocks, visibilities, replies), ordered by id.
// - The busy timelines (home, public/local, hashtag, an account's statuses) are one hand-written
//   statement (sqlPage: rules.ts's pageSql), which reads the viewer's blocks, domain blocks and muted
//   threads in subqueries and returns the viewer's `hide` filters with the rows: one round trip, and a
//   named statement whose plan PostgreSQL can keep (docs/performance.md, "Eighth round").
// - The others (bubble, list, direct) are one Prisma query, after one statement reading the viewer's
//   domain blocks, muted threads and `hide` filters together. Prisma joins `accounts` once per relation
//   filter, and the planner's time grows fast with the joins, so every condition on an author goes
//   into ONE `account` filter per level (the status, and the original of a reblog).
// Hashtags are resolved to ids first so that the planner sees each tag's own statistics.
import { z } from "zod";
import { loadPageWithStatusData } from "../statuses/status-data.ts";
import { rows } from "../../db/sql.ts";
import { Prisma, type Status } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import { decodeFilters, filtersJson, rejectFiltered, type FilterRules } from "../filters/filters.read.ts";
import type { Ctx } from "../context.ts";
import { array, bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, limitSql, pageInput, type Page } from "../pagination.ts";
import { visibleWhere } from "../statuses/visibility.ts";
import {
  directWhere,
  hidesMutedThreads,
  homeSql,
  instanceAuthorSql,
  openVisibilitySql,
  openVisibilityWhere,
  pageSql,
  pageWhere,
  tagSql,
  TIMELINE_RULES,
  type Build,
} from "./rules.ts";

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
  const known = knownTags(ctx);
  const found = new Map(names.flatMap((n) => (known.has(n) ? [[n, known.get(n)!] as const] : [])));
  const missing = names.filter((n) => !found.has(n));
  if (missing.length === 0) return found;
  const rows = await ctx.db.tag.findMany({ where: { name: { in: missing } }, select: { id: true, name: true } });
  if (known.size + rows.length > KNOWN_TAGS) known.clear();
  for (const t of rows) found.set(t.name, known.set(t.name, t.id).get(t.name)!);
  return found;
}

/**
 * Tag ids by name, per database, as found: a tag row is never deleted nor renamed (nothing in the code
 * base does either), so a name once found keeps its id and the tag timeline needs no lookup statement.
 * Names not found are not remembered: the tag may be created by the next post.
 */
const KNOWN_TAGS = 10_000;
const tagsByDb = new WeakMap<object, Map<string, string>>();
function knownTags(ctx: Ctx): Map<string, string> {
  let known = tagsByDb.get(ctx.db);
  if (!known) tagsByDb.set(ctx.db, (known = new Map()));
  return known;
}

/** What the viewer reads a Prisma-built page with: its blocked domains, its muted threads (when they hide), its `hide` filters. */
interface ViewerSets {
  blockedDomains: string[];
  mutedThreads: string[];
  irreversible: FilterRules[];
}

const hideFilters = (ctx: Ctx, viewerId: string, build: Build) =>
  filtersJson(ctx.db, Prisma.sql`SELECT ${viewerId}::text`, ctx.clock(), Prisma.sql`AND ${build.filterContext} = ANY(f.context) AND f.action = 'hide'::"FilterAction"`);

/**
 * The viewer's sets in ONE statement (each is an indexed read of a few rows; three round trips would cost
 * more than the reads themselves). Anonymous: nothing to read.
 */
async function viewerSets(ctx: Ctx, input: Input, build: Build): Promise<ViewerSets> {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return { blockedDomains: [], mutedThreads: [], irreversible: [] };
  const now = Prisma.sql`(${ctx.clock().toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  const threads = hidesMutedThreads(input, build)
    ? Prisma.sql`(SELECT array_agg(t.context) FROM thread_mutes t WHERE t.account_id = ${viewerId} AND (t.expires_at IS NULL OR t.expires_at > ${now}))`
    : Prisma.sql`NULL::text[]`;
  const [row] = await rows<{ domains: string[] | null; threads: string[] | null; filters: unknown }>(ctx.db, Prisma.sql`
    SELECT (SELECT array_agg(d.domain) FROM domain_blocks d WHERE d.account_id = ${viewerId}) AS domains,
      ${threads} AS threads, ${hideFilters(ctx, viewerId, build)} AS filters`);
  return { blockedDomains: row?.domains ?? [], mutedThreads: row?.threads ?? [], irreversible: decodeFilters(ctx.db, row?.filters ?? null) };
}

type Input = CommonInput & Partial<FeedInput>;
type Keyset = ReturnType<typeof keyset>;

/** Runs one timeline page: the composed conditions, keyset ordering by id. */
export async function runTimeline(ctx: Ctx, input: Input, build: Build): Promise<Page<Status>> {
  const k = keyset(input);
  // `hide` filters drop statuses here, as the family's irreversible filters do; the others only mark them (`filtered`)
  const { rows, irreversible } = await (build.sql ? sqlPage : prismaPage)(ctx, input, build, k);
  const page = k.finish(rows, (s) => s.id);
  if (irreversible.length === 0) return page;
  // the cursors stay those of the unfiltered page, so paging never stalls on a filtered page
  return { ...page, items: await rejectFiltered(ctx, irreversible, page.items) };
}

interface PageRows {
  rows: Status[];
  irreversible: FilterRules[];
}

/** The page as one Prisma query, after reading the viewer's sets (one statement). */
async function prismaPage(ctx: Ctx, input: Input, build: Build, k: Keyset): Promise<PageRows> {
  const sets = await viewerSets(ctx, input, build);
  const and = pageWhere(ctx, input, build, sets);
  const rows = await ctx.db.status.findMany({
    where: { AND: [...and, ...(k.cursor ? [{ id: k.cursor }] : [])] },
    orderBy: { id: k.order },
    take: k.take,
  });
  return { rows, irreversible: sets.irreversible };
}

/**
 * Which timeline a page is of, for the guess of what it shows (src/domain/page-hints.ts): the timeline's own
 * conditions (the viewer's for home, the account's, the tags', the instance's), and whether it is the newest page.
 * Not the viewer's, unless the timeline is theirs: a public or an account's page looks the same to every viewer,
 * and what one viewer's page left in the caches serves the next one.
 */
function pageHintKey(build: Build, k: Keyset): string {
  return JSON.stringify([build.filterContext, build.reblogs, k.cursor?.lt ? "older" : "newest", ...(build.sql ?? []).flatMap((c) => c.values)]);
}

/**
 * The page in one hand-written statement (pageSql: prismaPage's conditions in SQL), the viewer's `hide` filters
 * with it, and everything its statuses render with (status-data.ts, loadPageWithStatusData): one round trip for
 * the whole page, which rendering it then reuses.
 */
async function sqlPage(ctx: Ctx, input: Input, build: Build, k: Keyset): Promise<PageRows> {
  const and = pageSql(ctx, input, build);
  if (k.cursor?.lt) and.push(Prisma.sql`s.id < ${k.cursor.lt}`);
  if (k.cursor?.gt) and.push(Prisma.sql`s.id > ${k.cursor.gt}`);
  const viewerId = ctx.viewer.account?.id;
  const direction = Prisma.raw(k.order === "asc" ? "ASC" : "DESC");
  const { rows, columns } = await loadPageWithStatusData<{ page_filters: unknown }>(
    ctx,
    {
      rows: Prisma.sql`SELECT s.id, s.reblog_of_id FROM statuses s
      JOIN accounts a ON a.id = s.account_id
      LEFT JOIN statuses o ON o.id = s.reblog_of_id
      LEFT JOIN accounts oa ON oa.id = o.account_id
      WHERE ${Prisma.join(and, " AND ")}
      ORDER BY s.id ${direction} LIMIT ${limitSql(k.take)}`,
      direction,
      columns: [Prisma.sql`${viewerId ? hideFilters(ctx, viewerId, build) : Prisma.sql`NULL`} AS page_filters`],
    },
    pageHintKey(build, k),
  );
  return { rows, irreversible: decodeFilters(ctx.db, columns.page_filters) };
}

export const homeTimeline = operation({
  name: "timelines.home",
  access: { scopes: ["read:statuses"] },
  input: feedInput,
  authorize: requireAccount,
  async run(ctx, input) {
    return runTimeline(ctx, input, { ...TIMELINE_RULES.home, sql: homeSql(ctx.viewer.account!.id), visibilityImplied: true });
  },
});

/** Direct statuses the viewer wrote or is addressed by, newest first (the reference API's earlier direct timeline; the `direct` stream lists the same). */
export const directTimeline = operation({
  name: "timelines.direct",
  access: { scopes: ["read:statuses"] },
  input: commonInput,
  authorize: requireAccount,
  async run(ctx, input) {
    return runTimeline(ctx, input, { ...TIMELINE_RULES.direct, where: directWhere(ctx.viewer.account!.id) });
  },
});

export const publicTimeline = operation({
  name: "timelines.public",
  access: { scopes: ["read:statuses"], optional: true },
  input: feedInput.extend({ instance: z.string().optional() }),
  async run(ctx, input) {
    const instance = input.instance ? input.instance.trim().toLowerCase() : undefined;
    return runTimeline(ctx, input, { ...TIMELINE_RULES.public, sql: [openVisibilitySql(!!ctx.viewer.account), ...instanceAuthorSql(instance)], visibilityImplied: true });
  },
});

export const tagTimeline = operation({
  name: "timelines.tag",
  access: { scopes: ["read:statuses"], optional: true },
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
    const sql = [openVisibilitySql(!!ctx.viewer.account), ...tagSql(anyIds, all.map((t) => ids.get(t)!), none.flatMap((t) => ids.get(t) ?? []))];
    return runTimeline(ctx, input, { ...TIMELINE_RULES.tag, sql, visibilityImplied: true });
  },
});

export const bubbleTimeline = operation({
  name: "timelines.bubble",
  access: { scopes: ["read:statuses"], optional: true },
  input: commonInput.extend({ reply_visibility: z.enum(["following", "self"]).optional() }),
  async run(ctx, input) {
    const hosts = ctx.config.get("instance", "local_bubble").map((h) => h.toLowerCase());
    const origin: Prisma.StatusWhereInput = hosts.length ? { OR: [{ local: true }, { account: { domain: { in: hosts } } }] } : { local: true };
    return runTimeline(ctx, input, { ...TIMELINE_RULES.bubble, where: [openVisibilityWhere(!!ctx.viewer.account), origin] });
  },
});

export const accountStatuses = operation({
  name: "timelines.account",
  access: { scopes: ["read:statuses"], optional: true },
  input: commonInput.extend({
    id: z.string(),
    pinned: bool().optional(),
    tagged: z.string().optional(),
    exclude_reblogs: bool().optional(),
    exclude_replies: bool().optional(),
  }),
  async run(ctx, input) {
    const account = await getAccount(ctx, input.id);
    let tagId: string | undefined;
    if (input.tagged) {
      const tagged = tagName(input.tagged);
      tagId = (await tagIds(ctx, [tagged])).get(tagged);
      if (!tagId) return { items: [] } as Page<Status>;
    }
    if (input.pinned) {
      // pinned statuses come by pin date, newest first, in one page
      const where: Prisma.StatusWhereInput[] = [{ accountId: account.id }, { pinnedAt: { not: null } }, visibleWhere(ctx)];
      if (tagId) where.push({ tags: { some: { tagId } } });
      if (input.exclude_replies) where.push({ inReplyToId: null });
      const items = await ctx.db.status.findMany({
        where: { AND: where },
        orderBy: [{ pinnedAt: "desc" }, { id: "desc" }],
        take: keyset(input).take,
      });
      return { items } as Page<Status>;
    }
    const sql = [Prisma.sql`s.account_id = ${account.id}`, ...(tagId ? tagSql([tagId], [], []) : [])];
    if (input.exclude_replies) sql.push(Prisma.sql`s.in_reply_to_id IS NULL`);
    return runTimeline(ctx, input, { ...TIMELINE_RULES.account, sql, reblogs: !input.exclude_reblogs });
  },
});
