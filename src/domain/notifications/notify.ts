// Creating notifications: the one place that decides who is spared (yourself, blocks, mutes, domain
// blocks, muted threads, strangers under `block_from_strangers`). Every stored notification is queued
// for the recipient's web push subscriptions in the same transaction, and published on the bus once
// that has committed.
import { newId } from "../../db/ids.ts";
import type { NotificationPolicy, Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { queuePushDeliveries } from "../push/deliveries.ts";
import { afterCommit, inTransaction } from "../transaction.ts";
import { canSee } from "../statuses/visibility.ts";
import { applyPolicies, recordRequests } from "./policy.ts";
import { sqlFor } from "../../db/sql.ts";

export type NotificationType = "mention" | "status" | "reblog" | "follow" | "follow_request" | "favourite" | "poll" | "update" | "move" | "emoji_reaction" | "chat_mention" | "report" | "moderation_warning" | "severed_relationships";

export interface NotificationInput {
  accountId: string;
  type: NotificationType;
  fromAccountId: string;
  statusId?: string;
  reportId?: string;
  emoji?: string;
  /** chat_mention: the recipient's reference to the message */
  chatMessageRefId?: string;
  /** moderation_warning: the warning */
  accountWarningId?: string;
  /** severed_relationships: the recipient's share of the event */
  severanceEventId?: string;
}

/** Told by the instance itself: as in the reference, their "from" account is the recipient's own. */
const FROM_THE_INSTANCE: readonly NotificationType[] = ["moderation_warning", "severed_relationships"];

/**
 * Stores the notifications that should exist with their push deliveries, and publishes them on the bus
 * once committed; returns how many. As in the family: blocks (either way), notification mutes, domain
 * blocks of the actor's server and muted threads suppress a notification; a plain mute of the actor
 * stores it already seen (listings hide it unless `with_muted`). Given the context of an action's
 * transaction (src/domain/transaction.ts), they commit with the action; otherwise in one of their own.
 */
export async function notify(ctx: Ctx, items: NotificationInput[]): Promise<number> {
  const wanted = items.filter((n) => n.accountId !== n.fromAccountId || n.type === "poll" || FROM_THE_INSTANCE.includes(n.type));
  if (wanted.length === 0) return 0;
  return inTransaction(ctx, async (tx) => {
    const { count, shown } = await storeNotifications(tx, wanted);
    // the bus event is for live streams: nothing to keep for a process that died
    afterCommit(tx, () => {
      for (const row of shown) ctx.bus.publish("notification", { accountId: row.accountId, notificationId: row.id });
    });
    return count;
  });
}

/** How many rows were written, and those not held back by a policy (published and pushed). */
interface Stored {
  count: number;
  shown: { id: string; accountId: string; type: NotificationType; seen: boolean }[];
}

/** The writes of `notify`, every statement through `ctx.db` and `ctx.jobs` (the transaction's). */
async function storeNotifications(ctx: Ctx, wanted: NotificationInput[]): Promise<Stored> {
  const recipients = [...new Set(wanted.map((n) => n.accountId))];
  const actors = [...new Set(wanted.map((n) => n.fromAccountId))];
  const statusIds = [...new Set(wanted.map((n) => n.statusId).filter((id): id is string => !!id))];
  const now = ctx.clock();
  const { relations, locals, actorRows, statuses, domainBlocks, threadMutes, follows, policies, pushSubscriptions } = await notificationFacts(ctx, recipients, actors, statusIds, now);
  const local = new Set(locals.map((a) => a.id));
  const domainOf = new Map(actorRows.map((a) => [a.id, a.domain]));
  const contextOf = new Map(statuses.map((st) => [st.id, st.context]));
  const guarded = locals.filter((a) => a.blocksStrangers).map((a) => a.id);
  const key = (a: string, b: string) => `${a} ${b}`;
  // blocks count either way; a notification mute only from the recipient
  const silenced = new Set(
    relations.flatMap((r) => (r.type === "block" ? [key(r.sourceId, r.targetId), key(r.targetId, r.sourceId)] : r.type === "notification_mute" ? [key(r.sourceId, r.targetId)] : [])),
  );
  const muted = new Set(relations.filter((r) => r.type === "mute").map((r) => key(r.sourceId, r.targetId)));
  const blockedDomains = new Set(domainBlocks.map((d) => key(d.accountId, d.domain)));
  const mutedThreads = new Set(threadMutes.map((t) => key(t.accountId, t.context)));
  const followsRecipient = new Set(follows.map((f) => key(f.followerId, f.followingId)));
  const suppressed = (n: NotificationInput) => {
    if (!local.has(n.accountId) || silenced.has(key(n.accountId, n.fromAccountId))) return true;
    const domain = domainOf.get(n.fromAccountId);
    if (domain && blockedDomains.has(key(n.accountId, domain))) return true;
    const context = n.statusId ? contextOf.get(n.statusId) : undefined;
    if (context && mutedThreads.has(key(n.accountId, context))) return true;
    // strangers: polls and one's own actions excepted
    return guarded.includes(n.accountId) && n.type !== "poll" && !FROM_THE_INSTANCE.includes(n.type) && n.accountId !== n.fromAccountId && !followsRecipient.has(key(n.fromAccountId, n.accountId));
  };
  // the recipients' notification policies drop some and hold others back (policy.ts)
  const decided = await applyPolicies(ctx, wanted.filter((n) => !suppressed(n)), policies);
  const rows = decided.map(({ item: n, filtered }) => ({ ...n, id: newId(), seen: muted.has(key(n.accountId, n.fromAccountId)), filtered }));
  if (rows.length) await ctx.db.notification.createMany({ data: rows });
  const shown = rows.filter((r) => !r.filtered);
  if (shown.length < rows.length) await recordRequests(ctx, rows.filter((r) => r.filtered));
  // queued here, not from the bus: every process hears the bus, this runs once per notification
  await queuePushDeliveries(ctx, shown, pushSubscriptions);
  return { count: rows.length, shown };
}

/** What `notify` reads about the recipients, the actors and the statuses before deciding. */
interface NotificationFacts {
  /** active blocks, notification mutes and mutes from recipients to actors; blocks from actors to recipients */
  relations: { sourceId: string; targetId: string; type: string }[];
  /** the local, active recipients; `blocksStrangers`: their `block_from_strangers` setting is on */
  locals: { id: string; blocksStrangers: boolean }[];
  /** the remote actors' domains */
  actorRows: { id: string; domain: string }[];
  statuses: { id: string; context: string }[];
  /** the recipients' blocks of the actors' domains */
  domainBlocks: { accountId: string; domain: string }[];
  /** the recipients' active mutes of the statuses' threads */
  threadMutes: { accountId: string; context: string }[];
  /** accepted follows from actors to recipients with `block_from_strangers` on (the family's stranger test) */
  follows: { followerId: string; followingId: string }[];
  /** the recipients' notification policies (policy.ts) */
  policies: NotificationPolicy[];
  /** the recipients' push subscriptions (push/deliveries.ts) */
  pushSubscriptions: { id: number; accountId: string; alerts: unknown }[];
}

/**
 * Everything `notify` reads, in ONE statement whatever the number of notifications: it runs on every
 * favourite, reblog, follow, mention and subscribed post, where the nine reads it replaces (two waves of
 * Prisma queries, the policies, the push subscriptions) were half the request's statements. The second
 * wave's inputs (the actors' domains, the statuses' threads, who blocks strangers) are subqueries here.
 * `block_from_strangers` counts when it is JSON `true`, as blocksStrangers in JavaScript read it.
 */
async function notificationFacts(ctx: Ctx, recipients: string[], actors: string[], statusIds: string[], now: Date): Promise<NotificationFacts> {
  const [row] = await sqlFor(ctx.db).query<{ [K in keyof NotificationFacts]: NotificationFacts[K] | null }>(
    `WITH clock AS (SELECT ($4::timestamptz AT TIME ZONE 'UTC') AS now),
      locals AS (
        SELECT id, coalesce(notification_settings -> 'block_from_strangers' = 'true'::jsonb, false) AS "blocksStrangers"
        FROM accounts WHERE id = ANY($1::text[]) AND local AND NOT deactivated),
      actor_rows AS (SELECT id, domain FROM accounts WHERE id = ANY($2::text[]) AND domain IS NOT NULL),
      status_rows AS (SELECT id, context FROM statuses WHERE id = ANY($3::text[]))
    SELECT
      (SELECT json_agg(json_build_object('sourceId', r.source_id, 'targetId', r.target_id, 'type', r.type))
        FROM user_relationships r, clock
        WHERE (r.expires_at IS NULL OR r.expires_at > clock.now)
          AND ((r.source_id = ANY($1::text[]) AND r.target_id = ANY($2::text[]) AND r.type IN ('block', 'notification_mute', 'mute'))
            OR (r.source_id = ANY($2::text[]) AND r.target_id = ANY($1::text[]) AND r.type = 'block'))) AS relations,
      (SELECT json_agg(locals) FROM locals) AS locals,
      (SELECT json_agg(actor_rows) FROM actor_rows) AS "actorRows",
      (SELECT json_agg(status_rows) FROM status_rows) AS statuses,
      (SELECT json_agg(json_build_object('accountId', d.account_id, 'domain', d.domain))
        FROM domain_blocks d WHERE d.account_id = ANY($1::text[]) AND d.domain IN (SELECT domain FROM actor_rows)) AS "domainBlocks",
      (SELECT json_agg(json_build_object('accountId', t.account_id, 'context', t.context))
        FROM thread_mutes t, clock
        WHERE t.account_id = ANY($1::text[]) AND t.context IN (SELECT context FROM status_rows)
          AND (t.expires_at IS NULL OR t.expires_at > clock.now)) AS "threadMutes",
      (SELECT json_agg(json_build_object('followerId', f.follower_id, 'followingId', f.following_id))
        FROM follows f
        WHERE f.follower_id = ANY($2::text[]) AND f.state = 'accept' AND f.following_id IN (SELECT id FROM locals WHERE "blocksStrangers")) AS follows,
      (SELECT json_agg(json_build_object('accountId', p.account_id, 'forNotFollowing', p.for_not_following, 'forNotFollowers', p.for_not_followers,
          'forNewAccounts', p.for_new_accounts, 'forPrivateMentions', p.for_private_mentions, 'forLimitedAccounts', p.for_limited_accounts))
        FROM notification_policies p WHERE p.account_id = ANY($1::text[])) AS policies,
      (SELECT json_agg(json_build_object('id', s.id, 'accountId', s.account_id, 'alerts', s.alerts))
        FROM push_subscriptions s WHERE s.account_id = ANY($1::text[])) AS "pushSubscriptions"`,
    [recipients, actors, statusIds, now.toISOString()],
  );
  return {
    relations: row?.relations ?? [],
    locals: row?.locals ?? [],
    actorRows: row?.actorRows ?? [],
    statuses: row?.statuses ?? [],
    domainBlocks: row?.domainBlocks ?? [],
    threadMutes: row?.threadMutes ?? [],
    follows: row?.follows ?? [],
    policies: row?.policies ?? [],
    pushSubscriptions: row?.pushSubscriptions ?? [],
  };
}

/**
 * `status` notifications for a new post: the author's subscribers (the family's subscribe, or a follow
 * with `notify`) who may see it. As in the family, replies (even to oneself) and reblogs notify no
 * subscriber, and an account the post mentions gets its `mention` only. Callers pass the mentioned ids.
 */
export async function notifySubscribers(ctx: Ctx, status: Status, mentioned: readonly string[]): Promise<number> {
  return notify(ctx, await subscriberNotifications(ctx, status, mentioned));
}

/** The `status` notifications `notifySubscribers` stores, for a caller storing them in its own transaction. */
export async function subscriberNotifications(ctx: Ctx, status: Status, mentioned: readonly string[]): Promise<NotificationInput[]> {
  if (status.reblogOfId || status.inReplyToId) return [];
  const authorId = status.accountId;
  // From the author's followers-with-notify and subscribers (both indexed by the author) to accounts,
  // never the other way round: a scan of every local account per stored status (also per remote status
  // received) would grow with the instance.
  const excluded = [authorId, ...mentioned];
  const now = ctx.clock().toISOString();
  // once per stored status, local or remote: straight to the driver (src/db/sql.ts)
  const subscribers = await sqlFor(ctx.db).query<{ id: string }>(
    `SELECT a.id FROM accounts a
    WHERE a.id IN (
        SELECT f.follower_id FROM follows f WHERE f.following_id = $1 AND f.state = 'accept' AND f.notify
        UNION
        SELECT r.source_id FROM user_relationships r
        WHERE r.target_id = $1 AND r.type = 'subscription'
          AND (r.expires_at IS NULL OR r.expires_at > ($2::timestamptz AT TIME ZONE 'UTC')))
      AND a.local AND NOT a.deactivated AND a.id <> ALL($3::text[])`,
    [authorId, now, excluded],
  );
  if (subscribers.length === 0) return [];
  // who may see it is visibility.ts's rule; of the viewer's ties only following the author matters (private posts)
  const ids = subscribers.map((s) => s.id);
  const followers =
    status.visibility === "private"
      ? new Set((await ctx.db.follow.findMany({ where: { followingId: authorId, followerId: { in: ids }, state: "accept" }, select: { followerId: true } })).map((f) => f.followerId))
      : new Set<string>();
  const seeing = ids.filter((id) => canSee({ viewerId: id, following: new Set(followers.has(id) ? [authorId] : []), blocked: new Set() }, status));
  // blocks, notification mutes and the rest are notify's to decide
  return seeing.map((id) => ({ accountId: id, type: "status" as const, fromAccountId: authorId, statusId: status.id }));
}

/** An accepted follow request: its `follow_request` notification becomes a `follow` one, as in the family. */
export async function followRequestAccepted(ctx: Ctx, followerId: string, followingId: string): Promise<void> {
  await ctx.db.notification.updateMany({ where: { accountId: followingId, fromAccountId: followerId, type: "follow_request" }, data: { type: "follow" } });
}
