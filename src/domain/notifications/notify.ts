// Creating notifications: the one place that decides who is spared (yourself, blocks, mutes, domain
// blocks, muted threads, strangers under `block_from_strangers`). Every stored notification is
// published on the bus and queued for the recipient's web push subscriptions.
import { newId } from "../../db/ids.ts";
import type { Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { queuePushDeliveries } from "../push/deliveries.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
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

function blocksStrangers(settings: unknown): boolean {
  return !!settings && typeof settings === "object" && (settings as Record<string, unknown>).block_from_strangers === true;
}

/**
 * Stores the notifications that should exist; returns how many. As in the family: blocks (either
 * way), notification mutes, domain blocks of the actor's server and muted threads suppress a
 * notification; a plain mute of the actor stores it already seen (listings hide it unless `with_muted`).
 */
export async function notify(ctx: Ctx, items: NotificationInput[]): Promise<number> {
  const wanted = items.filter((n) => n.accountId !== n.fromAccountId || n.type === "poll" || FROM_THE_INSTANCE.includes(n.type));
  if (wanted.length === 0) return 0;
  const recipients = [...new Set(wanted.map((n) => n.accountId))];
  const actors = [...new Set(wanted.map((n) => n.fromAccountId))];
  const statusIds = [...new Set(wanted.map((n) => n.statusId).filter((id): id is string => !!id))];
  const now = ctx.clock();
  const [relations, locals, actorRows, statuses] = await Promise.all([
    ctx.db.userRelationship.findMany({
      where: {
        AND: [
          activeRelation(now),
          {
            OR: [
              { sourceId: { in: recipients }, targetId: { in: actors }, type: { in: ["block", "notification_mute", "mute"] } },
              { sourceId: { in: actors }, targetId: { in: recipients }, type: "block" },
            ],
          },
        ],
      },
      select: { sourceId: true, targetId: true, type: true },
    }),
    ctx.db.account.findMany({ where: { id: { in: recipients }, local: true, deactivated: false }, select: { id: true, notificationSettings: true } }),
    ctx.db.account.findMany({ where: { id: { in: actors }, domain: { not: null } }, select: { id: true, domain: true } }),
    statusIds.length ? ctx.db.status.findMany({ where: { id: { in: statusIds } }, select: { id: true, context: true } }) : Promise.resolve([]),
  ]);
  const local = new Set(locals.map((a) => a.id));
  const domainOf = new Map(actorRows.map((a) => [a.id, a.domain!]));
  const contextOf = new Map(statuses.map((st) => [st.id, st.context]));
  const guarded = locals.filter((a) => blocksStrangers(a.notificationSettings)).map((a) => a.id);
  const domains = [...new Set(domainOf.values())];
  const contexts = [...new Set(contextOf.values())];
  const [domainBlocks, threadMutes, follows] = await Promise.all([
    domains.length ? ctx.db.domainBlock.findMany({ where: { accountId: { in: recipients }, domain: { in: domains } }, select: { accountId: true, domain: true } }) : Promise.resolve([]),
    contexts.length
      ? ctx.db.threadMute.findMany({ where: { AND: [{ accountId: { in: recipients }, context: { in: contexts } }, activeRelation(now)] }, select: { accountId: true, context: true } })
      : Promise.resolve([]),
    // block_from_strangers, as the family checks it: the actor must follow the recipient
    guarded.length
      ? ctx.db.follow.findMany({ where: { followerId: { in: actors }, followingId: { in: guarded }, state: "accept" }, select: { followerId: true, followingId: true } })
      : Promise.resolve([]),
  ]);
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
  const decided = await applyPolicies(ctx, wanted.filter((n) => !suppressed(n)));
  const rows = decided.map(({ item: n, filtered }) => ({ ...n, id: newId(), seen: muted.has(key(n.accountId, n.fromAccountId)), filtered }));
  if (rows.length) await ctx.db.notification.createMany({ data: rows });
  const shown = rows.filter((r) => !r.filtered);
  if (shown.length < rows.length) await recordRequests(ctx, rows.filter((r) => r.filtered));
  for (const row of shown) ctx.bus.publish("notification", { accountId: row.accountId, notificationId: row.id });
  // queued here, not from the bus: every process hears the bus, this runs once per notification
  await queuePushDeliveries(ctx, shown);
  return rows.length;
}

/**
 * `status` notifications for a new post: the author's subscribers (the family's subscribe, or a follow
 * with `notify`) who may see it. As in the family, replies (even to oneself) and reblogs notify no
 * subscriber, and an account the post mentions gets its `mention` only. Callers pass the mentioned ids.
 */
export async function notifySubscribers(ctx: Ctx, status: Status, mentioned: readonly string[]): Promise<number> {
  if (status.reblogOfId || status.inReplyToId) return 0;
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
  if (subscribers.length === 0) return 0;
  // who may see it is visibility.ts's rule; of the viewer's ties only following the author matters (private posts)
  const ids = subscribers.map((s) => s.id);
  const followers =
    status.visibility === "private"
      ? new Set((await ctx.db.follow.findMany({ where: { followingId: authorId, followerId: { in: ids }, state: "accept" }, select: { followerId: true } })).map((f) => f.followerId))
      : new Set<string>();
  const seeing = ids.filter((id) => canSee({ viewerId: id, following: new Set(followers.has(id) ? [authorId] : []), blocked: new Set() }, status));
  // blocks, notification mutes and the rest are notify's to decide
  return notify(ctx, seeing.map((id) => ({ accountId: id, type: "status" as const, fromAccountId: authorId, statusId: status.id })));
}

/** An accepted follow request: its `follow_request` notification becomes a `follow` one, as in the family. */
export async function followRequestAccepted(ctx: Ctx, followerId: string, followingId: string): Promise<void> {
  await ctx.db.notification.updateMany({ where: { accountId: followingId, fromAccountId: followerId, type: "follow_request" }, data: { type: "follow" } });
}
