// The notification policy and notification requests (REST's /api/v2/notifications/policy and
// /api/v1/notifications/requests), over the same operations.
import {
  acceptNotificationRequests,
  dismissNotificationRequests,
  getNotificationPolicy,
  listNotificationRequests,
  showNotificationRequest,
  updateNotificationPolicy,
  type PolicyView,
  type RequestView,
} from "../domain/notifications/notification-requests.ops.ts";
import { POLICY_ACTIONS } from "../domain/notifications/policy.ts";
import { builder } from "./builder.ts";
import { AccountType, opt, StatusType } from "./paging.ts";
import "./accounts.ts";
import "./statuses.ts";
import { accessOf } from "./access.ts";

const PolicyAction = builder.enumType("NotificationPolicyAction", { values: POLICY_ACTIONS });

const PolicyRef = builder.objectRef<PolicyView>("NotificationPolicy").implement({
  description: "For each kind of sender: accept, filter (held back as a request) or drop",
  fields: (t) => ({
    forNotFollowing: t.field({ type: PolicyAction, resolve: (v) => v.policy.forNotFollowing as never }),
    forNotFollowers: t.field({ type: PolicyAction, resolve: (v) => v.policy.forNotFollowers as never }),
    forNewAccounts: t.field({ type: PolicyAction, resolve: (v) => v.policy.forNewAccounts as never }),
    forPrivateMentions: t.field({ type: PolicyAction, resolve: (v) => v.policy.forPrivateMentions as never }),
    forLimitedAccounts: t.field({ type: PolicyAction, resolve: (v) => v.policy.forLimitedAccounts as never }),
    pendingRequestsCount: t.int({ resolve: (v) => v.pendingRequests }),
    pendingNotificationsCount: t.int({ resolve: (v) => v.pendingNotifications }),
  }),
});

const RequestRef = builder.objectRef<RequestView>("NotificationRequest").implement({
  description: "The filtered notifications of one sender",
  fields: (t) => ({
    id: t.id({ resolve: (r) => r.request.id }),
    createdAt: t.field({ type: "DateTime", resolve: (r) => r.request.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (r) => r.request.updatedAt }),
    account: t.field({ type: AccountType, resolve: (r) => r.account }),
    notificationsCount: t.int({ resolve: (r) => r.notificationsCount }),
    lastStatus: t.field({ type: StatusType, nullable: true, resolve: (r) => r.lastStatus }),
  }),
});

builder.queryFields((t) => ({
  notificationPolicy: t.field({ ...accessOf(getNotificationPolicy), type: PolicyRef, resolve: (_r, _a, ctx) => getNotificationPolicy(ctx, {}) }),
  notificationRequest: t.field({
    ...accessOf(showNotificationRequest),
    type: RequestRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => showNotificationRequest(ctx, { id: String(a.id) }),
  }),
  notificationRequests: t.field({
    ...accessOf(listNotificationRequests),
    type: [RequestRef],
    description: "Requests, newest first (keyset paging by id)",
    args: { maxId: t.arg.id(), limit: t.arg.int() },
    resolve: async (_r, a, ctx) => (await listNotificationRequests(ctx, { max_id: a.maxId == null ? undefined : String(a.maxId), limit: opt(a.limit) })).items,
  }),
}));

builder.mutationFields((t) => ({
  updateNotificationPolicy: t.field({
    ...accessOf(updateNotificationPolicy),
    type: PolicyRef,
    args: {
      forNotFollowing: t.arg({ type: PolicyAction }),
      forNotFollowers: t.arg({ type: PolicyAction }),
      forNewAccounts: t.arg({ type: PolicyAction }),
      forPrivateMentions: t.arg({ type: PolicyAction }),
      forLimitedAccounts: t.arg({ type: PolicyAction }),
    },
    resolve: (_r, a, ctx) =>
      updateNotificationPolicy(ctx, {
        for_not_following: opt(a.forNotFollowing),
        for_not_followers: opt(a.forNotFollowers),
        for_new_accounts: opt(a.forNewAccounts),
        for_private_mentions: opt(a.forPrivateMentions),
        for_limited_accounts: opt(a.forLimitedAccounts),
      }),
  }),
  acceptNotificationRequests: t.boolean({
    ...accessOf(acceptNotificationRequests),
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) => (await acceptNotificationRequests(ctx, { id: a.ids.map(String) }), true),
  }),
  dismissNotificationRequests: t.boolean({
    ...accessOf(dismissNotificationRequests),
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) => (await dismissNotificationRequests(ctx, { id: a.ids.map(String) }), true),
  }),
}));
