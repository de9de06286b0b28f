// Own API: instance health.
import { healthcheck } from "../../src/domain/instance/instance.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { HealthSchema } from "../../src/views/schemas/tools.ts";

export const ownInstanceRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/healthcheck",
    view: HealthSchema,
    summary: "Health of this node: 200 when healthy, 503 otherwise",
    tags: ["Instance"],
    operation: healthcheck,
    async handler(ctx, { res }) {
      const h = await healthcheck(ctx, {});
      // pool figures are per node; the embedded database has a single connection
      res.status(h.healthy ? 200 : 503).json({
        pool_size: h.pool.size,
        active: h.pool.active,
        idle: h.pool.idle,
        memory_used: h.memoryUsedMb,
        healthy: h.healthy,
        job_queue_stats: h.jobQueueStats,
        // what is down, by name (added to the family's fields; redis only when the instance has one)
        database: h.database,
        ...(h.redis ? { redis: h.redis } : {}),
      });
    },
  }),
];
