// Who sees which status in which timeline: the ONE home of the timelines' rules. Each rule is stated
// here in all its forms, next to each other: a Prisma condition (timeline pages, timelines.ops.ts's
// runTimeline), SQL (the home page's hand-written statement) and an in-memory predicate for one status
// and many viewers at once (the streaming API and GraphQL subscriptions, through src/domain/streams/).
// A change to who sees what is made here, in every form; test/domain/visibility-scenarios.integration.test.ts
// runs one scenario table against the timelines and the streams and expects the same answers.
// Visibility itself (canSee, visibleWhere and its SQL halves) is statuses/visibility.ts, shared with
// single reads; keyword filters are filters.read.ts's filterResults in both forms. This module reads
// nothing: the timelines read the viewer's sets (timelines.ops.ts), the streams theirs (streams.read.ts).
import { Prisma, type Status, type Visibility } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { filterResults, type FilterContext, type FilterRules } from "../filters/filters.read.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import {
  canSee,
  FOLLOWER_VISIBILITIES,
  sqlArray,
  visibleAuthorSql,
  visibleAuthorWhere,
  visibleStatusSql,
  visibleStatusWhere,
  type ViewerContext,
} from "../statuses/visibility.ts";

// ---- the rule list ----------------------------------------------------------------------------

/** What a timeline applies besides visibility and its own conditions (below, per timeline). */
export interface TimelineRule {
  /** the keyword-filter context whose irreversible (`hide`) filters drop matches; `warn` ones only mark them (`filtered`) */
  filterContext: FilterContext;
  /** reblogs are listed; a reblog needs its original to pass the same rules */
  reblogs: boolean;
  /** the viewer's mutes hide the author's statuses (account timelines: only the originals of reblogs) */
  muteAuthor: boolean;
  /** statuses in threads the viewer muted are hidden (unless `with_muted`) */
  threadMutes: boolean;
}

/**
 * Every timeline's rule. Own conditions: home = homeSql / inHome; list = listWhere / inList (its
 * replies policy); public, tag and bubble = openVisibilitySql (bubble: openVisibilityWhere) /
 * openVisibilities (public, plus local-only for signed-in viewers), with originSql / passesOrigin,
 * instanceAuthorSql and tagSql / hasTag;
 * direct = directWhere / inDirect; account = its author (timelines.ops.ts).
 * For every one: visibility (visibleWhere / canSee), blocks either way, then the author filters
 * (authorFilters / passesAuthorFilters: mutes, domain blocks, muted threads) and the irreversible
 * keyword filters of `filterContext`.
 */
export const TIMELINE_RULES = {
  home: { filterContext: "home", reblogs: true, muteAuthor: true, threadMutes: true },
  list: { filterContext: "home", reblogs: true, muteAuthor: true, threadMutes: true },
  public: { filterContext: "public", reblogs: false, muteAuthor: true, threadMutes: true },
  tag: { filterContext: "public", reblogs: false, muteAuthor: true, threadMutes: true },
  bubble: { filterContext: "public", reblogs: false, muteAuthor: true, threadMutes: true },
  // the direct stream applies no keyword filters (inDirect); the direct timeline applies the home ones
  direct: { filterContext: "home", reblogs: false, muteAuthor: true, threadMutes: true },
  account: { filterContext: "account", reblogs: true, muteAuthor: false, threadMutes: false },
} as const satisfies Record<string, TimelineRule>;

// ---- what the in-memory form looks at --------------------------------------------------------

/** The columns of a status the rules look at (a deleted status keeps only these). */
export type StatusCore = Pick<Status, "id" | "accountId" | "visibility" | "recipientIds" | "reblogOfId" | "local" | "context" | "inReplyToAccountId" | "content" | "spoilerText">;

export interface AuthorFacts {
  id: string;
  domain: string | null;
  deactivated: boolean;
}

/** A reply's parent, for the viewer's `parent_visible`. */
export type ParentFacts = Pick<Status, "id" | "accountId" | "visibility" | "recipientIds"> & { authorDeactivated: boolean };

export interface StatusFacts<S extends StatusCore = Status> {
  status: S;
  author: AuthorFacts;
  /** lower-case hashtag names */
  tags: string[];
  hasMedia: boolean;
  /** the original of a reblog */
  reblogOf: { status: Status; author: AuthorFacts; hasMedia: boolean } | null;
  /** the parent of the status shown (the original's, for a reblog) */
  parent: ParentFacts | null;
}


/** One viewer's relations to the accounts of one event (see loadAudience). */
export interface ViewerView {
  id: string | null;
  /** for canSee: accepted follows and blocks (either way) among the event's accounts */
  visibility: ViewerContext;
  follows(accountId: string): boolean;
  /** follows with reblogs shown */
  followsReblogsOf(accountId: string): boolean;
  muted(accountId: string): boolean;
  domainBlocked(domain: string): boolean;
  threadMuted(context: string): boolean;
  inExclusiveList(accountId: string): boolean;
  /** follows a hashtag of the event's status */
  followsTagOf(tags: readonly string[]): boolean;
  irreversibleFilters(context: FilterContext): FilterRules[];
  /** every unexpired filter of the viewer (for the `filtered` results of what it receives) */
  filters(): FilterRules[];
}

export const anonymousView: ViewerView = {
  id: null,
  visibility: { viewerId: null, following: new Set(), blocked: new Set() },
  follows: () => false,
  followsReblogsOf: () => false,
  muted: () => false,
  domainBlocked: () => false,
  threadMuted: () => false,
  inExclusiveList: () => false,
  followsTagOf: () => false,
  irreversibleFilters: () => [],
  filters: () => [],
};

export interface Audience {
  view(viewerId: string | null): ViewerView;
}

// ---- open visibilities (public, hashtag and bubble timelines) ----------------------------------

/** Public-ish timelines show public statuses, and local-only ones to signed-in (local) viewers. */
export function openVisibilities(signedIn: boolean): Visibility[] {
  return signedIn ? ["public", "local"] : ["public"];
}

/** openVisibilities as a Prisma condition. */
export function openVisibilityWhere(signedIn: boolean): Prisma.StatusWhereInput {
  return { visibility: { in: openVisibilities(signedIn) } };
}

/** openVisibilityWhere in SQL, on the status `s`. */
export function openVisibilitySql(signedIn: boolean): Prisma.Sql {
  return Prisma.sql`s.visibility = ANY (${sqlArray(openVisibilities(signedIn), '"Visibility"')})`;
}

// ---- origin (`local`, `remote`, `instance`, `only_media`: parameters of pages, kinds of public streams) ----

/** What pages and streams filter a status's origin by. */
export interface Origin {
  local?: boolean;
  remote?: boolean;
  /** the author's host, lower case */
  instance?: string;
  onlyMedia?: boolean;
}

/** Origin as Prisma conditions on the status (`instance`: instanceAuthorSql). */
export function originWhere(o: Origin): Prisma.StatusWhereInput[] {
  const and: Prisma.StatusWhereInput[] = [];
  if (o.onlyMedia) and.push({ OR: [{ media: { some: {} } }, { reblogOf: { media: { some: {} } } }] });
  if (o.local) and.push({ local: true });
  if (o.remote) and.push({ local: false });
  return and;
}

/** `instance` (the author's host, lower case) as a condition on the author `a`. */
export function instanceAuthorSql(instance: string | undefined): Prisma.Sql[] {
  return instance === undefined ? [] : [Prisma.sql`a.domain = ${instance}`];
}

/** originWhere in SQL, on the status `s` (`o` the original of a reblog). */
export function originSql(o: Origin): Prisma.Sql[] {
  const and: Prisma.Sql[] = [];
  if (o.onlyMedia)
    and.push(Prisma.sql`(EXISTS (SELECT 1 FROM media_attachments m WHERE m.status_id = s.id) OR EXISTS (SELECT 1 FROM media_attachments m WHERE m.status_id = o.id))`);
  if (o.local) and.push(Prisma.sql`s.local`);
  if (o.remote) and.push(Prisma.sql`NOT s.local`);
  return and;
}

/** The same for one status (streams list no reblogs where they filter by origin). */
export function passesOrigin(f: StatusFacts<StatusCore>, o: Origin): boolean {
  if (o.local && !f.status.local) return false;
  if (o.remote && f.status.local) return false;
  if (o.instance !== undefined && f.author.domain !== o.instance) return false;
  return !o.onlyMedia || f.hasMedia;
}

// ---- hashtags ------------------------------------------------------------------------------

/**
 * A status `s` carrying any of `anyIds`, all of `allIds` and none of `noneIds` (tag ids: see timelines.ops.ts
 * tagIds). Written `IN (SELECT … FROM status_tags …)` as Prisma writes `some`, which the
 * planner may drive from the tag's index (a rare tag must not walk `statuses` newest first).
 */
export function tagSql(anyIds: string[], allIds: string[], noneIds: string[]): Prisma.Sql[] {
  const tagged = (ids: string[]) => Prisma.sql`s.id IN (SELECT st.status_id FROM status_tags st WHERE st.tag_id = ANY (${ids}::text[]))`;
  const and = [tagged(anyIds), ...allIds.map((id) => tagged([id]))];
  if (noneIds.length) and.push(Prisma.sql`NOT ${tagged(noneIds)}`);
  return and;
}

/** The same for one status and one tag (lower-case name), as hashtag streams take it. */
export function hasTag(f: StatusFacts<StatusCore>, tag: string): boolean {
  return f.tags.includes(tag);
}

// ---- the home timeline -----------------------------------------------------------------------

/**
 * The home timeline's own conditions in SQL (its page is one hand-written statement, timelines.ops.ts):
 * the viewer's, addressed to them, what a follower sees (visibility.ts) of someone they follow (with
 * reblogs, unless hidden), or a public status with a hashtag they follow — with visibleAuthorSql, this
 * implies visibleStatusSql; minus members of the viewer's exclusive lists.
 */
export function homeSql(viewerId: string): Prisma.Sql[] {
  return [
    Prisma.sql`(s.account_id = ${viewerId} OR s.recipient_ids @> ARRAY[${viewerId}]::text[]
          OR (s.visibility = ANY (${sqlArray(FOLLOWER_VISIBILITIES, '"Visibility"')})
              AND s.account_id IN (SELECT f.following_id FROM follows f WHERE f.follower_id = ${viewerId} AND f.state = 'accept')
              AND (s.reblog_of_id IS NULL OR s.account_id NOT IN (SELECT f.following_id FROM follows f
                                                                  WHERE f.follower_id = ${viewerId} AND f.state = 'accept' AND NOT f.show_reblogs)))
          OR (s.visibility = 'public' AND s.reblog_of_id IS NULL
              AND EXISTS (SELECT 1 FROM followed_tags ft JOIN status_tags st ON st.tag_id = ft.tag_id
                          WHERE ft.account_id = ${viewerId} AND st.status_id = s.id)))`,
    // members of the viewer's exclusive lists are read in those lists only (reference API);
    // the viewer is never a member of their own lists, so their own statuses stay
    Prisma.sql`s.account_id NOT IN (SELECT lm.account_id FROM list_members lm JOIN lists l ON l.id = lm.list_id
                                    WHERE l.account_id = ${viewerId} AND l.exclusive)`,
  ];
}

/** homeSql for one status. */
function inHome(v: ViewerView, s: StatusCore, tags: readonly string[]): boolean {
  const me = v.id;
  if (!me) return false;
  const byTag = s.visibility === "public" && !s.reblogOfId && v.followsTagOf(tags);
  const mine = s.accountId === me || s.recipientIds.includes(me) || (s.reblogOfId ? v.followsReblogsOf(s.accountId) : v.follows(s.accountId)) || byTag;
  return mine && !v.inExclusiveList(s.accountId);
}

// ---- lists -----------------------------------------------------------------------------------

/** A list as its stream needs it: the author is a member; the reply target is one or not. */
export interface ListFacts {
  id: string;
  ownerId: string;
  repliesPolicy: string;
  replyTargetIsMember: boolean;
}

/**
 * The list timeline's own conditions: by a member, and its replies policy — replies to the owner and
 * self-replies always; to a member (`list`), to someone the owner follows (`followed`), or no other
 * (`none`). `followed` is the owner's followed accounts, read only for the `followed` policy.
 */
export function listWhere(list: { accountId: string; repliesPolicy: string }, members: string[], followed: string[]): Prisma.StatusWhereInput[] {
  const always: Prisma.StatusWhereInput[] = [{ inReplyToAccountId: null }, { inReplyToAccountId: list.accountId }];
  // every author here is a member, so "replied to a member" covers self-replies
  const byMember: Prisma.StatusWhereInput = { accountId: { in: members } };
  if (list.repliesPolicy === "list") return [byMember, { OR: [...always, { inReplyToAccountId: { in: members } }] }];
  // Prisma cannot compare two columns: self-replies are matched per member
  const selfReplies = members.map((id) => ({ accountId: id, inReplyToAccountId: id }));
  if (list.repliesPolicy === "followed") return [byMember, { OR: [...always, ...selfReplies, { inReplyToAccountId: { in: followed } }] }];
  return [byMember, { OR: [...always, ...selfReplies] }];
}

/** listWhere for one status, the author being a member (streams.read.ts listsWithAuthor loads only such lists). */
function inList(v: ViewerView, s: StatusCore, list: ListFacts | undefined): boolean {
  if (!list || !v.id || list.ownerId !== v.id) return false;
  const target = s.inReplyToAccountId;
  if (!target || target === list.ownerId || target === s.accountId) return true;
  if (list.repliesPolicy === "list") return list.replyTargetIsMember;
  if (list.repliesPolicy === "followed") return v.follows(target);
  return false;
}

// ---- direct ----------------------------------------------------------------------------------

/** Direct statuses the viewer wrote or is addressed by (the earlier direct timeline; the `direct` stream). */
export function directWhere(viewerId: string): Prisma.StatusWhereInput[] {
  return [{ visibility: "direct" }, { OR: [{ accountId: viewerId }, { recipientIds: { has: viewerId } }] }];
}

function inDirect(v: ViewerView, s: StatusCore): boolean {
  return !!v.id && s.visibility === "direct" && (s.accountId === v.id || s.recipientIds.includes(v.id));
}

// ---- author filters: mutes, domain blocks, muted threads -------------------------------------

/** The viewer's filters that hold for the status itself and for the original of a reblog. */
export interface AuthorFilters {
  /** relations of the viewer to the author that hide it (active mutes) */
  hiddenBy: Prisma.UserRelationshipWhereInput[];
  /** other conditions on the author (domain blocks) */
  author: Prisma.AccountWhereInput[];
  /** conditions on the status (muted threads) */
  status: Prisma.StatusWhereInput[];
}

export function authorFilters(ctx: Ctx, opts: { withMuted: boolean; blockedDomains: string[]; mutedThreads?: string[] }): AuthorFilters {
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
export function authorFiltersSql(ctx: Ctx, s: Prisma.Sql, a: Prisma.Sql, opts: { withMuted: boolean; mutedThreads: boolean }) {
  const viewerId = ctx.viewer.account?.id;
  const f = { hiddenBy: [] as Prisma.Sql[], and: [] as Prisma.Sql[] };
  if (!viewerId) return f;
  const now = Prisma.sql`(${ctx.clock().toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  if (!opts.withMuted) f.hiddenBy.push(Prisma.sql`(r.type = 'mute' AND (r.expires_at IS NULL OR r.expires_at > ${now}))`);
  f.and.push(Prisma.sql`(${a}.domain IS NULL OR NOT EXISTS (SELECT 1 FROM domain_blocks d WHERE d.account_id = ${viewerId} AND d.domain = ${a}.domain))`);
  if (opts.mutedThreads)
    f.and.push(Prisma.sql`${s}.context NOT IN (SELECT tm.context FROM thread_mutes tm WHERE tm.account_id = ${viewerId} AND (tm.expires_at IS NULL OR tm.expires_at > ${now}))`);
  return f;
}

/** authorFilters for one status (streams: `with_muted` is never asked for). */
function passesAuthorFilters(v: ViewerView, s: Pick<Status, "context">, author: AuthorFacts): boolean {
  if (!v.id) return true;
  if (v.muted(author.id)) return false;
  if (author.domain && v.domainBlocked(author.domain)) return false;
  return !v.threadMuted(s.context);
}

// ---- a page: visibility, the timeline's conditions, the author filters, the page parameters ----

/** The page parameters every timeline accepts that decide what it lists (timelines.ops.ts commonInput / feedInput). */
export interface PageFilters {
  with_muted?: boolean;
  exclude_visibilities?: Visibility[];
  only_media?: boolean;
  local?: boolean;
  remote?: boolean;
  reply_visibility?: "following" | "self";
}

/** A timeline's page: its rule and its own conditions, in Prisma or (`sql`) SQL. */
export interface Build extends TimelineRule {
  /** the timeline's own conditions */
  where?: Prisma.StatusWhereInput[];
  /** the timeline's own conditions on the author, merged into the author's one relation filter */
  author?: Prisma.AccountWhereInput[];
  /**
   * …or the timeline's own conditions in SQL, on the status `s` (`a` its author): the page then
   * comes from one hand-written statement (timelines.ops.ts)
   */
  sql?: Prisma.Sql[];
  /**
   * the timeline's own conditions admit only statuses that visibleStatusWhere admits too, for an
   * author that passes visibleAuthorWhere (open visibilities, or the home timeline's rule), so that
   * part is left out
   */
  visibilityImplied?: boolean;
}

/** Whether the page hides muted threads (the caller then reads the viewer's). */
export function hidesMutedThreads(input: PageFilters, build: Build): boolean {
  return build.threadMutes && !input.with_muted;
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

/** A page's conditions in Prisma, given the viewer's blocked domains and muted threads (read when hidesMutedThreads). */
export function pageWhere(ctx: Ctx, input: PageFilters, build: Build, viewerSets: { blockedDomains: string[]; mutedThreads: string[] }): Prisma.StatusWhereInput[] {
  const viewerId = ctx.viewer.account?.id;
  const { blockedDomains } = viewerSets;
  const own = authorFilters(ctx, { withMuted: !!input.with_muted, blockedDomains, mutedThreads: hidesMutedThreads(input, build) ? viewerSets.mutedThreads : [] });
  const top = build.muteAuthor ? own : authorFilters(ctx, { withMuted: true, blockedDomains });
  const and: Prisma.StatusWhereInput[] = [...visibleLevel(ctx, top, { author: build.author, statusVisibility: !build.visibilityImplied }), ...(build.where ?? [])];
  // a reblog is shown only when its original is visible and passes the same filters
  if (!build.reblogs) and.push({ reblogOfId: null });
  else and.push({ OR: [{ reblogOfId: null }, { reblogOf: { AND: visibleLevel(ctx, own, { statusVisibility: true }) } }] });
  if (input.exclude_visibilities?.length) and.push({ visibility: { notIn: input.exclude_visibilities } });
  and.push(...originWhere({ local: input.local, remote: input.remote, onlyMedia: input.only_media }));
  if (viewerId && input.reply_visibility) {
    const directed: Prisma.StatusWhereInput[] = [{ inReplyToId: null }, { accountId: viewerId }, { inReplyToAccountId: viewerId }];
    if (input.reply_visibility === "following")
      directed.push({ inReplyTo: { account: { followers: { some: { followerId: viewerId, state: "accept" } } } } });
    and.push({ OR: directed });
  }
  return and;
}

/**
 * pageWhere in SQL, condition for condition (`s` the status, `a` its author, `o` and `oa` a reblog's
 * original and its author; the viewer's sets are read in subqueries).
 */
export function pageSql(ctx: Ctx, input: PageFilters, build: Build): Prisma.Sql[] {
  const viewerId = ctx.viewer.account?.id;
  const [s, a, o, oa] = ["s", "a", "o", "oa"].map((alias) => Prisma.raw(alias));
  const level = (st: Prisma.Sql, au: Prisma.Sql, f: ReturnType<typeof authorFiltersSql>, statusVisibility: boolean) => [
    visibleAuthorSql(ctx, st, au, f.hiddenBy),
    ...f.and,
    ...(statusVisibility ? [visibleStatusSql(ctx, st)] : []),
  ];
  const threads = hidesMutedThreads(input, build);
  const own = (st: Prisma.Sql, au: Prisma.Sql) => authorFiltersSql(ctx, st, au, { withMuted: !!input.with_muted, mutedThreads: threads });
  const top = build.muteAuthor ? own(s, a) : authorFiltersSql(ctx, s, a, { withMuted: true, mutedThreads: false });
  const and: Prisma.Sql[] = [...level(s, a, top, !build.visibilityImplied), ...(build.sql ?? [])];
  if (!build.reblogs) and.push(Prisma.sql`s.reblog_of_id IS NULL`);
  else and.push(Prisma.sql`(s.reblog_of_id IS NULL OR (o.id IS NOT NULL AND ${Prisma.join(level(o, oa, own(o, oa), true), " AND ")}))`);
  if (input.exclude_visibilities?.length) and.push(Prisma.sql`s.visibility <> ALL (${sqlArray(input.exclude_visibilities, '"Visibility"')})`);
  and.push(...originSql({ local: input.local, remote: input.remote, onlyMedia: input.only_media }));
  if (viewerId && input.reply_visibility) {
    const followed =
      input.reply_visibility === "following"
        ? Prisma.sql`OR EXISTS (SELECT 1 FROM statuses p JOIN follows f ON f.following_id = p.account_id WHERE p.id = s.in_reply_to_id AND f.follower_id = ${viewerId} AND f.state = 'accept')`
        : Prisma.empty;
    and.push(Prisma.sql`(s.in_reply_to_id IS NULL OR s.account_id = ${viewerId} OR s.in_reply_to_account_id = ${viewerId} ${followed})`);
  }
  return and;
}

// ---- one status, many viewers (the streams) ---------------------------------------------------

export type TimelineKind =
  | { kind: "home" }
  | ({ kind: "public" } & Origin)
  | { kind: "tag"; tag: string; local?: boolean }
  | { kind: "list"; list: ListFacts | undefined }
  | { kind: "direct" };

/** `delete` routing only asks whether the status was in the timeline for this viewer: no mutes or filters. */
export interface IncludeOptions {
  forDelete?: boolean;
}

/** visibleWhere for one status: an active author, and canSee. */
function visible(v: ViewerView, s: Pick<Status, "accountId" | "visibility" | "recipientIds">, author: AuthorFacts): boolean {
  return !author.deactivated && canSee(v.visibility, s);
}

/** runTimeline's irreversible filters (rejectFiltered): the text of the status shown (a reblog's original). */
function filteredOut(v: ViewerView, f: StatusFacts<StatusCore>, context: FilterContext): boolean {
  const filters = v.irreversibleFilters(context);
  if (filters.length === 0) return false;
  const shown = f.reblogOf?.status ?? f.status;
  return filterResults(filters, shown, f.reblogOf ? [f.status.id, shown.id] : [shown.id]).length > 0;
}

/** pageWhere for one status, without page parameters: visibility, author filters, the original of a reblog, keyword filters. */
function passesPage(v: ViewerView, f: StatusFacts<StatusCore>, rule: TimelineRule, opts: IncludeOptions): boolean {
  const s = f.status;
  if (!visible(v, s, f.author)) return false;
  if (s.reblogOfId && !rule.reblogs) return false;
  if (opts.forDelete) return true;
  if (!passesAuthorFilters(v, s, f.author)) return false;
  if (s.reblogOfId) {
    const inner = f.reblogOf;
    if (!inner || !visible(v, inner.status, inner.author) || !passesAuthorFilters(v, inner.status, inner.author)) return false;
  }
  return !filteredOut(v, f, rule.filterContext);
}

/** A cheap look at the status alone, before any viewer's relations are read: could the timeline list it for anybody? */
export function mayInclude(f: StatusFacts<StatusCore>, tl: TimelineKind["kind"], tag?: string): boolean {
  const s = f.status;
  switch (tl) {
    case "home":
    case "list":
      return true;
    case "direct":
      return s.visibility === "direct";
    case "public":
    case "tag":
      if ((s.reblogOfId && !TIMELINE_RULES[tl].reblogs) || !openVisibilities(true).includes(s.visibility)) return false;
      return tag === undefined || hasTag(f, tag);
  }
}

/** Whether the timeline `tl`, read by the viewer `v`, lists the status `f`. */
export function timelineIncludes(v: ViewerView, f: StatusFacts<StatusCore>, tl: TimelineKind, opts: IncludeOptions = {}): boolean {
  const s = f.status;
  switch (tl.kind) {
    case "home":
      return inHome(v, s, f.tags) && passesPage(v, f, TIMELINE_RULES.home, opts);
    case "public":
      if (!openVisibilities(!!v.id).includes(s.visibility) || !passesOrigin(f, tl)) return false;
      return passesPage(v, f, TIMELINE_RULES.public, opts);
    case "tag":
      if (!openVisibilities(!!v.id).includes(s.visibility) || !hasTag(f, tl.tag) || !passesOrigin(f, { local: tl.local })) return false;
      return passesPage(v, f, TIMELINE_RULES.tag, opts);
    case "list":
      return inList(v, s, tl.list) && passesPage(v, f, TIMELINE_RULES.list, opts);
    case "direct":
      // the family's direct stream: no keyword filters there
      return inDirect(v, s) && visible(v, s, f.author) && (!!opts.forDelete || passesAuthorFilters(v, s, f.author));
  }
}

/** Whether the viewer may see a reply's parent (the `parent_visible` of the status shown). */
export function parentVisible(v: ViewerView, parent: ParentFacts | null): boolean {
  return !!parent && !parent.authorDeactivated && canSee(v.visibility, parent);
}
