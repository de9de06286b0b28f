// Remote instances' delivery health over GraphQL: the operations of the admin REST `instances` routes.
import { listInstances, showInstance } from "../domain/instances/instances.ops.ts";
import type { InstanceView } from "../domain/instances/instances.ops.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { opt } from "./paging.ts";

const AdminInstance = builder.objectRef<InstanceView>("AdminInstance").implement({
  description: "A remote instance as delivery sees it",
  fields: (t) => ({
    domain: t.exposeString("domain"),
    softwareName: t.exposeString("softwareName", { nullable: true }),
    softwareVersion: t.exposeString("softwareVersion", { nullable: true }),
    lastSuccessAt: t.expose("lastSuccessAt", { type: "DateTime", nullable: true, description: "the last delivery that succeeded" }),
    lastFailureAt: t.expose("lastFailureAt", { type: "DateTime", nullable: true, description: "the last delivery that failed" }),
    unreachableSince: t.expose("unreachableSince", { type: "DateTime", nullable: true, description: "set at the first failure (no answer or 5xx) after a success; null when reachable" }),
    failureCount: t.exposeInt("failureCount", { description: "failures since the last success" }),
    deliverySuspended: t.exposeBoolean("deliverySuspended", { description: "unreachable for more than 7 days: no new deliveries until it is seen again" }),
    usersCount: t.exposeInt("users", { description: "accounts of the instance known here" }),
    statusesCount: t.exposeInt("statuses", { description: "statuses of the instance stored here (reblogs excluded)" }),
  }),
});

builder.queryFields((t) => ({
  adminInstances: t.connection(
    {
      ...accessOf(listInstances),
      type: AdminInstance,
      description: "Remote instances with their delivery health, the unreachable first",
      args: { unreachable: t.arg.boolean() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          // the operation pages by page number; offsets from the connection are multiples of the page size
          const size = Math.max(1, limit);
          const { total, items } = await listInstances(ctx, { unreachable: opt(args.unreachable), page: Math.floor(offset / size) + 1, page_size: size });
          return { total, items };
        }),
    },
    { name: "AdminInstanceConnection", ...totalCountField },
  ),
  adminInstance: t.field({
    ...accessOf(showInstance),
    type: AdminInstance,
    description: "One remote instance's delivery health",
    args: { domain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => showInstance(ctx, { instance: args.domain }),
  }),
}));
