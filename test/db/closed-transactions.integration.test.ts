// A transaction that Prisma closes under a running call (src/db/closed-transactions.ts): the call's
// remaining statements are refused, not sent outside the transaction, and the error is the "overloaded"
// fault. The call is held up by a lock taken from another connection, past a short `timeout`.
// Transactions that are not closed early (committed, or rolled back because the callback threw) work as before.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { ROLLED_BACK_UNDER_CALLBACK } from "../../src/db/closed-transactions.ts";
import { faultOf } from "../../src/http/faults.ts";
import { freshDatabase, suiteKinds } from "../support/databases.ts";
import { waitFor } from "../support/wait.ts";

const statusRow = (id: string) => ({ id, uri: `https://x.test/objects/${id}`, accountId: "A1", context: `ctx-${id}`, source: id });

describe.each(suiteKinds(import.meta.url))("transactions on %s", (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    const fresh = await freshDatabase(kind);
    ({ drop, url } = fresh);
    database = await openDatabase(url);
    await database.migrate();
    await database.prisma.account.create({ data: { id: "A1", nickname: "a1", apId: "https://x.test/a1" } });
    await database.prisma.tag.create({ data: { id: "T1", name: "t1" } });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  test("a committed transaction, and one its callback ends by throwing, work as before", async () => {
    const db = database.prisma;
    await expect(
      db.$transaction(async (tx) => {
        await tx.status.create({ data: statusRow("S-undone") });
        throw new Error("undo it");
      }),
    ).rejects.toThrow("undo it");
    await db.$transaction(async (tx) => {
      await tx.status.create({ data: { ...statusRow("S-kept"), tags: { create: [{ tagId: "T1" }] } } });
      await tx.status.update({ where: { id: "S-kept" }, data: { content: "updated in the transaction" } });
    });
    expect(await db.status.findMany({ where: { id: { in: ["S-kept", "S-undone"] } }, select: { id: true, content: true } })).toEqual([{ id: "S-kept", content: "updated in the transaction" }]);
  });

  test.runIf(kind === "postgres")("expired under a create: its other statements are refused, nothing is stored, the error is 'overloaded'", async () => {
    const db = database.prisma;
    const locker = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await locker.connect();
    await watcher.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE statuses IN SHARE MODE");
      const sent: string[] = [];
      const stop = database.onQuery((sql) => sent.push(sql));
      // a status with a tag: INSERT the status (held by the lock), INSERT its status_tags row, read it back
      const create = db.$transaction((tx) => tx.status.create({ data: { ...statusRow("S-late"), tags: { create: [{ tagId: "T1" }] } } }), { timeout: 500 }).catch((e: unknown) => e);
      const waiting = async () => (await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0].n > 0;
      await waitFor(waiting, "the INSERT to wait on the lock", { intervalMs: 20 });
      // time is the behaviour: the transaction's 500 ms; it may fail as soon as they are over, the lock still held
      await Promise.race([create, new Promise((r) => setTimeout(r, 1_000))]);
      await locker.query("COMMIT");
      const error = (await create) as { code?: string; message?: string };
      stop();

      expect(error).toMatchObject({ code: "P1018", message: expect.stringContaining(ROLLED_BACK_UNDER_CALLBACK) });
      expect(faultOf(error)).toMatchObject({ status: 503, kind: "overloaded" });
      expect(sent.filter((sql) => /status_tags/.test(sql))).toEqual([]); // refused before it was sent
      expect((await watcher.query("SELECT count(*)::int AS n FROM statuses WHERE id = 'S-late'")).rows[0].n).toBe(0);
      expect((await watcher.query("SELECT count(*)::int AS n FROM status_tags WHERE status_id = 'S-late'")).rows[0].n).toBe(0);
      // the connection went back to the pool clean: the next transaction works
      await db.$transaction((tx) => tx.status.create({ data: { ...statusRow("S-next"), tags: { create: [{ tagId: "T1" }] } } }));
      expect((await watcher.query("SELECT count(*)::int AS n FROM status_tags WHERE status_id = 'S-next'")).rows[0].n).toBe(1);
    } finally {
      await locker.end();
      await watcher.end();
    }
  });
});
