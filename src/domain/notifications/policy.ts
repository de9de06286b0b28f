// Notification policies (the reference API's): what notify.ts does with a notification whose sender is
// a stranger of some kind. Each kind the recipient's policy names is `accept`, `filter` (stored, held
// back, listed through a notification request) or `drop` (not stored); the harshest matching kind wins.
// Recipients without a policy row accept everything, as before policies existed.
import { newId } from "../../db/ids.ts";
import type { NotificationPolicy } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { SILENCE_TAG } from "../accounts/moderation-tags.ts";
import type { NotificationInput, NotificationType } from "./notify.ts";

export type PolicyAction = "accept" | "filter" | "drop";
export const POLICY_ACTIONS = ["accept", "filter", "drop"] as const;

/** What a policy can hold back: interactions and mentions; polls, edits, reports and subscriptions pass. */
const FILTERABLE: readonly NotificationType[] = ["mention", "reblog", "favourite", "follow", "follow_request", "emoji_reaction"];
const NEW_ACCOUNT_MS = 30 * 24 * 3600 * 1000;
const RANK: Record<PolicyAction, number> = { accept: 0, filter: 1, drop: 2 };

/**
 * Decides each notification: null (dropped) or whether it is filtered. One statement when no recipient
 * has a policy (none when the caller read the recipients' policies already: `known`, a superset is
 * fine); four more, whatever the number of notifications, when some do.
 */
export async function applyPolicies(ctx: Ctx, items: NotificationInput[], known?: readonly NotificationPolicy[]): Promise<{ item: NotificationInput; filtered: boolean }[]> {
  const candidates = items.filter((n) => FILTERABLE.includes(n.type));
  const recipients = [...new Set(candidates.map((n) => n.accountId))];
  const policies = !recipients.length
    ? []
    : known
      ? known.filter((p) => recipients.includes(p.accountId))
      : await ctx.db.notificationPolicy.findMany({ where: { accountId: { in: recipients } } });
  if (!policies.length) return items.map((item) => ({ item, filtered: false }));
  const policyOf = new Map(policies.map((p) => [p.accountId, p]));
  const concerned = candidates.filter((n) => policyOf.has(n.accountId));
  const owners = [...new Set(concerned.map((n) => n.accountId))];
  const senders = [...new Set(concerned.map((n) => n.fromAccountId))];
  const statusIds = [...new Set(concerned.map((n) => n.statusId).filter((id): id is string => !!id))];
  const [follows, permissions, senderRows, statuses] = await Promise.all([
    ctx.db.follow.findMany({
      where: { state: "accept", OR: [{ followerId: { in: owners }, followingId: { in: senders } }, { followerId: { in: senders }, followingId: { in: owners } }] },
      select: { followerId: true, followingId: true },
    }),
    ctx.db.notificationPermission.findMany({ where: { accountId: { in: owners }, fromAccountId: { in: senders } }, select: { accountId: true, fromAccountId: true } }),
    ctx.db.account.findMany({ where: { id: { in: senders } }, select: { id: true, createdAt: true, tags: true } }),
    statusIds.length ? ctx.db.status.findMany({ where: { id: { in: statusIds } }, select: { id: true, visibility: true, inReplyToAccountId: true } }) : Promise.resolve([]),
  ]);
  const key = (a: string, b: string) => `${a} ${b}`;
  const follow = new Set(follows.map((f) => key(f.followerId, f.followingId)));
  const permitted = new Set(permissions.map((p) => key(p.accountId, p.fromAccountId)));
  const sender = new Map(senderRows.map((a) => [a.id, a]));
  const status = new Map(statuses.map((s) => [s.id, s]));
  const now = ctx.clock().getTime();

  const decide = (n: NotificationInput): PolicyAction => {
    const policy = policyOf.get(n.accountId);
    if (!policy || !FILTERABLE.includes(n.type) || permitted.has(key(n.accountId, n.fromAccountId))) return "accept";
    const following = follow.has(key(n.accountId, n.fromAccountId));
    const from = sender.get(n.fromAccountId);
    const st = n.statusId ? status.get(n.statusId) : undefined;
    const matched: PolicyAction[] = [];
    if (!following) matched.push(policy.forNotFollowing as PolicyAction);
    if (!follow.has(key(n.fromAccountId, n.accountId))) matched.push(policy.forNotFollowers as PolicyAction);
    if (from && now - from.createdAt.getTime() < NEW_ACCOUNT_MS) matched.push(policy.forNewAccounts as PolicyAction);
    // a private mention that is not a reply to the recipient, from someone it does not follow
    if (n.type === "mention" && st?.visibility === "direct" && st.inReplyToAccountId !== n.accountId && !following) matched.push(policy.forPrivateMentions as PolicyAction);
    if (from?.tags.includes(SILENCE_TAG)) matched.push(policy.forLimitedAccounts as PolicyAction);
    return matched.reduce<PolicyAction>((worst, a) => (RANK[a] > RANK[worst] ? a : worst), "accept");
  };
  return items.flatMap((item) => {
    const action = decide(item);
    return action === "drop" ? [] : [{ item, filtered: action === "filter" }];
  });
}

/** The requests of stored filtered notifications: one per recipient and sender, its last status updated. */
export async function recordRequests(ctx: Ctx, filtered: NotificationInput[]): Promise<void> {
  const now = ctx.clock();
  for (const n of filtered) {
    await ctx.db.notificationRequest.upsert({
      where: { accountId_fromAccountId: { accountId: n.accountId, fromAccountId: n.fromAccountId } },
      create: { id: newId(now.getTime()), accountId: n.accountId, fromAccountId: n.fromAccountId, lastStatusId: n.statusId ?? null, createdAt: now, updatedAt: now },
      update: { updatedAt: now, ...(n.statusId ? { lastStatusId: n.statusId } : {}) },
    });
  }
}
