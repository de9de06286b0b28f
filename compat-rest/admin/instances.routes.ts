// Admin API: one remote instance's statuses, and removing an instance's accounts and content.
import { z } from "zod";
import { listInstances, purgeInstance, showInstance } from "../../src/domain/instances/instances.ops.ts";
import { adminInstanceStatuses } from "../../src/domain/statuses/admin-statuses.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminStatuses } from "../../src/views/admin-report.ts";
import { admin } from "./paths.ts";
import { AdminInstanceSchema, AdminInstancesSchema, AdminStatusActivitiesSchema } from "../../src/views/schemas/admin.ts";
import { StringSchema } from "../../src/views/schemas/misc.ts";
import { renderInstance } from "../../src/views/admin-instance.ts";

const tags = ["Admin: instances"];
const instance = z.object({ instance: z.string() });

export const adminInstanceRoutes = [
  route({
    method: "GET",
    path: admin("/instances"),
    view: AdminInstancesSchema,
    summary: "Remote instances with their delivery health (unreachable first)",
    tags,
    operation: listInstances,
    query: listInstances.input,
    response: {
      description:
        "`{total, instances: [{domain, software_name, software_version, last_success_at, last_failure_at, unreachable_since, failure_count, reachable, delivery_suspended, users_count, statuses_count}]}`; `delivery_suspended`: unreachable for more than 7 days, no new deliveries; `last_success_at` is when it was last reachable; the counts are the accounts and statuses known here",
    },
    async handler(ctx, { query }) {
      const { total, items } = await listInstances(ctx, query);
      return { total, instances: items.map(renderInstance) };
    },
  }),
  route({
    method: "GET",
    path: admin("/instances/:instance"),
    view: AdminInstanceSchema,
    summary: "One remote instance's delivery health",
    tags,
    operation: showInstance,
    params: instance,
    response: { description: "the instance as in the list; 404 when nothing was ever delivered to it" },
    async handler(ctx, { params }) {
      return renderInstance(await showInstance(ctx, params));
    },
  }),
  route({
    method: "GET",
    path: admin("/instances/:instance/statuses"),
    view: AdminStatusActivitiesSchema,
    summary: "Statuses of an instance's accounts, newest first (this server's host: local statuses)",
    tags,
    operation: adminInstanceStatuses,
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
    view: StringSchema,
    summary: "Remove every account of a remote instance and their content (a background job)",
    tags,
    operation: purgeInstance,
    params: instance,
    response: { description: "the instance's host" },
    handler: (ctx, { params }) => purgeInstance(ctx, params),
  }),
];
