// The Redis engine (used when REDIS_URL is set): one BullMQ Queue for enqueueing and, once start()
// is called, one Worker. Durability, delays, retries with backoff and recovery of jobs whose worker
// died (BullMQ's "stalled" jobs) are BullMQ's; this file only maps our interface onto it.
//
// Unlike the database engine a BullMQ worker takes every job of its queue, so every process that
// calls start() must register the same handlers (a job without one here fails that try).
//
// Jobs enqueued inside a transaction (`within`) cannot commit with it in Redis: they are written to the
// database's `jobs` table by the transaction (the outbox), handed to BullMQ right after the commit and
// deleted there. A process that dies in between leaves the rows; every worker process relays rows older
// than `relayAfterMs`, under their row id as BullMQ's job id (a row relayed twice is mostly one job; the
// handlers are idempotent for the rest).
import type { Job, Queue, Worker } from "bullmq";
import { newId } from "../db/ids.ts";
import { sqlFor } from "../db/sql.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { redisFailed } from "../net/redis-outage.ts";
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF, insertJob } from "./db-queue.ts";
import type { Backoff, JobHandler, JobOptions, JobQueue, TransactionJobs } from "./queue.ts";

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
  /** the database whose `jobs` table is the outbox of jobs enqueued in transactions (needed by `within`) */
  outbox?: PrismaClient;
  /** how often a worker process relays outbox rows left by a process that died (default 10 000 ms) */
  relayIntervalMs?: number;
  /** an outbox row this old was not relayed by the process that committed it: that process died (default 10 000 ms) */
  relayAfterMs?: number;
}

interface OutboxRow {
  id: string;
  name: string;
  payload: unknown;
  runAt: Date;
  maxAttempts: number;
  backoff: Backoff;
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
  let relayTimer: NodeJS.Timeout | undefined;

  function add(id: string, name: string, payload: unknown, runAt: Date | undefined, attempts: number | undefined, backoff: Backoff | undefined) {
    return opened.then((queue) =>
      queue.add(name, payload ?? null, {
        jobId: id,
        delay: runAt ? Math.max(0, runAt.getTime() - Date.now()) : undefined,
        attempts: attempts ?? DEFAULT_ATTEMPTS,
        backoff: backoff ?? DEFAULT_BACKOFF,
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      }),
    );
  }

  /** Hands outbox rows to BullMQ, then deletes them; rows that could not be handed stay for the next relay. */
  async function relay(rows: readonly OutboxRow[]): Promise<void> {
    const handed: string[] = [];
    for (const row of rows) {
      try {
        await add(row.id, row.name, row.payload, row.runAt, row.maxAttempts, row.backoff);
        handed.push(row.id);
      } catch (error) {
        log(`could not relay job ${row.id} (${row.name}) to Redis: ${(error as Error).message}`);
        break; // Redis is away: the rest waits for the next relay too
      }
    }
    if (handed.length) await sqlFor(opts.outbox!).execute(`DELETE FROM jobs WHERE id = ANY($1::text[]) AND state = 'pending'`, [handed]);
  }

  /** The rows a dead process left behind. */
  async function relayOrphans(): Promise<void> {
    try {
      const rows = await sqlFor(opts.outbox!).query<OutboxRow>(
        `SELECT id, name, payload, run_at AS "runAt", max_attempts AS "maxAttempts", backoff FROM jobs
        WHERE state = 'pending' AND created_at < (now() AT TIME ZONE 'UTC') - $1::double precision * interval '1 millisecond'
        ORDER BY created_at LIMIT 500`,
        [opts.relayAfterMs ?? 10_000],
      );
      await relay(rows);
    } catch (error) {
      log(`outbox relay failed: ${(error as Error).message}`);
    }
  }

  async function processJob(job: Job): Promise<void> {
    const handler = handlers.get(job.name);
    if (!handler) throw new Error(`no handler registered for ${job.name} in this process`);
    // attemptsStarted counts tries begun (including ones whose worker died), like the database's attempts
    await handler(job.data, { id: job.id!, name: job.name, attempt: Math.max(job.attemptsStarted, job.attemptsMade + 1) });
  }

  const queue: JobQueue = {
    engine: "redis",

    async enqueue(name: string, payload: unknown, options: JobOptions = {}): Promise<string> {
      const id = newId();
      await add(id, name, payload, options.runAt, options.attempts, options.backoff);
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
      if (opts.outbox) {
        relayTimer = setInterval(() => void relayOrphans(), opts.relayIntervalMs ?? 10_000);
        void relayOrphans();
      }
    },

    async stop(): Promise<void> {
      clearInterval(relayTimer);
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

    within(tx) {
      if (!opts.outbox) throw new Error("jobs enqueued in a transaction need the outbox database (RedisQueueOptions.outbox)");
      const txSql = sqlFor(tx as PrismaClient);
      const written: OutboxRow[] = [];
      const joined: TransactionJobs = {
        ...queue,
        async enqueue(name, payload, options = {}) {
          const id = await insertJob(txSql, name, payload, options);
          const backoff = options.backoff ?? DEFAULT_BACKOFF;
          written.push({ id, name, payload, runAt: options.runAt ?? new Date(), maxAttempts: options.attempts ?? DEFAULT_ATTEMPTS, backoff });
          return id;
        },
        within: () => joined,
        async committed() {
          // the rows are committed: a failure here leaves them to a worker's relay
          if (written.length) await relay(written).catch((error) => log(`outbox relay failed: ${(error as Error).message}`));
        },
      };
      return joined;
    },
  };
  return queue;
}
