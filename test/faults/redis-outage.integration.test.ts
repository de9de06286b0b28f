// Redis stopped under two server processes of one instance (shared PostgreSQL, a private redis-server:
// the machine's shared Redis is never stopped): no process crashes, requests keep being answered, the
// degraded mode is logged, and when Redis returns the processes use it again by themselves — events
// cross processes again and rate-limit counters are shared again.
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { eventually, PROCESS_ADMIN_TOKEN, spawnServer, startPrivateRedis, usersOn, type PrivateRedis, type ServerProcess } from "../support/processes.ts";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

describe("Redis outage with two processes", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let redis: PrivateRedis;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    db = await freshDatabase("postgres");
    redis = await startPrivateRedis();
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url, ADMIN_TOKEN: PROCESS_ADMIN_TOKEN, RATE_LIMITS_ENABLED: "true" };
    a = await spawnServer(env);
    b = await spawnServer(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
    await db?.drop();
  });

  /** A public-timeline stream on `server`; resolves the texts of the updates it receives. */
  function stream(server: ServerProcess) {
    const seen: string[] = [];
    const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/v1/streaming?stream=public`);
    ws.on("message", (data) => {
      const event = JSON.parse(data.toString());
      if (event.event === "update") seen.push(JSON.parse(event.payload).content);
    });
    return { seen, opened: new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject)), close: () => ws.close() };
  }

  test("no crash, degraded mode logged, recovery when Redis returns", async () => {
    const { alice } = await usersOn(a.url, ["alice"]);
    const post = (server: ServerProcess, text: string) => fetch(`${server.url}/api/v1/statuses`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ status: text }) });
    const onB = stream(b);
    await onB.opened;
    expect((await post(a, "before the outage")).status).toBe(200);
    await eventually(async () => onB.seen.some((c) => c.includes("before the outage")), "the event to cross processes");

    await redis.stop();
    // both processes keep answering reads and writes (the database is there); search is rate limited, counted locally now
    for (const server of [a, b]) {
      expect((await fetch(`${server.url}/api/v1/timelines/public`)).status).toBe(200);
      expect((await post(server, `during the outage on ${server === a ? "a" : "b"}`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/v2/search?q=x`, { headers: alice.auth })).status).toBe(200);
    }
    await eventually(async () => /redis/i.test(a.output()) && /unavailable|ECONNREFUSED|Connection is closed|reconnect/i.test(a.output()), "the degraded mode in a's log");
    expect(a.child.exitCode).toBe(null);
    expect(b.child.exitCode).toBe(null);

    await redis.start();
    // events cross processes again without a restart
    await eventually(
      async () => {
        await post(a, `after the outage ${Date.now()}`);
        return onB.seen.some((c) => c.includes("after the outage"));
      },
      "events across processes again",
      60_000,
    );
    await eventually(async () => (await fetch(`${a.url}/api/v2/search?q=x`, { headers: alice.auth })).status === 200 && /shared again/.test(a.output()), "rate-limit counters shared again", 30_000);
    expect(a.child.exitCode).toBe(null);
    expect(b.child.exitCode).toBe(null);
    onB.close();
  });
});
