// What the healthcheck probes — the database, Redis (when the instance has one) and the job queue's
// counts — each within a time bound, so a dependency that does not answer makes the answer "unhealthy,
// this is down" within 2 s instead of making the monitor wait (a Redis outage kept it waiting ≥ 120 s:
// BullMQ's count waited for the reconnection).
import type { Ctx } from "../context.ts";

/** How long a probe may take; the whole check stays under 2 s. */
const PROBE_MS = 1_000;
const CHECK_MS = 1_800;

export type Reach = "ok" | "unreachable";

export interface Health {
  database: Reach;
  /** absent without REDIS_URL */
  redis?: Reach;
  jobQueueStats: Record<string, number>;
}

export async function probeHealth(ctx: Ctx): Promise<Health> {
  const deadline = Date.now() + CHECK_MS;
  const [database, redis] = await Promise.all([
    within(PROBE_MS, ctx.db.$queryRawUnsafe("SELECT 1")).then((): Reach => "ok", (): Reach => "unreachable"),
    ctx.bus.redisReachable?.(PROBE_MS).then((up): Reach => (up ? "ok" : "unreachable")),
  ]);
  // the counts live where the queue does: not asked of a store that is down (they would wait for it)
  const queueUp = ctx.jobs.engine === "redis" ? redis === "ok" : database === "ok";
  const jobQueueStats = queueUp ? await within(Math.max(deadline - Date.now(), 0), ctx.jobs.stats()).catch(() => ({})) : {};
  return { database, ...(redis ? { redis } : {}), jobQueueStats };
}

/** `work`, or a rejection once `ms` have passed (the work itself goes on; its result is dropped). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  work.catch(() => {}); // a late failure is not an unhandled rejection
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
