// Admin API: one remote instance's statuses, and removing an instance's accounts and content.
import { z } from "zod";
import { purgeInstance } from "../../src/domain/admin/instances.ops.ts";
import { adminInstanceStatuses } from "../../src/domain/admin/statuses.ops.ts";
import { route } from "../route.ts";
import { renderAdminStatuses } from "../views/admin-report.ts";
import { admin } from "./paths.ts";

const tags = ["Admin: instances"];
const instance = z.object({ instance: z.string() });

export const adminInstanceRoutes = [
  route({
    method: "GET",
    path: admin("/instances/:instance/statuses"),
    summary: "Statuses of an instance's accounts, newest first (this server's host: local statuses)",
    tags,
    auth: { scopes: ["admin:read:statuses"], privilege: "messages_read" },
    params: instance,
    query: adminInstanceStatuses.input.omit({ instance: true, offset: true, with_total: true }),
    response: { description: "`{total, activities: [Status]}`; `page_size` defaults to 20" },
    async handler(ctx, { params, query }) {
      const { total, items } = await adminInstanceStatuses(ctx, { ...query, instance: params.instance });
      return { total, activities: await renderAdminStatuses(ctx, items) };
    },
  }),
  route({
    method: "DELETE",
    path: admin("/instances/:instance"),
    summary: "Remove every account of a remote instance and their content (a background job)",
    tags,
    auth: { scopes: ["admin:write:accounts", "admin:write:statuses"], privilege: "instances_delete" },
    params: instance,
    response: { description: "the instance's host" },
    handler: (ctx, { params }) => purgeInstance(ctx, params),
  }),
];
