// The database reads of the streams (src/domain/streams/hub.ts), each a constant number of queries
// whatever the number of subscribers: the facts of one status (or of deleted ones), the relations of
// many viewers to its accounts, the subscribed lists it belongs to, and the few reads of the
// account-side events. What they load is what the rules of timelines/rules.ts look at.
import { modelJson, decodeModel } from "../../db/model-rows.ts";
import { rows } from "../../db/sql.ts";
import { Prisma, type Announcement, type Status, type Visibility } from "../../generated/prisma/client.ts";
import type { DeletedStatus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";
import { loadActiveFilters } from "../filters/filters.read.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { anonymousView, type Audience, type AuthorFacts, type ListFacts, type ParentFacts, type StatusCore, type StatusFacts, type ViewerView } from "../timelines/rules.ts";

interface FactsRow {
  status: Record<string, unknown>;
  author: AuthorFacts;
  tags: string[] | null;
  hasMedia: boolean;
  original: Record<string, unknown> | null;
  originalAuthor: AuthorFacts | null;
  originalHasMedia: boolean;
  parent: ParentFacts | null;
}

/** An author's facts as JSON (the fragments are built once: they are the same for every status) */
const authorJson = (alias: string) => Prisma.raw(`json_build_object('id', ${alias}.id, 'domain', ${alias}.domain, 'deactivated', ${alias}.deactivated)`);
const AUTHOR_A = authorJson("a");
const AUTHOR_RA = authorJson("ra");

/**
 * One status with its author, tags, media presence, original and parent: ONE statement. It runs for every
 * new or edited status while anyone streams or has a page kept (the page cache follows timelines through
 * the hub), where Prisma's `include` of the same had sent ten (docs/performance.md, "Fifteenth round").
 */
export async function loadStatusFacts(ctx: Pick<Ctx, "db">, statusId: string): Promise<StatusFacts | null> {
  const { db } = ctx;
  const [row] = await rows<FactsRow>(
    db,
    Prisma.sql`SELECT ${modelJson(db, "Status", "s")} AS status, ${AUTHOR_A} AS author,
      (SELECT json_agg(t.name) FROM status_tags st JOIN tags t ON t.id = st.tag_id WHERE st.status_id = s.id) AS tags,
      EXISTS (SELECT 1 FROM media_attachments m WHERE m.status_id = s.id) AS "hasMedia",
      CASE WHEN r.id IS NULL THEN NULL ELSE ${modelJson(db, "Status", "r")} END AS original,
      CASE WHEN r.id IS NULL THEN NULL ELSE ${AUTHOR_RA} END AS "originalAuthor",
      EXISTS (SELECT 1 FROM media_attachments m WHERE m.status_id = r.id) AS "originalHasMedia",
      -- the parent of the status shown: the original's, for a reblog
      (SELECT json_build_object('id', p.id, 'accountId', p.account_id, 'visibility', p.visibility, 'recipientIds', p.recipient_ids, 'authorDeactivated', pa.deactivated)
        FROM statuses p JOIN accounts pa ON pa.id = p.account_id
        WHERE p.id = CASE WHEN r.id IS NULL THEN s.in_reply_to_id ELSE r.in_reply_to_id END) AS parent
    FROM statuses s
    JOIN accounts a ON a.id = s.account_id
    LEFT JOIN statuses r ON r.id = s.reblog_of_id
    LEFT JOIN accounts ra ON ra.id = r.account_id
    WHERE s.id = ${statusId}`,
  );
  if (!row) return null;
  return {
    status: decodeModel(db, "Status", row.status),
    author: row.author,
    tags: (row.tags ?? []).map((name) => name.toLowerCase()),
    hasMedia: row.hasMedia,
    reblogOf: row.original && row.originalAuthor ? { status: decodeModel(db, "Status", row.original), author: row.originalAuthor, hasMedia: row.originalHasMedia } : null,
    parent: row.parent,
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
 * The relations of many viewers to the accounts of one event, in two statements whatever the number of
 * viewers (`audienceRows` and the filters): the batch form of viewerContext (visibility.ts) plus what
 * runTimeline reads (mutes, domain blocks, thread mutes, irreversible filters), the home timeline's exclusive
 * lists and followed tags.
 */
export async function loadAudience(ctx: Pick<Ctx, "db" | "clock">, viewerIds: readonly string[], facts: StatusFacts<StatusCore>): Promise<Audience> {
  const viewers = [...new Set(viewerIds)];
  if (viewers.length === 0) return { view: () => anonymousView };
  const s = facts.status;
  const accounts = [...new Set([s.accountId, facts.reblogOf?.author.id, facts.parent?.accountId, s.inReplyToAccountId].filter((id): id is string => !!id))];
  const domains = [...new Set([facts.author.domain, facts.reblogOf?.author.domain].filter((d): d is string => !!d))];
  const now = ctx.clock();
  // only a public original with hashtags can reach a home timeline through a followed tag
  const tagged = s.visibility === "public" && !s.reblogOfId && facts.tags.length > 0;
  const [[row], filters] = await Promise.all([audienceRows(ctx, viewers, accounts, domains, s, tagged ? facts.tags : null, now), loadActiveFilters(ctx, viewers)]);
  const follows = row?.follows ?? [];
  const relations = row?.relations ?? [];
  const domainBlocks = row?.domainBlocks ?? [];
  const threadMutes = row?.threadMutes ?? [];
  const exclusive = row?.exclusive ?? [];
  const tagFollowers = new Set(row?.tagFollowers ?? []);
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
  const mutedThread = new Set(threadMutes);
  const filtersOf = group(filters, (f) => f.filter.accountId);
  const exclusiveOwners = new Set(exclusive);
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

interface AudienceRow {
  follows: { followerId: string; followingId: string; showReblogs: boolean }[] | null;
  relations: { sourceId: string; targetId: string; type: string }[] | null;
  domainBlocks: { accountId: string; domain: string }[] | null;
  /** viewers who muted the status's thread */
  threadMutes: string[] | null;
  /** viewers with an exclusive list the author is in (home leaves such statuses to the list) */
  exclusive: string[] | null;
  /** viewers who follow one of the status's hashtags (null when it cannot reach home that way) */
  tagFollowers: string[] | null;
}

/**
 * The viewers' follows, blocks and mutes (either way where it counts), domain blocks, thread mutes, exclusive
 * lists and followed tags for one status: ONE statement whatever the number of viewers (six or seven before).
 */
function audienceRows(ctx: Pick<Ctx, "db">, viewers: string[], accounts: string[], domains: string[], s: StatusCore, tags: string[] | null, now: Date) {
  return rows<AudienceRow>(
    ctx.db,
    Prisma.sql`WITH v AS (SELECT ${viewers}::text[] AS ids), x AS (SELECT ${accounts}::text[] AS ids),
      clock AS (SELECT (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC') AS now)
    SELECT
      (SELECT json_agg(json_build_object('followerId', f.follower_id, 'followingId', f.following_id, 'showReblogs', f.show_reblogs))
        FROM follows f, v, x WHERE f.follower_id = ANY(v.ids) AND f.following_id = ANY(x.ids) AND f.state = 'accept') AS follows,
      (SELECT json_agg(json_build_object('sourceId', r.source_id, 'targetId', r.target_id, 'type', r.type))
        FROM user_relationships r, v, x, clock
        WHERE (r.expires_at IS NULL OR r.expires_at > clock.now)
          AND ((r.source_id = ANY(v.ids) AND r.target_id = ANY(x.ids) AND r.type IN ('block', 'mute'))
            OR (r.source_id = ANY(x.ids) AND r.target_id = ANY(v.ids) AND r.type = 'block'))) AS relations,
      (SELECT json_agg(json_build_object('accountId', d.account_id, 'domain', d.domain))
        FROM domain_blocks d, v WHERE d.account_id = ANY(v.ids) AND d.domain = ANY(${domains}::text[])) AS "domainBlocks",
      (SELECT json_agg(t.account_id) FROM thread_mutes t, v, clock
        WHERE t.account_id = ANY(v.ids) AND t.context = ${s.context} AND (t.expires_at IS NULL OR t.expires_at > clock.now)) AS "threadMutes",
      (SELECT json_agg(DISTINCT l.account_id) FROM list_members m JOIN lists l ON l.id = m.list_id, v
        WHERE m.account_id = ${s.accountId} AND l.account_id = ANY(v.ids) AND l.exclusive) AS exclusive,
      ${
        tags
          ? Prisma.sql`(SELECT json_agg(DISTINCT ft.account_id) FROM followed_tags ft JOIN tags t ON t.id = ft.tag_id, v WHERE ft.account_id = ANY(v.ids) AND t.name = ANY(${tags}::text[]))`
          : Prisma.sql`NULL::json`
      } AS "tagFollowers"`,
  );
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
