// Redis engine (BullMQ) against a real Redis; every run uses its own key prefix and removes it.
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { Queue } from "bullmq";
import { createRedisQueue } from "../../src/jobs/redis-queue.ts";
import { queueBehaviour, type JobView } from "./behaviour.ts";
import { REDIS_URL, killWorkers, obliterateRedisQueue, randomSuffix, readLines, spawnWorker } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
afterEach(killWorkers);

const prefix = `jobs-test-${randomSuffix()}`;
const queueNames: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jobs-redis-"));

afterAll(async () => {
  for (const name of queueNames) await obliterateRedisQueue(prefix, name);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function newQueueName(): string {
  const name = `q${queueNames.length}`;
  queueNames.push(name);
  return name;
}

async function inspect(queueName: string, id: string): Promise<JobView> {
  const queue = new Queue(queueName, { connection: { url: REDIS_URL }, prefix });
  try {
    const job = await queue.getJob(id);
    if (!job) throw new Error(`no job ${id}`);
    const s = await job.getState();
    const state = s === "completed" ? "done" : s === "failed" ? "failed" : s === "active" ? "running" : "pending";
    return { state, attempts: job.attemptsStarted, lastError: job.failedReason ?? null };
  } finally {
    await queue.close();
  }
}

describe("redis queue", () => {
  queueBehaviour(() => ({
    make() {
      const queueName = newQueueName();
      return { queue: createRedisQueue(REDIS_URL, { prefix, queueName, log: () => {} }), inspect: (id) => inspect(queueName, id) };
    },
  }));

  it("reports counts per state", async () => {
    const queueName = newQueueName();
    const queue = createRedisQueue(REDIS_URL, { prefix, queueName });
    await queue.enqueue("x", {}, { runAt: new Date(Date.now() + 60_000) });
    expect(await queue.stats()).toEqual({ pending: 1, running: 0, done: 0, failed: 0 });
    await queue.stop();
  });
});

describe("redis queue across a crash", () => {
  it("runs a delayed job once after the process that scheduled it was killed", async () => {
    const queueName = newQueueName();
    const file = path.join(tmp, "before.log");
    const base = { engine: "redis" as const, url: REDIS_URL, prefix, queueName, leaseMs: 1000 };
    const first = spawnWorker({ ...base, workerId: "w1", enqueueInMs: 2000, file });
    const id = await first.message<string>("enqueued");
    await first.kill();
    expect(readLines(file)).toEqual([]);

    const second = spawnWorker({ ...base, workerId: "w2", sentinelFile: path.join(tmp, `sentinel-${queueName}.log`) });
    await waitFor(() => readLines(file).some((l) => l.startsWith("done")), "the job to run", { timeoutMs: 30_000 });
    await second.sentinel(); // a duplicate run would have started by now
    expect(await second.stop()).toBe(0);
    expect(readLines(file)).toEqual(["start 1 w2", "done 1 w2"]);
    expect(await inspect(queueName, id)).toMatchObject({ state: "done", attempts: 1 });
  });

  it("re-runs a job once when its worker was killed while the handler ran", async () => {
    const queueName = newQueueName();
    const file = path.join(tmp, "during.log");
    const base = { engine: "redis" as const, url: REDIS_URL, prefix, queueName, leaseMs: 1000 };
    const first = spawnWorker({ ...base, workerId: "w1", enqueueInMs: 0, file, hang: true });
    const id = await first.message<string>("enqueued");
    await waitFor(() => readLines(file).includes("start 1 w1"), "the handler to start", { timeoutMs: 30_000 });
    await first.kill();

    const second = spawnWorker({ ...base, workerId: "w2", sentinelFile: path.join(tmp, `sentinel-${queueName}.log`) });
    await waitFor(() => readLines(file).some((l) => l.startsWith("done")), "the job to run again", { timeoutMs: 30_000 });
    await second.sentinel();
    expect(await second.stop()).toBe(0);
    expect(readLines(file)).toEqual(["start 1 w1", "start 2 w2", "done 2 w2"]);
    expect(await inspect(queueName, id)).toMatchObject({ state: "done", attempts: 2 });
  });
});
