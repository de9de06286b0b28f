// Redis stopped under two server processes of one instance (shared PostgreSQL, a private redis-server:
// the machine's shared Redis is never stopped): no process crashes, requests keep being answered, the
// degraded mode is logged, and when Redis returns the processes use it again by themselves — events
// cross processes again and rate-limit counters are shared again.
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { PROCESS_ADMIN_TOKEN, spawnServer, startPrivateRedis, usersOn, type PrivateRedis, type ServerProcess } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

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
    await waitFor(async () => onB.seen.some((c) => c.includes("before the outage")), "the event to cross processes", { timeoutMs: 30_000 });

    await redis.stop();
    // both processes keep answering reads and writes (the database is there); search is rate limited, counted locally now
    for (const server of [a, b]) {
      expect((await fetch(`${server.url}/api/v1/timelines/public`)).status).toBe(200);
      expect((await post(server, `during the outage on ${server === a ? "a" : "b"}`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/v2/search?q=x`, { headers: alice.auth })).status).toBe(200);
    }
    await waitFor(async () => /redis/i.test(a.output()) && /unavailable|ECONNREFUSED|Connection is closed|reconnect/i.test(a.output()), "the degraded mode in a's log", { timeoutMs: 30_000 });
    expect(a.child.exitCode).toBe(null);
    expect(b.child.exitCode).toBe(null);

    await redis.start();
    // events cross processes again without a restart
    await waitFor(
      async () => {
        await post(a, `after the outage ${Date.now()}`);
        return onB.seen.some((c) => c.includes("after the outage"));
      }, "events across processes again", { timeoutMs: 60_000 });
    await waitFor(async () => (await fetch(`${a.url}/api/v2/search?q=x`, { headers: alice.auth })).status === 200 && /shared again/.test(a.output()), "rate-limit counters shared again", { timeoutMs: 30_000 });
    expect(a.child.exitCode).toBe(null);
    expect(b.child.exitCode).toBe(null);
    onB.close();
  });

  test("while Redis is away a process keeps nothing the lost events would have dropped: another process's edit and deactivation show at once", async () => {
    const { carol } = await usersOn(a.url, ["carol"]);
    const json = { ...carol.auth, "content-type": "application/json" };
    const posted = await (await fetch(`${a.url}/api/v1/statuses`, { method: "POST", headers: json, body: JSON.stringify({ status: "as first written" }) })).json();
    const statusOnB = async () => (await (await fetch(`${b.url}/api/v1/statuses/${posted.id}`, { headers: carol.auth })).json()).content as string;
    const meOnB = () => fetch(`${b.url}/api/v1/accounts/verify_credentials`, { headers: carol.auth });
    // b keeps the status, its token and account (read twice: the second read is served from what b kept)
    for (let i = 0; i < 2; i++) {
      expect(await statusOnB()).toContain("as first written");
      expect((await meOnB()).status).toBe(200);
    }

    const lostBefore = (b.output().match(/connection lost/g) ?? []).length;
    await redis.stop();
    await waitFor(async () => (b.output().match(/connection lost/g) ?? []).length > lostBefore, "b to notice that Redis is away", { timeoutMs: 30_000 });
    // a's writes cannot reach b over the bus now; b must read them from the database
    const edit = await fetch(`${a.url}/api/v1/statuses/${posted.id}`, { method: "PUT", headers: json, body: JSON.stringify({ status: "edited while Redis was away" }) });
    expect(edit.status).toBe(200);
    expect(await statusOnB()).toContain("edited while Redis was away");
    const deactivated = await fetch(`${a.url}/api/v1/ext/admin/users/deactivate`, { method: "PATCH", headers: { "content-type": "application/json", "x-admin-token": PROCESS_ADMIN_TOKEN }, body: JSON.stringify({ nicknames: ["carol"] }) });
    expect(deactivated.status).toBe(200);
    expect((await meOnB()).status).toBeGreaterThanOrEqual(400);

    await redis.start();
    await waitFor(async () => /caches resumed/.test(b.output().slice(b.output().lastIndexOf("connection lost"))), "b's caches to resume", { timeoutMs: 30_000 });
    // once back, b keeps things again and hears a's events: a reactivation on a lets carol in on b at once
    const active = await fetch(`${a.url}/api/v1/ext/admin/users/activate`, { method: "PATCH", headers: { "content-type": "application/json", "x-admin-token": PROCESS_ADMIN_TOKEN }, body: JSON.stringify({ nicknames: ["carol"] }) });
    expect(active.status).toBe(200);
    await waitFor(async () => (await meOnB()).status === 200, "carol active again on b", { timeoutMs: 30_000 });
    expect(a.child.exitCode).toBe(null);
    expect(b.child.exitCode).toBe(null);
  });
});
