// The database's faults that are not a clean outage, on real server processes with their default
// timeouts (src/db/pg-pool.ts): a half-open network (a TCP proxy that stops forwarding and reading but
// keeps its sockets open: no reset, no close), a database that refuses connections (55000) or terminates
// them (57P01), and a lock held elsewhere. Each answers 503 with Retry-After, service returns by itself
// within 30 s of the network coming back, and SIGTERM exits within SHUTDOWN_GRACE_MS meanwhile.
import pg from "pg";
import { describe, expect, test, vi } from "vitest";
import { PG_ADMIN_URL } from "../support/databases.ts";
import { serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

/** Runs `sql` on the machine's PostgreSQL as its administrator. */
async function admin(sql: string, url = PG_ADMIN_URL): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

const dbName = (url: string) => new URL(url).pathname.slice(1);

async function expect503(res: Response) {
  const body = await res.text();
  expect(res.status, body).toBe(503);
  expect(JSON.parse(body)).toEqual({ error: expect.stringMatching(/service unavailable/i) });
  expect(res.headers.get("retry-after")).toBe("5");
}

describe("half-open database connections", () => {
  const suite = serverPerSuite({ viaProxy: true });

  test("requests fail with 503 while the network drops everything, and succeed again within 30 s of its return", async () => {
    const { server, proxy } = suite;
    const { alice } = await usersOn(server.url, ["alice"]);
    // a read no page is kept for: it needs the database every time
    const notifications = () => fetch(`${server.url}/api/v1/notifications`, { headers: alice.auth });
    // several at once: the pool holds several connections, all of which the network freezes
    const burst = () => Promise.all(Array.from({ length: 4 }, notifications));
    for (const res of await burst()) expect(res.status).toBe(200);

    await proxy.mode("half-open");
    const started = Date.now();
    for (const res of await burst()) await expect503(res);
    // answered by the connection's silence bound (statement timeout 15 s + 5 s), not left waiting
    expect(Date.now() - started).toBeLessThan(25_000);
    const health = await fetch(`${server.url}/api/v1/ext/healthcheck`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ healthy: false, database: "unreachable" });

    await proxy.mode("pass");
    const back = Date.now();
    // the frozen connections stay frozen (the database forgot them): each must be found and replaced
    await waitFor(async () => (await burst()).every((r) => r.status === 200), "reads again", { timeoutMs: 40_000 });
    expect(Date.now() - back).toBeLessThan(30_000);
    for (const res of await burst()) expect(res.status).toBe(200);
    expect(server.child.exitCode).toBe(null);
  });
});

describe("SIGTERM while the database connections are half-open", () => {
  const suite = serverPerSuite({ viaProxy: true, env: { SHUTDOWN_GRACE_MS: "3000" } });

  test("the process exits within SHUTDOWN_GRACE_MS", async () => {
    const { server, proxy } = suite;
    const { alice } = await usersOn(server.url, ["alice"]);
    expect((await fetch(`${server.url}/api/v1/notifications`, { headers: alice.auth })).status).toBe(200);
    await proxy.mode("half-open");
    // a request waiting on a frozen connection, and another waiting for a new one
    const waiting = [1, 2].map(() => fetch(`${server.url}/api/v1/notifications`, { headers: alice.auth }).catch(() => null));
    // time is the behaviour: nothing outside the server shows a request waiting on a frozen socket, so the
    // requests get 500 ms to reach the database before SIGTERM
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    const code = await server.signal("SIGTERM");
    const took = Date.now() - started;
    expect(code).toBe(0);
    expect(took).toBeLessThan(3000 + 1000); // the grace, and the process's own exit
    expect(server.output()).toMatch(/shutdown: still waiting for .* after 3000 ms/);
    await Promise.all(waiting);
  });
});

describe("a database that refuses or ends connections, a lock held elsewhere", () => {
  const suite = serverPerSuite();

  test("55000 (not accepting connections), 57P01 (terminated) and a lock timeout answer 503 with Retry-After", async () => {
    const { server, db } = suite;
    const name = dbName(db.url);
    const { alice } = await usersOn(server.url, ["alice"]);
    const notifications = () => fetch(`${server.url}/api/v1/notifications`, { headers: alice.auth });
    expect((await notifications()).status).toBe(200);

    // a lock held by another session: the read waits for DATABASE_LOCK_TIMEOUT_MS (5 s), then 503
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query("BEGIN; LOCK TABLE notifications IN ACCESS EXCLUSIVE MODE");
      const started = Date.now();
      await expect503(await notifications());
      expect(Date.now() - started).toBeLessThan(10_000);

      // 57P01: the backend waiting on the lock is terminated by an administrator
      const waiting = notifications();
      const pid = await waitFor(async () => (await admin(`SELECT pid FROM pg_stat_activity WHERE datname = '${name}' AND wait_event_type = 'Lock'`)).rows[0]?.pid, "a backend waiting on the lock", { timeoutMs: 30_000 });
      await admin(`SELECT pg_terminate_backend(${pid})`);
      await expect503(await waiting);
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end();
    }
    await waitFor(async () => (await notifications()).status === 200, "reads again", { timeoutMs: 30_000 });

    // 55000: the database refuses new connections, and the pool's are ended
    try {
      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
      // the first request may meet a terminated connection (57P01), the next a refused one (55000)
      for (let i = 0; i < 3; i++) await expect503(await notifications());
    } finally {
      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    }
    await waitFor(async () => (await notifications()).status === 200, "reads again", { timeoutMs: 30_000 });
    expect(server.child.exitCode).toBe(null);
  });
});
