// A write whose transaction cannot finish in time (the soak's 500s under load: Prisma's P2028, "a commit
// cannot be executed on an expired transaction") answers 503 with Retry-After in the `{error}` shape,
// and nothing of it is stored. The slowness is made by holding a lock the status INSERT needs, from
// outside the server, for longer than the transaction's 10 s. Real process on PostgreSQL.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { eventually, serverPerSuite, usersOn } from "../support/processes.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe("a transaction that runs out of time", () => {
  const suite = serverPerSuite({ env: { JOBS_ENABLED: "false" } });
  let locker: pg.Client;
  let watcher: pg.Client;
  beforeAll(async () => {
    const { db } = suite;
    locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await watcher?.end();
  });

  test("answers 503 with Retry-After and stores nothing; the next post works", async () => {
    const { server } = suite;
    const { alice } = await usersOn(server.url, ["alice"]);
    const post = (text: string) => fetch(`${server.url}/api/v1/statuses`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ status: text }) });

    // reads go on (SHARE mode lets SELECTs through); the INSERT of a status waits
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE statuses IN SHARE MODE");
    const answer = post("too slow to keep");
    // (another connection: inside the locker's transaction pg_stat_activity is a snapshot)
    const waiting = () => watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO %statuses%'");
    await eventually(async () => (await waiting()).rows[0].n > 0, "the INSERT waiting on the lock", 30_000);
    await new Promise((r) => setTimeout(r, 12_000)); // past the transaction's 10 s
    await locker.query("COMMIT");

    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await res.json()).error).toMatch(/too busy.*nothing was stored/);
    const stored = await watcher.query("SELECT count(*)::int AS n FROM statuses WHERE source = 'too slow to keep'");
    expect(stored.rows[0].n).toBe(0);

    const next = await post("on time");
    expect(next.status).toBe(200);
    expect(server.output()).toMatch(/overloaded: .*expired transaction/);
  });
});
