// The database reads of the streams (src/domain/streams/hub.ts), each a constant number of queries
// whatever the number of subscribers: the facts of one status (or of deleted ones), the relations of
// many viewers to its accounts, the subscribed lists it belongs to, and the few reads of the
// account-side events. What they load is what the rules of timelines/rules.ts look at.
import type { Announcement, Prisma, Status, Visibility } from "../../generated/prisma/client.ts";
import type { DeletedStatus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";
import { loadActiveFilters } from "../filters/filters.read.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { anonymousView, type Audience, type ListFacts, type ParentFacts, type StatusCore, type StatusFacts, type ViewerView } from "../timelines/rules.ts";

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


// ---- viewers ------------------------------------------------------------------------------

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

// ---- the hub's other reads --------------------------------------------------------------------

/** Whether the account owns the list (a `list` stream is its owner's only). */
export async function ownsList(ctx: Pick<Ctx, "db">, accountId: string, listId: string): Promise<boolean> {
  return !!(await ctx.db.list.findFirst({ where: { id: listId, accountId }, select: { id: true } }));
}

/** The subscribed lists the status's author belongs to, with what their replies policy needs: one query. */
export async function listsWithAuthor(ctx: Pick<Ctx, "db">, listIds: string[], s: StatusCore): Promise<Map<string, ListFacts>> {
  if (listIds.length === 0) return new Map();
  const rows = await ctx.db.list.findMany({
    where: { id: { in: listIds }, members: { some: { accountId: s.accountId } } },
    select: { id: true, accountId: true, repliesPolicy: true, members: { where: { accountId: s.inReplyToAccountId ?? "" }, select: { accountId: true } } },
  });
  return new Map(rows.map((r) => [r.id, { id: r.id, ownerId: r.accountId, repliesPolicy: r.repliesPolicy, replyTargetIsMember: r.members.length > 0 }]));
}

/** Whether the account mutes `targetId` now (the notification list leaves such notifications out, without with_muted). */
export async function mutes(ctx: Pick<Ctx, "db" | "clock">, accountId: string, targetId: string): Promise<boolean> {
  const muted = await ctx.db.userRelationship.findFirst({
    where: { AND: [{ sourceId: accountId, targetId, type: "mute" }, activeRelation(ctx.clock())] },
    select: { id: true },
  });
  return !!muted;
}

/** The announcement if it exists and is active now, else null (the streams withdraw it). */
export async function activeAnnouncement(ctx: Pick<Ctx, "db" | "clock">, id: string): Promise<Announcement | null> {
  const row = await ctx.db.announcement.findUnique({ where: { id } });
  const now = ctx.clock();
  return row && (!row.startsAt || row.startsAt <= now) && (!row.endsAt || row.endsAt > now) ? row : null;
}
