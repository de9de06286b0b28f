// Reference API: the viewer's notification policy (v2 and the older v1 shape) and the requests its
// filtered notifications form (src/domain/notifications/notification-requests.ops.ts).
import { z } from "zod";
import {
  acceptNotificationRequests,
  dismissNotificationRequests,
  getNotificationPolicy,
  listNotificationRequests,
  notificationRequestsMerged,
  showNotificationRequest,
  updateNotificationPolicy,
} from "../../src/domain/notifications/notification-requests.ops.ts";
import { bool } from "../../src/domain/inputs.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../../src/http/routes/route.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { MergedSchema, NotificationPolicyV1Schema, NotificationPolicyV2Schema, NotificationRequestSchema } from "../../src/views/schemas/notification.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderPolicyV2, renderPolicyV1, renderNotificationRequests } from "../../src/views/notification-request.ts";

const tags = ["Notifications"];

const v1Body = z.object({ filter_not_following: bool().optional(), filter_not_followers: bool().optional(), filter_new_accounts: bool().optional(), filter_private_mentions: bool().optional() });
const asAction = (b: boolean | undefined) => (b === undefined ? undefined : b ? ("filter" as const) : ("accept" as const));
const ids = z.object({ id: z.union([z.string(), z.array(z.string())]) });
const idList = (id: string | string[]) => (Array.isArray(id) ? id : [id]);

export const notificationRequestRoutes = [
  route({
    method: "GET",
    path: "/api/v2/notifications/policy",
    view: NotificationPolicyV2Schema,
    summary: "The viewer's notification policy: accept, filter or drop for each kind of sender, and what is held back",
    tags,
    operation: getNotificationPolicy,
    handler: async (ctx) => renderPolicyV2(await getNotificationPolicy(ctx, {})),
  }),
  // the reference documents PATCH; masto sends PUT
  ...(["PATCH", "PUT"] as const).map((method) =>
    route({
      method,
      path: "/api/v2/notifications/policy",
      view: NotificationPolicyV2Schema,
      summary: "Change the notification policy",
      tags,
      operation: updateNotificationPolicy,
      body: updateNotificationPolicy.input,
      handler: async (ctx, { body }) => renderPolicyV2(await updateNotificationPolicy(ctx, body)),
    }),
  ),
  route({
    method: "GET",
    path: "/api/v1/notifications/policy",
    view: NotificationPolicyV1Schema,
    summary: "The notification policy in the older boolean shape",
    tags,
    operation: getNotificationPolicy,
    handler: async (ctx) => renderPolicyV1(await getNotificationPolicy(ctx, {})),
  }),
  ...(["PUT", "PATCH"] as const).map((method) =>
  route({
    method,
    path: "/api/v1/notifications/policy",
    view: NotificationPolicyV1Schema,
    summary: "Change the notification policy in the older boolean shape (true: filter, false: accept)",
    tags,
    operation: updateNotificationPolicy,
    body: v1Body,
    async handler(ctx, { body }) {
      const view = await updateNotificationPolicy(ctx, {
        for_not_following: asAction(body.filter_not_following),
        for_not_followers: asAction(body.filter_not_followers),
        for_new_accounts: asAction(body.filter_new_accounts),
        for_private_mentions: asAction(body.filter_private_mentions),
      });
      return renderPolicyV1(view);
    },
  })
  ),
  route({
    method: "GET",
    path: "/api/v1/notifications/requests",
    view: listOf(NotificationRequestSchema),
    summary: "Requests of filtered notifications, one per sender, newest first (keyset pages, limit 40 ≤ 80)",
    tags,
    operation: listNotificationRequests,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listNotificationRequests(ctx, query);
      return { ...page, items: await renderNotificationRequests(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/notifications/requests/merged",
    view: MergedSchema,
    summary: "Whether accepted requests' notifications are merged: always true (accepting merges at once)",
    tags,
    operation: notificationRequestsMerged,
    handler: (ctx) => notificationRequestsMerged(ctx, {}),
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/requests/accept",
    view: EmptySchema,
    summary: "Accept several requests (id[])",
    tags,
    operation: acceptNotificationRequests,
    body: ids,
    handler: async (ctx, { body }) => (await acceptNotificationRequests(ctx, { id: idList(body.id) }), {}),
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/requests/dismiss",
    view: EmptySchema,
    summary: "Dismiss several requests (id[])",
    tags,
    operation: dismissNotificationRequests,
    body: ids,
    handler: async (ctx, { body }) => (await dismissNotificationRequests(ctx, { id: idList(body.id) }), {}),
  }),
  route({
    method: "GET",
    path: "/api/v1/notifications/requests/:id",
    view: NotificationRequestSchema,
    summary: "One request",
    tags,
    operation: showNotificationRequest,
    params: z.object({ id: z.string() }),
    handler: async (ctx, { params }) => (await renderNotificationRequests(ctx, [await showNotificationRequest(ctx, params)]))[0],
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/requests/:id/accept",
    view: EmptySchema,
    summary: "Accept a request: its notifications are shown and the sender is let through from now on",
    tags,
    operation: acceptNotificationRequests,
    params: z.object({ id: z.string() }),
    handler: async (ctx, { params }) => (await acceptNotificationRequests(ctx, { id: [params.id] }), {}),
  }),
  route({
    method: "POST",
    path: "/api/v1/notifications/requests/:id/dismiss",
    view: EmptySchema,
    summary: "Dismiss a request: it and its notifications are deleted",
    tags,
    operation: dismissNotificationRequests,
    params: z.object({ id: z.string() }),
    handler: async (ctx, { params }) => (await dismissNotificationRequests(ctx, { id: [params.id] }), {}),
  }),
];
