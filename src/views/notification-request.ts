// Reference API notification policy (v2 and the older v1 shape) and notification requests.
import type { Ctx } from "../../src/domain/context.ts";
import type { PolicyView, RequestView } from "../../src/domain/notifications/notification-requests.ops.ts";
import { renderAccounts } from "./account.ts";
import { renderStatuses } from "./status.ts";

const summary = (v: PolicyView) => ({ pending_requests_count: v.pendingRequests, pending_notifications_count: v.pendingNotifications });
export function renderPolicyV2(v: PolicyView) {
  const p = v.policy;
  return {
    for_not_following: p.forNotFollowing,
    for_not_followers: p.forNotFollowers,
    for_new_accounts: p.forNewAccounts,
    for_private_mentions: p.forPrivateMentions,
    for_limited_accounts: p.forLimitedAccounts,
    summary: summary(v),
  };
}

/** v1: booleans, true when that kind is held back (filtered or dropped). */
export function renderPolicyV1(v: PolicyView) {
  const held = (a: string) => a !== "accept";
  const p = v.policy;
  return {
    filter_not_following: held(p.forNotFollowing),
    filter_not_followers: held(p.forNotFollowers),
    filter_new_accounts: held(p.forNewAccounts),
    filter_private_mentions: held(p.forPrivateMentions),
    summary: summary(v),
  };
}

/** Requests in one batch: senders and last statuses rendered together. */
export async function renderNotificationRequests(ctx: Ctx, list: RequestView[]) {
  const [accounts, statuses] = await Promise.all([renderAccounts(ctx, list.map((r) => r.account)), renderStatuses(ctx, list.flatMap((r) => (r.lastStatus ? [r.lastStatus] : [])))]);
  const statusById = new Map(statuses.map((s) => [(s as { id: string }).id, s]));
  return list.map((r, i) => ({
    id: r.request.id,
    created_at: r.request.createdAt.toISOString(),
    updated_at: r.request.updatedAt.toISOString(),
    account: accounts[i],
    notifications_count: String(r.notificationsCount),
    last_status: (r.lastStatus && statusById.get(r.lastStatus.id)) ?? null,
  }));
}
