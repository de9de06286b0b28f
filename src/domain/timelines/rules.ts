// What a timeline shows, decided for ONE status and many viewers at once: the rules of
// timelines.ops.ts (runTimeline and each timeline's own conditions) as in-memory predicates, for the
// streaming API and GraphQL subscriptions. timelines.ops.ts states them as Prisma conditions for
// pages; the two forms must agree, and test/streaming/ checks every stream against its timeline.
// Visibility itself is canSee (visibility.ts); keyword filters are filters.ops.ts's.
import type { Prisma, Status, Visibility } from "../../generated/prisma/client.ts";
import type { DeletedStatus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";
import { filterResults, loadActiveFilters, type FilterContext, type FilterRules } from "../filters/filters.read.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { canSee, type ViewerContext } from "../statuses/visibility.ts";

/** Public-ish timelines (public, hashtag, bubble): public statuses, and local-only ones for signed-in viewers. */
export function openVisibilities(signedIn: boolean): Visibility[] {
  return signedIn ? ["public", "local"] : ["public"];
}

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

const authorSelect = { select: { id: true, domain: true, deactivated: true } } as const;
const parentSelect = { select: { id: true, accountId: true, visibility: true, recipientIds: true, account: { select: { deactivated: true } } } } as const;

/** One status with its author, tags, media presence, original and parent: one query. */
export async function loadStatusFacts(ctx: Pick<Ctx, "db">, statusId: string): Promise<StatusFacts | null> {
  const row = await ctx.db.status.findUnique({
    where: { id: statusId },
    include: {
      account: authorSelect,
      tags: { select: { tag: { select: { name: true } } } },
      _count: { select: { media: true } },
      inReplyTo: parentSelect,
      reblogOf: { include: { account: authorSelect, _count: { select: { media: true } }, inReplyTo: parentSelect } },
    },
  });
  if (!row) return null;
  const { account, tags, _count, inReplyTo, reblogOf, ...status } = row;
  const parentOf = (p: typeof inReplyTo): ParentFacts | null => (p ? { id: p.id, accountId: p.accountId, visibility: p.visibility, recipientIds: p.recipientIds, authorDeactivated: p.account.deactivated } : null);
  let original: StatusFacts["reblogOf"] = null;
  if (reblogOf) {
    const { account: innerAuthor, _count: innerCount, inReplyTo: _p, ...inner } = reblogOf;
    original = { status: inner, author: innerAuthor, hasMedia: innerCount.media > 0 };
  }
  return {
    status,
    author: account,
    tags: tags.map((t) => t.tag.name.toLowerCase()),
    hasMedia: _count.media > 0,
    reblogOf: original,
    parent: parentOf(reblogOf ? reblogOf.inReplyTo : inReplyTo),
  };
}

/** What the streams need of a status about to be deleted, and of its reblogs (deleted with it): one query. */
export async function deletedStatuses(ctx: Pick<Ctx, "db">, status: Status): Promise<DeletedStatus[]> {
  return deletedStatusesWhere(ctx, { id: status.id });
}

const DELETED_CHUNK = 500;

/** The same for every status matching `where` (an account's, a host's), a chunk of statuses per query. */
export async function deletedStatusesWhere(ctx: Pick<Ctx, "db">, where: Prisma.StatusWhereInput): Promise<DeletedStatus[]> {
  const out: DeletedStatus[] = [];
  let after: string | undefined;
  for (;;) {
    const rows = await ctx.db.status.findMany({
      where: { AND: [where, after ? { id: { gt: after } } : {}] },
      orderBy: { id: "asc" },
      take: DELETED_CHUNK,
      select: {
        id: true,
        accountId: true,
        visibility: true,
        reblogOfId: true,
        local: true,
        recipientIds: true,
        context: true,
        inReplyToAccountId: true,
        account: { select: { domain: true } },
        tags: { select: { tag: { select: { name: true } } } },
        _count: { select: { media: true } },
        reblogs: { select: { id: true, accountId: true, visibility: true, local: true, account: { select: { domain: true } } } },
      },
    });
    for (const row of rows) {
      const base = { recipientIds: row.recipientIds, context: row.context, inReplyToAccountId: row.inReplyToAccountId };
      out.push({
        ...base,
        statusId: row.id,
        accountId: row.accountId,
        visibility: row.visibility,
        reblogOfId: row.reblogOfId,
        local: row.local,
        domain: row.account.domain,
        tags: row.tags.map((t) => t.tag.name.toLowerCase()),
        hasMedia: row._count.media > 0,
      });
      for (const r of row.reblogs) {
        out.push({
          ...base,
          recipientIds: [],
          inReplyToAccountId: null,
          statusId: r.id,
          accountId: r.accountId,
          visibility: r.visibility,
          reblogOfId: row.id,
          local: r.local,
          domain: r.account.domain,
          tags: [],
          hasMedia: false,
        });
      }
    }
    if (rows.length < DELETED_CHUNK) return out;
    after = rows.at(-1)!.id;
  }
}

/** A deleted status as facts: enough to route its `delete` to whoever could have received it. */
export function deletedFacts(d: DeletedStatus): StatusFacts<StatusCore> {
  return {
    status: { id: d.statusId, accountId: d.accountId, visibility: d.visibility as Visibility, recipientIds: d.recipientIds, reblogOfId: d.reblogOfId, local: d.local, context: d.context, inReplyToAccountId: d.inReplyToAccountId, content: "", spoilerText: "" },
    author: { id: d.accountId, domain: d.domain, deactivated: false },
    tags: d.tags,
    hasMedia: d.hasMedia,
    reblogOf: null,
    parent: null,
  };
}

// ---- viewers ------------------------------------------------------------------------------

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

const key = (a: string, b: string) => `${a} ${b}`;

function group<T>(rows: T[], by: (r: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const r of rows) {
    const list = map.get(by(r));
    if (list) list.push(r);
    else map.set(by(r), [r]);
  }
  return map;
}

/**
 * The relations of many viewers to the accounts of one event, in at most seven queries whatever the
 * number of viewers: the batch form of viewerContext (visibility.ts) plus what runTimeline reads
 * (mutes, domain blocks, thread mutes, irreversible filters) and the home timeline's exclusive lists.
 */
export async function loadAudience(ctx: Pick<Ctx, "db" | "clock">, viewerIds: readonly string[], facts: StatusFacts<StatusCore>): Promise<Audience> {
  const viewers = [...new Set(viewerIds)];
  if (viewers.length === 0) return { view: () => anonymousView };
  const s = facts.status;
  const accounts = [...new Set([s.accountId, facts.reblogOf?.author.id, facts.parent?.accountId, s.inReplyToAccountId].filter((id): id is string => !!id))];
  const domains = [...new Set([facts.author.domain, facts.reblogOf?.author.domain].filter((d): d is string => !!d))];
  const now = ctx.clock();
  const inViewers = { in: viewers };
  const [follows, relations, domainBlocks, threadMutes, filters, exclusive] = await Promise.all([
    ctx.db.follow.findMany({ where: { followerId: inViewers, followingId: { in: accounts }, state: "accept" }, select: { followerId: true, followingId: true, showReblogs: true } }),
    ctx.db.userRelationship.findMany({
      where: {
        AND: [
          activeRelation(now),
          { OR: [{ sourceId: inViewers, targetId: { in: accounts }, type: { in: ["block", "mute"] } }, { sourceId: { in: accounts }, targetId: inViewers, type: "block" }] },
        ],
      },
      select: { sourceId: true, targetId: true, type: true },
    }),
    domains.length ? ctx.db.domainBlock.findMany({ where: { accountId: inViewers, domain: { in: domains } }, select: { accountId: true, domain: true } }) : Promise.resolve([]),
    ctx.db.threadMute.findMany({ where: { AND: [{ accountId: inViewers, context: s.context }, activeRelation(now)] }, select: { accountId: true } }),
    loadActiveFilters(ctx, viewers),
    ctx.db.listMember.findMany({ where: { accountId: s.accountId, list: { accountId: inViewers, exclusive: true } }, select: { list: { select: { accountId: true } } } }),
  ]);
  // only a public original with hashtags can reach a home timeline through a followed tag
  const tagged = s.visibility === "public" && !s.reblogOfId && facts.tags.length > 0;
  const tagFollowers = tagged
    ? new Set((await ctx.db.followedTag.findMany({ where: { accountId: inViewers, tag: { name: { in: [...facts.tags] } } }, select: { accountId: true } })).map((f) => f.accountId))
    : new Set<string>();
  const followed = new Map(follows.map((f) => [key(f.followerId, f.followingId), f.showReblogs]));
  const viewerSet = new Set(viewers);
  const blocked = new Set<string>();
  const muted = new Set<string>();
  for (const r of relations) {
    if (r.type === "mute") muted.add(key(r.sourceId, r.targetId));
    else {
      // blocks count either way, keyed viewer first
      if (viewerSet.has(r.sourceId)) blocked.add(key(r.sourceId, r.targetId));
      if (viewerSet.has(r.targetId)) blocked.add(key(r.targetId, r.sourceId));
    }
  }
  const blockedDomains = new Set(domainBlocks.map((d) => key(d.accountId, d.domain)));
  const mutedThread = new Set(threadMutes.map((t) => t.accountId));
  const filtersOf = group(filters, (f) => f.filter.accountId);
  const exclusiveOwners = new Set(exclusive.map((m) => m.list.accountId));
  const views = new Map<string, ViewerView>();
  return {
    view(viewerId) {
      if (!viewerId) return anonymousView;
      let v = views.get(viewerId);
      if (v) return v;
      const id = viewerId;
      v = {
        id,
        visibility: {
          viewerId: id,
          following: new Set(accounts.filter((a) => followed.has(key(id, a)))),
          blocked: new Set(accounts.filter((a) => blocked.has(key(id, a)))),
        },
        follows: (a) => followed.has(key(id, a)),
        followsReblogsOf: (a) => followed.get(key(id, a)) === true,
        muted: (a) => muted.has(key(id, a)),
        domainBlocked: (d) => blockedDomains.has(key(id, d)),
        threadMuted: (c) => c === s.context && mutedThread.has(id),
        inExclusiveList: (a) => a === s.accountId && exclusiveOwners.has(id),
        followsTagOf: () => tagFollowers.has(id),
        irreversibleFilters: (context) => (filtersOf.get(id) ?? []).filter((f) => f.filter.action === "hide" && f.filter.context.includes(context)),
        filters: () => filtersOf.get(id) ?? [],
      };
      views.set(id, v);
      return v;
    },
  };
}

// ---- the rules ----------------------------------------------------------------------------

/** A list as its stream needs it: the author is a member; the reply target is one or not. */
export interface ListFacts {
  id: string;
  ownerId: string;
  repliesPolicy: string;
  replyTargetIsMember: boolean;
}

export type TimelineKind =
  | { kind: "home" }
  | { kind: "public"; local?: boolean; remote?: boolean; instance?: string; onlyMedia?: boolean }
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

/** runTimeline's authorFilters: the viewer's mutes, domain blocks and muted threads. */
function passesAuthorFilters(v: ViewerView, s: Pick<Status, "context">, author: AuthorFacts): boolean {
  if (!v.id) return true;
  if (v.muted(author.id)) return false;
  if (author.domain && v.domainBlocked(author.domain)) return false;
  return !v.threadMuted(s.context);
}

/** runTimeline's irreversible filters: the text of the status shown (a reblog's original). */
function filteredOut(v: ViewerView, f: StatusFacts<StatusCore>, context: FilterContext): boolean {
  const filters = v.irreversibleFilters(context);
  if (filters.length === 0) return false;
  const shown = f.reblogOf?.status ?? f.status;
  return filterResults(filters, shown, f.reblogOf ? [f.status.id, shown.id] : [shown.id]).length > 0;
}

/** What runTimeline applies to every timeline: visibility, author filters, the original of a reblog, keyword filters. */
function passesRunTimeline(v: ViewerView, f: StatusFacts<StatusCore>, build: { filterContext: FilterContext; reblogs: boolean }, opts: IncludeOptions): boolean {
  const s = f.status;
  if (!visible(v, s, f.author)) return false;
  if (s.reblogOfId && !build.reblogs) return false;
  if (opts.forDelete) return true;
  if (!passesAuthorFilters(v, s, f.author)) return false;
  if (s.reblogOfId) {
    const inner = f.reblogOf;
    if (!inner || !visible(v, inner.status, inner.author) || !passesAuthorFilters(v, inner.status, inner.author)) return false;
  }
  return !filteredOut(v, f, build.filterContext);
}

/** homeTimeline's own conditions: the viewer's, addressed to them, by someone they follow, or a public status with a hashtag they follow. */
function inHome(v: ViewerView, s: StatusCore, tags: readonly string[]): boolean {
  const me = v.id;
  if (!me) return false;
  const byTag = s.visibility === "public" && !s.reblogOfId && v.followsTagOf(tags);
  const mine = s.accountId === me || s.recipientIds.includes(me) || (s.reblogOfId ? v.followsReblogsOf(s.accountId) : v.follows(s.accountId)) || byTag;
  return mine && !v.inExclusiveList(s.accountId);
}

/** The list's replies policy (lists.ops.ts repliesWhere). */
function listReplyShown(v: ViewerView, s: StatusCore, list: ListFacts): boolean {
  const target = s.inReplyToAccountId;
  if (!target || target === list.ownerId || target === s.accountId) return true;
  if (list.repliesPolicy === "list") return list.replyTargetIsMember;
  if (list.repliesPolicy === "followed") return v.follows(target);
  return false;
}

/** Whether the timeline `tl`, read by the viewer `v`, lists the status `f`. */
export function timelineIncludes(v: ViewerView, f: StatusFacts<StatusCore>, tl: TimelineKind, opts: IncludeOptions = {}): boolean {
  const s = f.status;
  switch (tl.kind) {
    case "home":
      return inHome(v, s, f.tags) && passesRunTimeline(v, f, { filterContext: "home", reblogs: true }, opts);
    case "public": {
      if (!openVisibilities(!!v.id).includes(s.visibility)) return false;
      if (tl.local && !s.local) return false;
      if (tl.remote && s.local) return false;
      if (tl.instance !== undefined && f.author.domain !== tl.instance) return false;
      if (tl.onlyMedia && !f.hasMedia) return false;
      return passesRunTimeline(v, f, { filterContext: "public", reblogs: false }, opts);
    }
    case "tag":
      if (!openVisibilities(!!v.id).includes(s.visibility) || !f.tags.includes(tl.tag)) return false;
      if (tl.local && !s.local) return false;
      return passesRunTimeline(v, f, { filterContext: "public", reblogs: false }, opts);
    case "list":
      if (!tl.list || !v.id || tl.list.ownerId !== v.id || !listReplyShown(v, s, tl.list)) return false;
      return passesRunTimeline(v, f, { filterContext: "home", reblogs: true }, opts);
    case "direct":
      // the family's direct stream: direct statuses the viewer wrote or is addressed by (no keyword filters there)
      if (!v.id || s.visibility !== "direct" || (s.accountId !== v.id && !s.recipientIds.includes(v.id))) return false;
      return visible(v, s, f.author) && (opts.forDelete || passesAuthorFilters(v, s, f.author));
  }
}

/** Whether the viewer may see a reply's parent (the `parent_visible` of the status shown). */
export function parentVisible(v: ViewerView, parent: ParentFacts | null): boolean {
  return !!parent && !parent.authorDeactivated && canSee(v.visibility, parent);
}
