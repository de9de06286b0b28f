// Reference API: posting, reading and deleting statuses (actions on statuses are declared beside).
import { z } from "zod";
import { postInput, postStatus, deleteStatus } from "../../src/domain/statuses/statuses.ops.ts";
import { scheduledWithMedia } from "../../src/domain/statuses/scheduled.ops.ts";
import { showStatus, showStatuses } from "../../src/domain/statuses/statuses.read.ts";
import { route } from "../../src/http/routes/route.ts";
import { StatusListSchema, StatusSchema } from "../../src/views/schemas/status.ts";
import { renderScheduledStatus } from "../../src/views/scheduled-status.ts";
import { renderStatus, renderStatuses } from "../../src/views/status.ts";
import { PostedSchema } from "../../src/views/schemas/misc.ts";

const idParam = z.object({ id: z.string() });

export const statusRoutes = [
  route({
    method: "POST",
    path: "/api/v1/statuses",
    view: PostedSchema,
    rateLimit: "statuses_actions",
    summary: "Post a status (or preview it, or schedule it); Idempotency-Key header honoured",
    tags: ["Statuses"],
    operation: postStatus,
    body: postInput.omit({ idempotency_key: true }),
    async handler(ctx, { body, req }) {
      const result = await postStatus(ctx, { ...body, idempotency_key: req.get("idempotency-key") || undefined });
      if (result.kind === "scheduled") {
        const [{ scheduled, media }] = await scheduledWithMedia(ctx, [result.scheduled]);
        return renderScheduledStatus(ctx, scheduled, media);
      }
      return renderStatus(ctx, result.status);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/statuses",
    view: StatusListSchema,
    summary: "Several statuses by id (ids[]=, at most 100); invisible or unknown ones are left out",
    tags: ["Statuses"],
    operation: showStatuses,
    query: showStatuses.input,
    async handler(ctx, { query }) {
      return renderStatuses(ctx, await showStatuses(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/statuses/:id",
    summary: "A status",
    view: StatusSchema,
    tags: ["Statuses"],
    operation: showStatus,
    params: idParam,
    async handler(ctx, { params }) {
      return renderStatus(ctx, await showStatus(ctx, params));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/statuses/:id",
    view: StatusSchema,
    summary: "Delete a status; answers it with its source text, for redrafting",
    tags: ["Statuses"],
    // the operation it runs; showStatus only reads the status to render it before it is gone
    operation: deleteStatus,
    params: idParam,
    async handler(ctx, { params }) {
      const status = await showStatus(ctx, params);
      const rendered = await renderStatus(ctx, status); // rendered before it is gone
      await deleteStatus(ctx, params);
      return { ...rendered, text: status.source };
    },
  }),
];
