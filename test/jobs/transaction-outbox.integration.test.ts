// Jobs enqueued inside a transaction (`JobQueue.within`, the transactional outbox) exist exactly when
// the transaction commits, on both engines: a rolled-back transaction leaves no job and runs nothing; a
// committed one runs its job. On Redis the job goes through the database's `jobs` table, and a row left
// there by a process that died between the commit and the hand-over is relayed by a worker.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { createDatabaseQueue } from "../../src/jobs/db-queue.ts";
import type { JobQueue } from "../../src/jobs/queue.ts";
import { createRedisQueue } from "../../src/jobs/redis-queue.ts";
import { waitFor } from "../support/wait.ts";
import { REDIS_URL, createPgDatabase, obliterateRedisQueue, randomSuffix } from "./helpers.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
let db: Database;
beforeAll(async () => {
  pgDb = await createPgDatabase();
  db = await openDatabase(pgDb.url);
  await db.migrate();
});
afterAll(async () => {
  await db?.close();
  await pgDb?.drop();
});

const prefix = `outbox-test-${randomSuffix()}`;
afterAll(() => obliterateRedisQueue(prefix, "outbox"));

/** A queue whose "record" handler collects payloads. */
function recording(make: () => JobQueue) {
  const seen: unknown[] = [];
  const queue = make();
  queue.register("record", async (payload) => void seen.push(payload));
  return { queue, seen };
}

describe.each([
  ["the database queue", () => createDatabaseQueue(db.prisma, { pollIntervalMs: 50, log: () => {} })],
  ["BullMQ", () => createRedisQueue(REDIS_URL, { prefix, queueName: "outbox", outbox: db.prisma, relayIntervalMs: 200, relayAfterMs: 500, log: () => {} })],
] as const)("jobs enqueued in a transaction, on %s", (engine, make) => {
  test("a rolled-back transaction leaves no job; a committed one runs its job once", async () => {
    const { queue, seen } = recording(make);
    await queue.start();
    try {
      await expect(
        db.prisma.$transaction(async (tx) => {
          await queue.within(tx).enqueue("record", { n: "rolled back" });
          throw new Error("the action failed");
        }),
      ).rejects.toThrow("the action failed");

      let jobs!: ReturnType<JobQueue["within"]>;
      await db.prisma.$transaction(async (tx) => {
        jobs = queue.within(tx);
        await jobs.enqueue("record", { n: engine });
        // not visible outside the transaction before it commits
        expect(await db.prisma.job.count({ where: { name: "record", payload: { equals: { n: engine } } } })).toBe(0);
      });
      await jobs.committed();
      await waitFor(async () => seen.length > 0, "the committed job ran", { timeoutMs: 20_000 });
      // time is the behaviour: the rolled-back job must never run; it is given the time the committed one took
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual([{ n: engine }]);
    } finally {
      await queue.stop();
    }
  });
});

test("BullMQ: an outbox row whose process died before handing it over is relayed by a worker, once", async () => {
  const queueName = `orphans-${randomSuffix()}`;
  try {
    // the process that committed dies before committed(): only the row is left
    const dying = createRedisQueue(REDIS_URL, { prefix, queueName, outbox: db.prisma, log: () => {} });
    await db.prisma.$transaction(async (tx) => void (await dying.within(tx).enqueue("record", { n: "orphan" })));
    await dying.stop();
    expect(await db.prisma.job.count({ where: { name: "record", payload: { equals: { n: "orphan" } } } })).toBe(1);

    const { queue, seen } = recording(() => createRedisQueue(REDIS_URL, { prefix, queueName, outbox: db.prisma, relayIntervalMs: 200, relayAfterMs: 500, log: () => {} }));
    await queue.start();
    try {
      await waitFor(async () => seen.length > 0, "the orphaned job ran", { timeoutMs: 20_000 });
      await waitFor(async () => (await db.prisma.job.count({ where: { name: "record", payload: { equals: { n: "orphan" } } } })) === 0, "the row deleted", { timeoutMs: 10_000 });
      // time is the behaviour: several more relay rounds (200 ms apart) pass, and none runs the job again
      await new Promise((r) => setTimeout(r, 700));
      expect(seen).toEqual([{ n: "orphan" }]);
    } finally {
      await queue.stop();
    }
  } finally {
    await obliterateRedisQueue(prefix, queueName);
  }
});
