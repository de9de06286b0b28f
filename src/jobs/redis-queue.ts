// The Redis engine (used when REDIS_URL is set): one BullMQ Queue for enqueueing and, once start()
// is called, one Worker. Durability, delays, retries with backoff and recovery of jobs whose worker
// died (BullMQ's "stalled" jobs) are BullMQ's; this file only maps our interface onto it.
//
// Unlike the database engine a BullMQ worker takes every job of its queue, so every process that
// calls start() must register the same handlers (a job without one here fails that try).
import type { Job, Queue, Worker } from "bullmq";
import { newId } from "../db/ids.ts";
import { redisFailed } from "../net/redis-outage.ts";
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF } from "./db-queue.ts";
import type { JobHandler, JobOptions, JobQueue } from "./queue.ts";

export interface RedisQueueOptions {
  /** namespace of all keys (BullMQ default "bull") */
  prefix?: string;
  /** handlers running at once in this process (default 5) */
  concurrency?: number;
  /** BullMQ queue name (default "jobs") */
  queueName?: string;
  /** how long a worker's claim on a job lasts without renewal (BullMQ lockDuration, default 30 000) */
  lockDurationMs?: number;
  /** how often this worker looks for jobs whose worker died (BullMQ stalledInterval, default 30 000) */
  stalledIntervalMs?: number;
  log?: (msg: string) => void;
}

// Bounded history: finished jobs are kept for inspection, but Redis must not grow without limit.
const KEEP_COMPLETED = { count: 1000 };
const KEEP_FAILED = { count: 5000 };

export function createRedisQueue(redisUrl: string, opts: RedisQueueOptions = {}): JobQueue {
  const queueName = opts.queueName ?? "jobs";
  const prefix = opts.prefix ?? "bull";
  const log = opts.log ?? ((msg: string) => console.error(`[jobs] ${msg}`));
  // connection errors, one per reconnection attempt while Redis is away, are one line per outage
  const failed = (source: string) => (error: Error) => (opts.log ? log(`${source}: ${error.message}`) : redisFailed(source, error));
  const handlers = new Map<string, JobHandler>();
  // BullMQ is imported here, not at start-up, so processes without REDIS_URL never load it (about
  // 1.3 MB of JavaScript; docs/performance.md, "Start-up and idle memory").
  const bullmq = import("bullmq");
  // BullMQ opens (and on close() quits) its own ioredis connections from these options.
  const opened: Promise<Queue> = bullmq.then(({ Queue }) => {
    const queue = new Queue(queueName, { connection: { url: redisUrl }, prefix });
    queue.on("error", failed("job queue")); // an unhandled 'error' event would crash
    return queue;
  });
  let worker: Worker | undefined;

  async function processJob(job: Job): Promise<void> {
    const handler = handlers.get(job.name);
    if (!handler) throw new Error(`no handler registered for ${job.name} in this process`);
    // attemptsStarted counts tries begun (including ones whose worker died), like the database's attempts
    await handler(job.data, { id: job.id!, name: job.name, attempt: Math.max(job.attemptsStarted, job.attemptsMade + 1) });
  }

  return {
    engine: "redis",

    async enqueue(name: string, payload: unknown, options: JobOptions = {}): Promise<string> {
      const id = newId();
      await (await opened).add(name, payload ?? null, {
        jobId: id,
        delay: options.runAt ? Math.max(0, options.runAt.getTime() - Date.now()) : undefined,
        attempts: options.attempts ?? DEFAULT_ATTEMPTS,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      });
      return id;
    },

    register(name: string, handler: JobHandler): void {
      handlers.set(name, handler);
    },

    async start(): Promise<void> {
      if (worker || handlers.size === 0) return; // enqueue-only processes need no worker
      const { Worker } = await bullmq;
      if (worker) return; // started meanwhile
      worker = new Worker(queueName, processJob, {
        // the worker blocks on Redis; BullMQ requires unlimited retries on that connection
        connection: { url: redisUrl, maxRetriesPerRequest: null },
        prefix,
        concurrency: opts.concurrency ?? 5,
        // an explicit undefined would override BullMQ's defaults
        ...(opts.lockDurationMs ? { lockDuration: opts.lockDurationMs } : {}),
        ...(opts.stalledIntervalMs ? { stalledInterval: opts.stalledIntervalMs } : {}),
      });
      worker.on("error", failed("job worker"));
      worker.on("failed", (job, err) => {
        if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) log(`job ${job.id} (${job.name}) failed: ${err.message}`);
      });
      await worker.waitUntilReady();
    },

    async stop(): Promise<void> {
      // Worker.close() waits for active handlers before it disconnects.
      await worker?.close();
      worker = undefined;
      await (await opened).close();
    },

    async stats(): Promise<Record<string, number>> {
      const c = await (await opened).getJobCounts("waiting", "delayed", "prioritized", "waiting-children", "active", "completed", "failed");
      return {
        pending: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0) + (c["waiting-children"] ?? 0),
        running: c.active ?? 0,
        done: c.completed ?? 0, // bounded by the kept history
        failed: c.failed ?? 0,
      };
    },
  };
}
