// Admin API: status moderation (read with `messages_read`, change and delete with `messages_delete`).
// The 404 and 400 bodies are the spec's bare strings.
import { z } from "zod";
import { adminDeleteStatus, adminListStatuses, adminShowStatus, adminUpdateStatus } from "../../src/domain/statuses/admin-statuses.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminStatuses } from "../../src/views/admin-report.ts";
import { admin } from "./paths.ts";
import { AdminStatusSchema } from "../../src/views/schemas/admin.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Admin: statuses"];
const id = z.object({ id: z.string() });

/** 404 with the given string; 400 with the refusal's message as a string ("Unsupported visibility"). */
const stringErrors = (notFound: string) => (e: DomainError) => {
  if (e.kind === "not_found") return { status: 404, body: notFound };
  if (e.kind === "invalid") return { status: 400, body: e.message };
  return undefined;
};

export const adminStatusRoutes = [
  route({
    method: "GET",
    path: admin("/statuses"),
    view: listOf(AdminStatusSchema),
    summary: "List statuses, newest first (public and unlisted unless godmode; no reblogs unless with_reblogs)",
    tags,
    operation: adminListStatuses,
    query: adminListStatuses.input.omit({ offset: true, with_total: true }),
    response: { description: "array of Status; `page_size` defaults to 20" },
    async handler(ctx, { query }) {
      const { items } = await adminListStatuses(ctx, query);
      return renderAdminStatuses(ctx, items);
    },
  }),
  route({
    method: "GET",
    path: admin("/statuses/:id"),
    view: AdminStatusSchema,
    summary: "One status, whatever its visibility",
    tags,
    operation: adminShowStatus,
    params: id,
    errors: stringErrors("Not Found"),
    response: { description: 'Status; 404 `"Not Found"`' },
    async handler(ctx, { params }) {
      return (await renderAdminStatuses(ctx, [await adminShowStatus(ctx, params)]))[0];
    },
  }),
  route({
    method: "PUT",
    path: admin("/statuses/:id"),
    view: AdminStatusSchema,
    summary: "Change a status's sensitive flag or visibility (public, private, unlisted)",
    tags,
    operation: adminUpdateStatus,
    params: id,
    body: adminUpdateStatus.input.omit({ id: true }),
    errors: stringErrors("Not found"),
    response: { description: 'Status; 400 `"Unsupported visibility"`; 404 `"Not found"`' },
    async handler(ctx, { params, body }) {
      const status = await adminUpdateStatus(ctx, { ...body, id: params.id });
      return (await renderAdminStatuses(ctx, [status]))[0];
    },
  }),
  route({
    method: "DELETE",
    path: admin("/statuses/:id"),
    view: EmptySchema,
    summary: "Delete a status",
    tags,
    operation: adminDeleteStatus,
    params: id,
    errors: stringErrors("Not found"),
    response: { description: '`{}`; 404 `"Not found"`' },
    async handler(ctx, { params }) {
      await adminDeleteStatus(ctx, params);
      return {};
    },
  }),
];
