// Durable jobs are shared by all processes without double execution: two worker processes on one
// PostgreSQL database, and separately on one Redis, run a batch of jobs enqueued by a third party
// exactly once in total. The workers are test/jobs/fixtures/worker.ts: each "append" job appends
// "start …" and "done …" lines, naming the worker, to the file its payload names (one file per job here).
// PostgreSQL only for the database engine: the embedded PGlite admits a single process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test, vi } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { createDatabaseQueue } from "../../src/jobs/db-queue.ts";
import { createRedisQueue } from "../../src/jobs/redis-queue.ts";
import type { JobQueue } from "../../src/jobs/queue.ts";
import { REDIS_URL, createPgDatabase, killWorkers, obliterateRedisQueue, randomSuffix, readLines, spawnWorker, type WorkerProcess } from "../jobs/helpers.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
afterAll(killWorkers);

const N = 40;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shared-jobs-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Enqueues N jobs from outside the workers, waits until each has run, and checks each ran exactly once. */
async function runBatch(queue: JobQueue, workers: WorkerProcess[], label: string, finished: () => Promise<boolean>) {
  await Promise.all(workers.map((w) => w.message("ready")));
  const files = Array.from({ length: N }, (_, i) => path.join(tmp, `${label}-${i}.log`));
  for (const file of files) await queue.enqueue("append", { file });

  await waitFor(finished, `all ${N} jobs finished`, { timeoutMs: 60_000 });
  const runs = files.map(readLines);
  for (const lines of runs) {
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^start 1 w[12]$/);
    expect(lines[1]).toBe(lines[0]!.replace("start", "done"));
  }
  return runs.map((lines) => lines[0]!.split(" ")[2]);
}

describe("two worker processes sharing one queue", () => {
  test(`on one PostgreSQL database they run each of ${N} jobs exactly once`, async () => {
    const pg = await createPgDatabase();
    const db = await openDatabase(pg.url);
    try {
      await db.migrate(); // here, so the two workers do not race to migrate
      const config = { engine: "database" as const, url: pg.url, migrate: false, pollIntervalMs: 50 };
      const workers = [spawnWorker({ ...config, workerId: "w1" }), spawnWorker({ ...config, workerId: "w2" })];
      const queue = createDatabaseQueue(db.prisma, { log: () => {} }); // enqueue only: never started
      const byWorker = await runBatch(queue, workers, "pg", async () => (await db.prisma.job.count({ where: { state: "done" } })) === N);
      const rows = await db.prisma.job.findMany();
      expect(rows).toHaveLength(N);
      expect(rows.every((r) => r.state === "done" && r.attempts === 1)).toBe(true);
      expect(byWorker.every((w) => w === "w1" || w === "w2")).toBe(true);
      await Promise.all(workers.map((w) => w.stop()));
    } finally {
      await db.close();
      await pg.drop();
    }
  });

  test(`on one Redis they run each of ${N} jobs exactly once`, async () => {
    const prefix = `shared-jobs-${randomSuffix()}`;
    const queueName = "jobs";
    const config = { engine: "redis" as const, url: REDIS_URL, prefix, queueName };
    const workers = [spawnWorker({ ...config, workerId: "w1" }), spawnWorker({ ...config, workerId: "w2" })];
    const queue = createRedisQueue(REDIS_URL, { prefix, queueName, log: () => {} }); // enqueue only
    try {
      await runBatch(queue, workers, "redis", async () => (await queue.stats()).done === N);
      expect(await queue.stats()).toMatchObject({ pending: 0, running: 0, done: N, failed: 0 });
      await Promise.all(workers.map((w) => w.stop()));
    } finally {
      await queue.stop();
      await obliterateRedisQueue(prefix, queueName);
    }
  });
});
