// Grouped notifications and unread counts (REST's /api/v2/notifications), through the same operations.
import {
  dismissNotificationGroup,
  getNotificationGroup,
  listNotificationGroups,
  sampleAccountIds,
  unreadNotificationCount,
  type NotificationGroup,
} from "../domain/notifications/groups.ts";
import { wireType } from "../domain/notifications/notifications.ops.ts";
import { builder } from "./builder.ts";
import { Notification } from "./notifications.ts";
import { AccountType, opt, StatusType } from "./paging.ts";
import { accessOf } from "./access.ts";

const NotificationGroupRef = builder.objectRef<NotificationGroup>("NotificationGroup").implement({
  description: "Favourites and reblogs of one status, or follows, within 12 hours; any other notification alone",
  fields: (t) => ({
    groupKey: t.exposeString("key"),
    type: t.string({ resolve: (g, _a, ctx) => wireType(ctx, g.type) }),
    notificationsCount: t.int({ description: "in this page (or in all, read by key)", resolve: (g) => g.notifications.length }),
    mostRecentNotificationId: t.id({ resolve: (g) => g.notifications[0].id }),
    sampleAccounts: t.field({
      type: [AccountType],
      description: "up to 8 accounts, newest first",
      resolve: (g) => {
        const ids = sampleAccountIds(g);
        return ids.map((id) => g.notifications.find((n) => n.fromAccountId === id)!.fromAccount);
      },
    }),
    status: t.field({ type: StatusType, nullable: true, resolve: (g) => g.notifications[0].status }),
    notifications: t.field({ type: [Notification], resolve: (g) => g.notifications }),
  }),
});

builder.queryFields((t) => ({
  notificationGroups: t.field({
    ...accessOf(listNotificationGroups),
    type: [NotificationGroupRef],
    description: "A page of grouped notifications, newest first (REST's GET /api/v2/notifications)",
    args: { limit: t.arg.int(), maxId: t.arg.id(), minId: t.arg.id(), types: t.arg.stringList(), excludeTypes: t.arg.stringList(), groupedTypes: t.arg.stringList() },
    resolve: async (_r, a, ctx) =>
      (
        await listNotificationGroups(ctx, {
          limit: opt(a.limit),
          max_id: a.maxId != null ? String(a.maxId) : undefined,
          min_id: a.minId != null ? String(a.minId) : undefined,
          types: opt(a.types),
          exclude_types: opt(a.excludeTypes),
          grouped_types: opt(a.groupedTypes),
        })
      ).items,
  }),
  notificationGroup: t.field({
    ...accessOf(getNotificationGroup),
    type: NotificationGroupRef,
    args: { groupKey: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getNotificationGroup(ctx, { group_key: a.groupKey }),
  }),
  unreadNotificationCount: t.int({
    ...accessOf(unreadNotificationCount),
    description: "Unread notifications (or groups), at most `limit` (100; 1000 at most)",
    args: { limit: t.arg.int(), grouped: t.arg.boolean() },
    resolve: (_r, a, ctx) => unreadNotificationCount(ctx, { limit: opt(a.limit), grouped: opt(a.grouped) }),
  }),
}));

builder.mutationFields((t) => ({
  dismissNotificationGroup: t.boolean({
    ...accessOf(dismissNotificationGroup),
    args: { groupKey: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await dismissNotificationGroup(ctx, { group_key: a.groupKey }), true),
  }),
}));
