// Removing a remote instance (admin API `DELETE /instances/:instance`): the request queues a durable
// job; the job deletes every account of that host with its statuses, in batches that survive a crash.
import { z } from "zod";
import { requirePrivilege } from "../auth/policy.ts";
import { deletedStatusesWhere } from "../timelines/inclusion.ts";
import type { Ctx } from "../context.ts";
import { operation } from "../operation.ts";
import { NotFound } from "../errors.ts";
import { bool, int } from "../inputs.ts";
import { instanceHealth, type InstanceHealth } from "../federation/instances.ts";

export const PURGE_INSTANCE_JOB = "admin.instances.purge";
const BATCH = 100;

export const purgeInstance = operation({
  name: "admin.instances.purge",
  input: z.object({ instance: z.string().trim().min(1) }),
  authorize: (ctx) => requirePrivilege(ctx, "instances_delete"),
  async run(ctx, input): Promise<string> {
    await ctx.jobs.enqueue(PURGE_INSTANCE_JOB, { host: input.instance.toLowerCase() });
    return input.instance;
  },
});

/**
 * The job's work. Remote accounts are deleted outright, as the family deletes remote users (local
 * accounts have no `domain`, so this server's own host matches nothing). Statuses go first, while
 * their authors exist: the status counters' trigger reads the author's host. Everything else of the
 * accounts (follows, notifications, reactions, media, reports) goes with them by cascade.
 */
export async function purgeInstanceAccounts(ctx: Pick<Ctx, "db" | "bus">, host: string): Promise<number> {
  const { db } = ctx;
  let removed = 0;
  for (;;) {
    const batch = await db.account.findMany({ where: { local: false, domain: { equals: host, mode: "insensitive" } }, select: { id: true }, take: BATCH });
    if (batch.length === 0) return removed;
    const ids = batch.map((a) => a.id);
    const gone = await deletedStatusesWhere(ctx, { accountId: { in: ids } });
    await db.$transaction([db.status.deleteMany({ where: { accountId: { in: ids } } }), db.account.deleteMany({ where: { id: { in: ids } } })]);
    // open streams drop them too
    for (const d of gone) ctx.bus.publish("status_deleted", d);
    removed += ids.length;
  }
}

// ---- delivery health (federation): what the instances table records about each remote server

const instancesInput = z.object({
  /** only instances currently unreachable (true) or reachable (false) */
  unreachable: bool().optional(),
  page: int().default(1),
  page_size: int().default(50),
});

const pageSize = (n: number) => Math.min(500, Math.max(1, n));

/** Known remote instances with their delivery health, the unreachable first, then by domain. */
export const listInstances = operation({
  name: "admin.instances.list",
  input: instancesInput,
  authorize: (ctx) => requirePrivilege(ctx, "statistics_read"),
  async run(ctx, input): Promise<{ total: number; items: InstanceHealth[] }> {
    const where = input.unreachable === undefined ? {} : { unreachableSince: input.unreachable ? { not: null } : null };
    const [total, rows] = await Promise.all([
      ctx.db.instance.count({ where }),
      ctx.db.instance.findMany({ where, orderBy: [{ unreachableSince: { sort: "asc", nulls: "last" } }, { domain: "asc" }], skip: (Math.max(1, input.page) - 1) * pageSize(input.page_size), take: pageSize(input.page_size) }),
    ]);
    const now = ctx.clock();
    return { total, items: rows.map((r) => instanceHealth(r, now)) };
  },
});

/** One instance's delivery health; 404 when nothing was ever delivered to or heard from it. */
export const showInstance = operation({
  name: "admin.instances.show",
  input: z.object({ instance: z.string().trim().min(1) }),
  authorize: (ctx) => requirePrivilege(ctx, "statistics_read"),
  async run(ctx, input): Promise<InstanceHealth> {
    const row = await ctx.db.instance.findUnique({ where: { domain: input.instance.toLowerCase() } });
    if (!row) throw NotFound("Instance not found");
    return instanceHealth(row, ctx.clock());
  },
});
