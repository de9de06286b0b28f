// Status statistics (admin API `stats`): read from the per-instance counters a database trigger keeps,
// so the answer costs one small query whatever the number of statuses.
import { z } from "zod";
import { requirePrivilege } from "../auth/policy.ts";
import { operation } from "../operation.ts";

export interface StatusVisibilityCounts {
  public: number;
  unlisted: number;
  private: number;
  direct: number;
}

export const statusStats = operation({
  name: "admin.stats",
  input: z.object({ instance: z.string().optional().nullable() }),
  authorize: (ctx) => requirePrivilege(ctx, "statistics_read"),
  async run(ctx, input): Promise<StatusVisibilityCounts> {
    const host = input.instance?.trim().toLowerCase();
    // local statuses are counted under "" ; this server's own host names them too, as the family counts by host
    const instance = !host ? undefined : host === ctx.settings.domain.toLowerCase() ? "" : host;
    const rows = await ctx.db.statusCounter.groupBy({ by: ["visibility"], where: instance === undefined ? {} : { instance }, _sum: { count: true } });
    const counts: StatusVisibilityCounts = { public: 0, unlisted: 0, private: 0, direct: 0 };
    for (const row of rows) if (row.visibility in counts) counts[row.visibility as keyof StatusVisibilityCounts] = Number(row._sum.count ?? 0);
    return counts;
  },
});
