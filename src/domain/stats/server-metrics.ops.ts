// The figures the later family's Prometheus scrape (`GET /api/v1/<family>/metrics`) reports from the
// database and the job queue: a fixed handful of counting queries, whatever the instance's size.
// Process and HTTP figures are added by the route (they belong to the process, not the domain).
import { z } from "zod";
import { operation } from "../operation.ts";

export interface ServerMetrics {
  localUsers: number;
  remoteUsers: number;
  localStatuses: number;
  /** remote hosts this server knows accounts of */
  domains: number;
  /** the job queue's counts by state (pending, running, done, failed) */
  jobs: Record<string, number>;
}

export const serverMetrics = operation({
  name: "admin.serverMetrics",
  access: { scopes: ["admin:metrics"], role: "admin" },
  input: z.object({}),
  async run(ctx): Promise<ServerMetrics> {
    const [localUsers, remoteUsers, statuses, domains, jobs] = await Promise.all([
      // the same population as `/api/v1/instance`'s user_count
      ctx.db.account.count({ where: { local: true, deactivated: false, actorType: { not: "Application" } } }),
      ctx.db.account.count({ where: { local: false } }),
      // local statuses from the counters a trigger keeps (see admin stats), not a scan of statuses
      ctx.db.statusCounter.aggregate({ where: { instance: "" }, _sum: { count: true } }),
      ctx.db.$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT domain) AS n FROM accounts WHERE domain IS NOT NULL`,
      ctx.jobs.stats(),
    ]);
    return { localUsers, remoteUsers, localStatuses: Number(statuses._sum.count ?? 0), domains: Number(domains[0]?.n ?? 0), jobs };
  },
});
