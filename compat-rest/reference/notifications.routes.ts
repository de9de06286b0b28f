// Notifications (reference API plus the family's read-marking) and markers.
import { z } from "zod";
import { getMarkers, saveMarkers } from "../../src/domain/notifications/markers.ops.ts";
import {
  clearNotifications,
  destroyNotifications,
  dismissNotification,
  getNotification,
  listNotifications,
  listNotificationsInput,
  markNotificationsRead,
} from "../../src/domain/notifications/notifications.ops.ts";
import {
  dismissNotificationGroup,
  getNotificationGroup,
  listNotificationGroups,
  listNotificationGroupsInput,
  notificationGroupAccounts,
  unreadCountInput,
  unreadNotificationCount,
} from "../../src/domain/notifications/groups.ts";
import { renderAccounts } from "../../src/views/account.ts";
import { renderNotificationGroups } from "../../src/views/notification-group.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderNotification, renderNotifications } from "../../src/views/notification.ts";
import { AccountSchema } from "../../src/views/schemas/account.ts";
import { CountSchema, EmptySchema } from "../../src/views/schemas/misc.ts";
import { MarkersSchema, NotificationGroupsSchema, NotificationSchema } from "../../src/views/schemas/notification.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderMarkers } from "../../src/views/marker.ts";
import { NotificationsReadSchema } from "../../src/views/schemas/tools.ts";

const idParam = z.object({ id: z.string() });
const TAGS = ["Notifications"];

const groupKeyParam = z.object({ group_key: z.string() });

/** v2 (grouped) and the unread counts; declared before /api/v1/notifications/:id */
const groupedRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/notifications/unread_count",
    view: CountSchema,
    summary: "How many notifications are unread (newer than the notifications marker), at most `limit` (100; 1000 at most)",
    tags: TAGS,
    operation: unreadNotificationCount,
    query: unreadCountInput.omit({ grouped_types: true }),
    handler: async (ctx, { query }) => ({ count: await unreadNotificationCount(ctx, query) }),
  }),
  route({
    method: "GET",
    path: "/api/v2/notifications/unread_count",
    view: CountSchema,
    summary: "How many notification groups are unread, at most `limit` (100; 1000 at most)",
    tags: TAGS,
    operation: unreadNotificationCount,
    query: unreadCountInput,
    handler: async (ctx, { query }) => ({ count: await unreadNotificationCount(ctx, { ...query, grouped: true }) }),
  }),
  route({
    method: "GET",
    path: "/api/v2/notifications",
    view: NotificationGroupsSchema,
    summary: "The signed-in account's notifications in groups (favourites, reblogs and follows by default), newest first, `limit` groups a page",
    tags: TAGS,
    operation: listNotificationGroups,
    query: listNotificationGroupsInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listNotificationGroups(ctx, query);
      return { ...page, items: await renderNotificationGroups(ctx, page.items, query.expand_accounts) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v2/notifications/:group_key",
    view: NotificationGroupsSchema,
    summary: "One notification group with all its notifications",
    tags: TAGS,
    operation: getNotificationGroup,
    params: groupKeyParam,
    handler: async (ctx, { params }) => renderNotificationGroups(ctx, [await getNotificationGroup(ctx, params)]),
  }),
  route({
    method: "GET",
    path: "/api/v2/notifications/:group_key/accounts",
    view: listOf(AccountSchema),
    summary: "The accounts of a notification group, newest first",
    tags: TAGS,
    operation: notificationGroupAccounts,
    params: groupKeyParam,
    handler: async (ctx, { params }) => renderAccounts(ctx, await notificationGroupAccounts(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/api/v2/notifications/:group_key/dismiss",
    view: EmptySchema,
    summary: "Delete every notification of a group",
    tags: TAGS,
    operation: dismissNotificationGroup,
    params: groupKeyParam,
    async handler(ctx, { params }) {
      await dismissNotificationGroup(ctx, params);
      return {};
    },
  }),
];

export const notificationRoutes: RouteDef[] = [
  ...groupedRoutes,
  route({
    method: "GET",
    path: "/api/v1/notifications",
    view: listOf(NotificationSchema),
    summary: "The signed-in account's notifications, newest first",
    tags: TAGS,
    operation: listNotifications,
    query: listNotificationsInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listNotifications(ctx, query);
      return { ...page, items: await renderNotifications(ctx, page.items) };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/clear",
    view: EmptySchema,
    summary: "Delete every notification of the signed-in account",
    tags: TAGS,
    operation: clearNotifications,
    async handler(ctx) {
      await clearNotifications(ctx, {});
      return {};
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/notifications/destroy_multiple",
    view: EmptySchema,
    summary: "Delete the given notifications (`ids` required)",
    tags: TAGS,
    operation: destroyNotifications,
    query: z.object({ ids: z.unknown().optional() }),
    body: z.object({ ids: z.unknown().optional() }),
    async handler(ctx, { query, body }) {
      await destroyNotifications(ctx, { ids: (body.ids ?? query.ids) as string[] });
      return {};
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/dismiss",
    view: EmptySchema,
    summary: "Delete one notification, named in the body (older form)",
    tags: TAGS,
    operation: dismissNotification,
    body: idParam,
    async handler(ctx, { body }) {
      await dismissNotification(ctx, { id: body.id });
      return {};
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/notifications/:id",
    view: NotificationSchema,
    summary: "One notification of the signed-in account",
    tags: TAGS,
    operation: getNotification,
    params: idParam,
    async handler(ctx, { params }) {
      return renderNotification(ctx, await getNotification(ctx, { id: params.id }));
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/:id/dismiss",
    view: EmptySchema,
    summary: "Delete one notification",
    tags: TAGS,
    operation: dismissNotification,
    params: idParam,
    async handler(ctx, { params }) {
      await dismissNotification(ctx, { id: params.id });
      return {};
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/notifications/read",
    view: NotificationsReadSchema,
    summary: "Mark one notification (`id`) or all up to `max_id` as seen; returns what was read (at most 80 with max_id)",
    tags: TAGS,
    operation: markNotificationsRead,
    query: z.object({ id: z.string().optional(), max_id: z.string().optional() }),
    body: z.object({ id: z.string().optional(), max_id: z.string().optional() }),
    async handler(ctx, { query, body }) {
      const input = body.id !== undefined || body.max_id !== undefined ? body : query;
      const result = await markNotificationsRead(ctx, input);
      return "one" in result ? renderNotification(ctx, result.one) : renderNotifications(ctx, result.many);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/markers",
    view: MarkersSchema,
    summary: "Reading positions of the home timeline and the notifications",
    tags: ["Markers"],
    operation: getMarkers,
    query: getMarkers.input,
    async handler(ctx, { query }) {
      return renderMarkers(ctx, await getMarkers(ctx, query));
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/markers",
    view: MarkersSchema,
    summary: "Save reading positions; the notifications position also marks notifications up to it as seen",
    tags: ["Markers"],
    operation: saveMarkers,
    body: saveMarkers.input,
    async handler(ctx, { body }) {
      return renderMarkers(ctx, await saveMarkers(ctx, body));
    },
  }),
];
