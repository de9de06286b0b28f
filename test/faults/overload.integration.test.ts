// A write whose transaction cannot finish in time (the soak's 500s under load: Prisma's P2028, "a commit
// cannot be executed on an expired transaction") answers 503 with Retry-After in the `{error}` shape,
// and nothing of it is stored. The slowness is made by holding a lock the status INSERT needs, from
// outside the server, for longer than the transaction's 10 s. Real process on PostgreSQL.
// Every shape of post: Prisma rolls the transaction back when it expires, while the create is still under
// way, and the create's next statements (status_tags rows, the read-back) must be refused, not run outside
// the transaction — a post with a tag or media used to end in a 500 (an FK violation on status_tags, a
// null row from `create`). src/db/closed-transactions.ts; docs/security.md, "Faults".
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PNG = fs.readFileSync("src/media/assets/avi.png");

describe("a transaction that runs out of time", () => {
  // no lock timeout here: the INSERT waits until the transaction's own 10 s expire (the lock timeout's
  // 503 is the last describe's)
  const suite = serverPerSuite({ env: { JOBS_ENABLED: "false", DATABASE_LOCK_TIMEOUT_MS: "0" } });
  let locker: pg.Client;
  let watcher: pg.Client;
  let alice: { id: string; auth: { authorization: string } };
  beforeAll(async () => {
    const { db, server } = suite;
    locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    ({ alice } = await usersOn(server.url, ["alice"]));
  });
  afterAll(async () => {
    await locker?.end();
    await watcher?.end();
  });

  const post = (body: object) =>
    fetch(`${suite.server.url}/api/v1/statuses`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify(body) });
  const count = async (sql: string, params: unknown[]) => (await watcher.query(sql, params)).rows[0].n as number;

  /** posts `body` while the statuses table is locked past the transaction's 10 s; the answer */
  async function postTooSlowly(body: object) {
    // reads go on (SHARE mode lets SELECTs through); the INSERT of a status waits
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE statuses IN SHARE MODE");
    const answer = post(body);
    // (another connection: inside the locker's transaction pg_stat_activity is a snapshot)
    const waiting = () => count("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO %statuses%'", []);
    await waitFor(async () => (await waiting()) > 0, "the INSERT waiting on the lock", { timeoutMs: 30_000 });
    // time is the behaviour: the transaction's 10 s timeout. The server may answer as soon as it expires,
    // with the lock still held; 12 s bound the wait when it answers only once the INSERT gets through.
    await Promise.race([answer, new Promise((r) => setTimeout(r, 12_000))]);
    await locker.query("COMMIT");
    return answer;
  }

  async function expectOverloaded(res: Response) {
    expect(res.status, `the server's log:\n${suite.server.output().slice(-3000)}`).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({ error: "Service unavailable: the server is too busy to store this now, nothing was stored; try again shortly" });
  }

  test("answers 503 with Retry-After and stores nothing; the next post works", async () => {
    await expectOverloaded(await postTooSlowly({ status: "too slow to keep" }));
    expect(await count("SELECT count(*)::int AS n FROM statuses WHERE source = $1", ["too slow to keep"])).toBe(0);

    const next = await post({ status: "on time" });
    expect(next.status).toBe(200);
    // logged as such (Prisma's own P2028, or a statement refused after its rollback: src/db/closed-transactions.ts)
    expect(suite.server.output()).toMatch(/overloaded: [\s\S]*(expired transaction|rolled back while its callback was still running)/);
  });

  test("a post with a hashtag: 503, no status and no status_tags row", async () => {
    const tagsBefore = await count("SELECT count(*)::int AS n FROM status_tags", []);
    await expectOverloaded(await postTooSlowly({ status: "too slow #slowtag" }));
    expect(await count("SELECT count(*)::int AS n FROM statuses WHERE source = $1", ["too slow #slowtag"])).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM status_tags", [])).toBe(tagsBefore);

    const next = await post({ status: "on time #slowtag" });
    expect(next.status).toBe(200);
    expect((await next.json()).tags).toEqual([expect.objectContaining({ name: "slowtag" })]);
  });

  test("a post with media: 503, no status and the media still unattached", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "slow.png");
    const upload = await fetch(`${suite.server.url}/api/v1/media`, { method: "POST", headers: alice.auth, body: form });
    expect(upload.status).toBe(200);
    const media = (await upload.json()) as { id: string };

    await expectOverloaded(await postTooSlowly({ status: "too slow with media", media_ids: [media.id] }));
    expect(await count("SELECT count(*)::int AS n FROM statuses WHERE source = $1", ["too slow with media"])).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM media_attachments WHERE id = $1 AND status_id IS NULL", [media.id])).toBe(1);

    // the same media can still be attached
    const next = await post({ status: "on time with media", media_ids: [media.id] });
    expect(next.status).toBe(200);
    expect((await next.json()).media_attachments).toEqual([expect.objectContaining({ id: media.id })]);
  });
});

describe("a post that waits on a lock past DATABASE_LOCK_TIMEOUT_MS", () => {
  const suite = serverPerSuite({ env: { JOBS_ENABLED: "false", DATABASE_LOCK_TIMEOUT_MS: "1000" } });

  test("503 with Retry-After, nothing stored; the next post works", async () => {
    const { alice } = await usersOn(suite.server.url, ["alice"]);
    const locker = new pg.Client({ connectionString: suite.db.url });
    await locker.connect();
    try {
      const post = (status: string) =>
        fetch(`${suite.server.url}/api/v1/statuses`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ status }) });
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE statuses IN SHARE MODE");
      // the lock is held until the answer has come: the server gave up waiting by itself
      const res = await post("waited on a lock");
      await locker.query("COMMIT");
      expect(res.status, suite.server.output().slice(-3000)).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toEqual({ error: "Service unavailable: the server is too busy to store this now, nothing was stored; try again shortly" });
      expect((await locker.query("SELECT count(*)::int AS n FROM statuses WHERE source = $1", ["waited on a lock"])).rows[0].n).toBe(0);
      expect((await post("after the lock")).status).toBe(200);
    } finally {
      await locker.end();
    }
  });
});
