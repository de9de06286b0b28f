// What the instance says about itself (GET /api/v1/instance, nodeinfo). Later issues fill in limits and stats.
import { z } from "zod";
import { operation } from "../operation.ts";

export const SOFTWARE_VERSION = "0.1.0";
/** The reference client API level we follow. */
export const API_LEVEL = "2.7.2";

export const instanceInfo = operation({
  name: "instance.info",
  input: z.object({}),
  async run(ctx) {
    const userCount = await ctx.db.account.count({ where: { local: true, deactivated: false } });
    const s = ctx.settings;
    return {
      domain: s.domain,
      baseUrl: s.baseUrl,
      title: s.instanceName,
      email: s.instanceEmail,
      registrationsOpen: s.registrationsOpen,
      userCount,
      softwareVersion: SOFTWARE_VERSION,
    };
  },
});

/** Liveness for load balancers and monitors: the database answers and the job queue can be read. */
export const healthcheck = operation({
  name: "instance.healthcheck",
  input: z.object({}),
  async run(ctx) {
    let healthy = true;
    let jobQueueStats: Record<string, number> = {};
    try {
      await ctx.db.$queryRawUnsafe("SELECT 1");
      jobQueueStats = await ctx.jobs.stats();
    } catch {
      healthy = false;
    }
    return { healthy, pool: ctx.database.poolStats(), memoryUsedMb: Math.round((process.memoryUsage().rss / 1024 / 1024) * 100) / 100, jobQueueStats };
  },
});
