// Reference API: the signed-in account's scheduled statuses (created by POST /api/v1/statuses with scheduled_at).
import { z } from "zod";
import { pageInput } from "../../src/domain/pagination.ts";
import { cancelScheduledStatus, listScheduledStatuses, rescheduleStatus, showScheduledStatus } from "../../src/domain/statuses/scheduled.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderScheduledStatus } from "../../src/views/scheduled-status.ts";
import { EmptySchema, ScheduledStatusSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const idParam = z.object({ id: z.string() });

export const scheduledStatusRoutes = [
  route({
    method: "GET",
    path: "/api/v1/scheduled_statuses",
    view: listOf(ScheduledStatusSchema),
    summary: "The signed-in account's scheduled statuses, newest first (max_id, since_id, min_id, limit ≤ 40; Link header)",
    tags: ["Scheduled statuses"],
    operation: listScheduledStatuses,
    query: pageInput,
    response: { description: "An array of ScheduledStatus" },
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listScheduledStatuses(ctx, query);
      return { ...page, items: page.items.map((i) => renderScheduledStatus(ctx, i.scheduled, i.media)) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/scheduled_statuses/:id",
    view: ScheduledStatusSchema,
    summary: "One of the signed-in account's scheduled statuses",
    tags: ["Scheduled statuses"],
    operation: showScheduledStatus,
    params: idParam,
    response: { description: "The ScheduledStatus; 404 for unknown ids and other accounts' ones" },
    async handler(ctx, { params }) {
      const { scheduled, media } = await showScheduledStatus(ctx, params);
      return renderScheduledStatus(ctx, scheduled, media);
    },
  }),
  route({
    method: "PUT",
    path: "/api/v1/scheduled_statuses/:id",
    view: ScheduledStatusSchema,
    summary: "Move a scheduled status to another time (at least 5 minutes ahead)",
    tags: ["Scheduled statuses"],
    operation: rescheduleStatus,
    params: idParam,
    body: z.object({ scheduled_at: z.iso.datetime({ offset: true }) }),
    response: { description: "The updated ScheduledStatus; 422 when the time is less than 5 minutes ahead" },
    async handler(ctx, { params, body }) {
      const { scheduled, media } = await rescheduleStatus(ctx, { id: params.id, scheduled_at: body.scheduled_at });
      return renderScheduledStatus(ctx, scheduled, media);
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/scheduled_statuses/:id",
    view: EmptySchema,
    summary: "Cancel a scheduled status",
    tags: ["Scheduled statuses"],
    operation: cancelScheduledStatus,
    params: idParam,
    response: { description: "An empty object" },
    async handler(ctx, { params }) {
      await cancelScheduledStatus(ctx, params);
      return {};
    },
  }),
];
