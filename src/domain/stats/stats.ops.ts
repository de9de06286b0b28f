// Status statistics (admin API `stats`): read from the per-instance counters a database trigger keeps,
// so the answer costs one small query whatever the number of statuses; and activity per day (the admin
// UI's dashboard chart; GraphQL only, the family's API has no such statistic).
import { z } from "zod";
import { firstIdAt } from "../../db/ids.ts";
import { operation } from "../operation.ts";

export interface StatusVisibilityCounts {
  public: number;
  unlisted: number;
  private: number;
  direct: number;
}

export const statusStats = operation({
  name: "admin.stats",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: z.object({ instance: z.string().optional().nullable() }),
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

export interface DailyActivity {
  /** the UTC day, `YYYY-MM-DD` */
  day: string;
  localStatuses: number;
  remoteStatuses: number;
  signups: number;
}

/**
 * Activity over time for the dashboard: statuses (local and remote) and local sign-ups per UTC day, the
 * last `days` days including today. Rows are found through the time-ordered primary keys (an id range
 * from the first day's midnight), then grouped by `created_at`: two grouped queries whatever the sizes.
 */
export const dailyActivity = operation({
  name: "admin.activity",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: z.object({ days: z.number().int().min(1).max(90).default(14) }),
  async run(ctx, input): Promise<DailyActivity[]> {
    const since = new Date(ctx.clock().getTime()); // a copy: the clock may hand out a shared Date
    since.setUTCHours(0, 0, 0, 0);
    since.setUTCDate(since.getUTCDate() - (input.days - 1));
    const fromId = firstIdAt(since.getTime());
    const [statuses, signups] = await Promise.all([
      ctx.db.$queryRaw<{ day: string; local: boolean; n: bigint }[]>`
        SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, local, count(*) AS n
        FROM statuses WHERE id >= ${fromId} AND created_at >= (${since.toISOString()}::timestamptz AT TIME ZONE 'UTC')
        GROUP BY 1, 2`,
      ctx.db.$queryRaw<{ day: string; n: bigint }[]>`
        SELECT to_char(date_trunc('day', created_at), 'YYYY-MM-DD') AS day, count(*) AS n
        FROM accounts WHERE local AND id >= ${fromId} AND created_at >= (${since.toISOString()}::timestamptz AT TIME ZONE 'UTC')
        GROUP BY 1`,
    ]);
    const days = new Map<string, DailyActivity>();
    for (let i = 0; i < input.days; i++) {
      const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      days.set(day, { day, localStatuses: 0, remoteStatuses: 0, signups: 0 });
    }
    for (const row of statuses) {
      const d = days.get(row.day);
      if (d) d[row.local ? "localStatuses" : "remoteStatuses"] += Number(row.n);
    }
    for (const row of signups) {
      const d = days.get(row.day);
      if (d) d.signups += Number(row.n);
    }
    return [...days.values()];
  },
});
