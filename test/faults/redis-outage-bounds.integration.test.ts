// Redis stopped under a real server process (a private redis-server; the machine's shared one is never
// stopped): the healthcheck answers within 2 s and names Redis as what is down, the outage is logged once
// (not a line per reconnection attempt) and its end with a count, and SIGTERM exits within
// SHUTDOWN_GRACE_MS while Redis is away.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { PROCESS_ADMIN_TOKEN, spawnServer, startPrivateRedis, usersOn, type PrivateRedis, type ServerProcess } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const GRACE_MS = 3000;
/** how long Redis stays away in the first outage */
const OUTAGE_MS = 4000;

describe("Redis outage: healthcheck, log and shutdown bounds", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let redis: PrivateRedis;
  let server: ServerProcess;
  beforeAll(async () => {
    db = await freshDatabase("postgres");
    redis = await startPrivateRedis();
    server = await spawnServer({ DATABASE_URL: db.url, REDIS_URL: redis.url, ADMIN_TOKEN: PROCESS_ADMIN_TOKEN, SHUTDOWN_GRACE_MS: String(GRACE_MS) });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
    await db?.drop();
  });

  const health = async () => {
    const started = Date.now();
    const res = await fetch(`${server.url}/api/v1/ext/healthcheck`);
    return { status: res.status, body: await res.json(), took: Date.now() - started };
  };
  /** the log's lines about Redis from `from` on */
  const redisLines = (from: number) => server.output().slice(from).split("\n").filter((l) => /redis/i.test(l));

  test("healthcheck within 2 s naming redis, one log line per outage, SIGTERM within the grace", async () => {
    const { alice } = await usersOn(server.url, ["alice"]);
    const up = await health();
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ healthy: true, database: "ok", redis: "ok", job_queue_stats: expect.any(Object) });

    const before = server.output().length;
    await redis.stop();
    await waitFor(async () => /redis unreachable/.test(server.output().slice(before)), "the outage in the log", { timeoutMs: 30_000 });
    for (let i = 0; i < 3; i++) {
      const down = await health();
      expect(down.took).toBeLessThan(2000);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ healthy: false, database: "ok", redis: "unreachable" });
    }
    // requests go on meanwhile (the database is there), each publishing on the bus that cannot reach Redis
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/v1/statuses`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ status: `during the outage ${i}` }) });
      expect(res.status).toBe(200);
    }
    // time is the behaviour: reconnection attempts by every connection must not each log a line; ioredis
    // retries after 50, 100, 150… ms (2 s at most), so 4 s hold a dozen attempts per connection
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    const during = redisLines(before);
    // the bus's "connection lost", the rate limiter's "counting locally", and the outage's one line
    expect(during.length, during.join("\n")).toBeLessThanOrEqual(4);
    expect(during.filter((l) => /redis unreachable/.test(l))).toHaveLength(1);

    await redis.start();
    const back = await waitFor(async () => /redis back after (\d+) failures? in ([\d.]+) s/.exec(server.output().slice(before)), "the return in the log", { timeoutMs: 30_000 });
    expect(Number(back[1])).toBeGreaterThan(1);
    expect(Number(back[2])).toBeGreaterThanOrEqual(OUTAGE_MS / 1000);
    await waitFor(async () => (await health()).status === 200, "healthy again", { timeoutMs: 30_000 });

    // SIGTERM while Redis is away again
    await redis.stop();
    await waitFor(async () => (await health()).body.redis === "unreachable", "redis seen down again", { timeoutMs: 30_000 });
    const started = Date.now();
    const code = await server.signal("SIGTERM");
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(GRACE_MS + 1000);
  });
});
