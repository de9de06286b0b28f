// The default job engine: rows in the `jobs` table, claimed with UPDATE … FOR UPDATE SKIP LOCKED so
// any number of processes can share one PostgreSQL. A claim is a lease (locked_by/locked_until):
// a heartbeat extends it while the handler runs, and a lease that expires (the process died) makes
// the job claimable again.
//
// Times that processes compare (run_at, locked_until) are always computed from the database clock.
// The columns are `timestamp(3)` without time zone holding UTC (Prisma's convention), while now() is
// timestamptz; `now() AT TIME ZONE 'UTC'` compares like with like whatever the session TimeZone is.
//
// No interactive transaction is ever held across a handler: PGlite is one connection per process,
// and a long handler would otherwise block every other query.
import os from "node:os";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { newId } from "../db/ids.ts";
import { sqlFor, type Sql } from "../db/sql.ts";
import type { Backoff, JobHandler, JobInfo, JobOptions, JobQueue, TransactionJobs } from "./queue.ts";

export interface DatabaseQueueOptions {
  /** identifies this process in locked_by; unique per process */
  workerId?: string;
  /** how often to look for due jobs (default 1000 ms); an enqueue in this process also wakes it */
  pollIntervalMs?: number;
  /** how long a claim lasts without a heartbeat (default 30 000 ms) */
  leaseMs?: number;
  /** handlers running at once in this process (default 5) */
  concurrency?: number;
  log?: (msg: string) => void;
}

interface ClaimedJob {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  backoff: Backoff;
}

export const DEFAULT_BACKOFF: Backoff = { type: "exponential", delay: 1000 };
export const DEFAULT_ATTEMPTS = 5;
/** How often finished jobs are pruned (by whichever process polls). */
const PRUNE_EVERY_MS = 5 * 60 * 1000;

/** Delay before try `attempt + 1` after try `attempt` (1-based) failed. */
export function backoffDelay(backoff: Backoff, attempt: number): number {
  return backoff.type === "fixed" ? backoff.delay : backoff.delay * 2 ** (attempt - 1);
}

export function createDatabaseQueue(prisma: PrismaClient, opts: DatabaseQueueOptions = {}): JobQueue {
  const workerId = opts.workerId ?? `${os.hostname()}:${process.pid}:${newId().slice(-6)}`;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 30_000;
  const concurrency = opts.concurrency ?? 5;
  const log = opts.log ?? ((msg: string) => console.error(`[jobs] ${msg}`));
  const sql = sqlFor(prisma); // these statements run several times per job: straight to the driver

  const handlers = new Map<string, JobHandler>();
  const running = new Map<string, Promise<void>>();
  let started = false;
  let stopping = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  let lastSweep = 0;
  let lastPrune = 0;

  // Serialises polls: a wake during a poll schedules exactly one more.
  function wake(): void {
    if (!started || stopping) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = poll().finally(() => {
      polling = undefined;
      if (pollAgain) {
        pollAgain = false;
        wake();
      }
    });
  }

  async function poll(): Promise<void> {
    const free = concurrency - running.size;
    if (free <= 0) return;
    const names = [...handlers.keys()];
    try {
      // polls follow every finished job (a backlog drains at once); the sweep of abandoned final
      // tries need not: once per poll interval keeps a busy queue at one statement per claim
      if (Date.now() - lastSweep >= pollIntervalMs) {
        lastSweep = Date.now();
        await failAbandonedFinalAttempts(names);
      }
      if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await pruneFinished();
      }
      const jobs = await sql.query<ClaimedJob>(
        `UPDATE jobs
        SET state = 'running', attempts = attempts + 1, locked_by = $1,
            locked_until = (now() AT TIME ZONE 'UTC') + $2::double precision * interval '1 millisecond'
        WHERE id IN (
          SELECT id FROM jobs
          WHERE name = ANY($3::text[])
            AND ((state = 'pending' AND run_at <= (now() AT TIME ZONE 'UTC'))
              OR (state = 'running' AND locked_until < (now() AT TIME ZONE 'UTC') AND attempts < max_attempts))
          ORDER BY run_at
          LIMIT $4::int
          FOR UPDATE SKIP LOCKED)
        RETURNING id, name, payload, attempts, max_attempts AS "maxAttempts", backoff`,
        [workerId, leaseMs, names, free],
      );
      for (const job of jobs) run(job); // each finished job wakes the loop again, so a backlog drains quickly
    } catch (err) {
      log(`poll failed: ${errorText(err)}`);
    }
  }

  // Finished jobs are history, not state: done ones go after an hour, failed ones after a week, so the
  // table stays small and payloads (queued deliveries carry the sender's private key) do not linger.
  async function pruneFinished(): Promise<void> {
    await prisma.$executeRaw`
      DELETE FROM jobs
      WHERE (state = 'done' AND finished_at < (now() AT TIME ZONE 'UTC') - interval '1 hour')
         OR (state = 'failed' AND finished_at < (now() AT TIME ZONE 'UTC') - interval '7 days')`;
  }

  // A worker that died during the last allowed try must not get the job re-run forever
  // (a job that crashes its process would otherwise loop): those rows are failed instead.
  async function failAbandonedFinalAttempts(names: string[]): Promise<void> {
    await prisma.$executeRaw`
      UPDATE jobs
      SET state = 'failed', finished_at = (now() AT TIME ZONE 'UTC'), locked_by = NULL, locked_until = NULL,
          last_error = 'lease expired during the final attempt (worker died?)'
      WHERE state = 'running' AND locked_until < (now() AT TIME ZONE 'UTC')
        AND attempts >= max_attempts AND name = ANY(${names}::text[])`;
  }

  function run(job: ClaimedJob): void {
    const info: JobInfo = { id: job.id, name: job.name, attempt: job.attempts };
    const task = (async () => {
      try {
        const handler = handlers.get(job.name);
        if (!handler) throw new Error(`no handler registered for ${job.name}`);
        await handler(job.payload, info);
      } catch (err) {
        await settleFailure(job, err);
        return;
      }
      await settleSuccess(job);
    })()
      .catch((err) => log(`could not record the outcome of job ${job.id}: ${errorText(err)}`))
      .finally(() => {
        running.delete(job.id);
        wake();
      });
    running.set(job.id, task);
  }

  // Both settle* only touch the row while this worker still holds this try's lease: if the lease
  // expired and another worker took the job, that worker owns the outcome.
  //
  // Successes are recorded in groups: while one UPDATE is under way, the jobs finishing meanwhile wait
  // for the next, so a busy queue spends one statement on many jobs (an idle one still records each at
  // once). A job keeps its slot (and its lease heartbeat) until its outcome is written.
  let finished: { job: ClaimedJob; recorded: () => void }[] = [];
  let recording = false;

  function settleSuccess(job: ClaimedJob): Promise<void> {
    return new Promise((recorded) => {
      finished.push({ job, recorded });
      if (!recording) void recordFinished();
    });
  }

  async function recordFinished(): Promise<void> {
    recording = true;
    try {
      while (finished.length) {
        const batch = finished;
        finished = [];
        try {
          const rows = await sql.query<{ id: string }>(
            `UPDATE jobs
            SET state = 'done', finished_at = (now() AT TIME ZONE 'UTC'), locked_by = NULL, locked_until = NULL
            FROM unnest($1::text[], $2::int[]) AS f(id, attempts)
            WHERE jobs.id = f.id AND jobs.attempts = f.attempts AND jobs.state = 'running' AND jobs.locked_by = $3
            RETURNING jobs.id`,
            [batch.map((b) => b.job.id), batch.map((b) => b.job.attempts), workerId],
          );
          const recorded = new Set(rows.map((r) => r.id));
          for (const { job } of batch) if (!recorded.has(job.id)) log(`job ${job.id} finished after its lease was lost; outcome left to the new owner`);
        } catch (err) {
          // the lease runs out and another try follows: handlers are idempotent
          log(`could not record ${batch.length} finished job(s): ${errorText(err)}`);
        }
        for (const { recorded } of batch) recorded();
      }
    } finally {
      recording = false;
    }
  }

  async function settleFailure(job: ClaimedJob, err: unknown): Promise<void> {
    const retry = job.attempts < job.maxAttempts;
    const delay = retry ? backoffDelay(job.backoff ?? DEFAULT_BACKOFF, job.attempts) : 0;
    const n = await sql.execute(
      `UPDATE jobs
      SET state = $1::"JobState",
          run_at = CASE WHEN $2::boolean THEN (now() AT TIME ZONE 'UTC') + $3::double precision * interval '1 millisecond' ELSE run_at END,
          finished_at = CASE WHEN $2::boolean THEN NULL ELSE (now() AT TIME ZONE 'UTC') END,
          last_error = $4, locked_by = NULL, locked_until = NULL
      WHERE id = $5 AND state = 'running' AND locked_by = $6 AND attempts = $7::int`,
      [retry ? "pending" : "failed", retry, delay, errorText(err).slice(0, 4000), job.id, workerId, job.attempts],
    );
    if (n === 0) log(`job ${job.id} failed after its lease was lost; outcome left to the new owner`);
    else if (!retry) log(`job ${job.id} (${job.name}) failed after ${job.attempts} attempts: ${errorText(err)}`);
  }

  async function heartbeat(): Promise<void> {
    if (running.size === 0) return;
    try {
      await sql.execute(
        `UPDATE jobs SET locked_until = (now() AT TIME ZONE 'UTC') + $1::double precision * interval '1 millisecond'
        WHERE id = ANY($2::text[]) AND state = 'running' AND locked_by = $3`,
        [leaseMs, [...running.keys()], workerId],
      );
    } catch (err) {
      log(`heartbeat failed: ${errorText(err)}`);
    }
  }

  const queue: JobQueue = {
    engine: "database",

    async enqueue(name: string, payload: unknown, options: JobOptions = {}): Promise<string> {
      const id = await insertJob(sql, name, payload, options);
      if (isDue(options)) wake();
      return id;
    },

    register(name: string, handler: JobHandler): void {
      handlers.set(name, handler);
    },

    async start(): Promise<void> {
      if (started || handlers.size === 0) return; // enqueue-only processes never poll
      started = true;
      stopping = false;
      pollTimer = setInterval(wake, pollIntervalMs);
      heartbeatTimer = setInterval(() => void heartbeat(), Math.max(10, Math.floor(leaseMs / 3)));
      wake();
    },

    async stop(): Promise<void> {
      if (!started) return;
      stopping = true;
      clearInterval(pollTimer);
      await polling;
      // keep heartbeating until the running handlers are done, or their jobs could be stolen
      await Promise.all(running.values());
      clearInterval(heartbeatTimer);
      started = false;
    },

    async stats(): Promise<Record<string, number>> {
      const rows = await prisma.$queryRaw<{ state: string; n: number }[]>`
        SELECT state::text AS state, count(*)::int AS n FROM jobs GROUP BY state`;
      const counts: Record<string, number> = { pending: 0, running: 0, done: 0, failed: 0 };
      for (const row of rows) counts[row.state] = Number(row.n);
      return counts;
    },

    within(tx) {
      // the row is the job: written by the transaction, claimable once it commits
      const txSql = sqlFor(tx as PrismaClient);
      let due = false;
      const joined: TransactionJobs = {
        ...queue,
        async enqueue(name, payload, options = {}) {
          const id = await insertJob(txSql, name, payload, options);
          due ||= isDue(options);
          return id;
        },
        within: () => joined,
        async committed() {
          if (due) wake(); // else the poll finds them when they are due
        },
      };
      return joined;
    },
  };
  return queue;
}

const isDue = (options: JobOptions) => !options.runAt || options.runAt.getTime() <= Date.now();

/**
 * Writes a pending job row through `sql` (the pool, or a transaction's client) and returns its id. Also
 * the Redis engine's outbox row (redis-queue.ts), which its relay hands to BullMQ.
 */
export async function insertJob(sql: Sql, name: string, payload: unknown, options: JobOptions = {}): Promise<string> {
  const id = newId();
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError("attempts must be a positive integer");
  const runAt = options.runAt?.toISOString() ?? null; // absent: the database's now
  await sql.execute(
    `INSERT INTO jobs (id, name, payload, state, run_at, attempts, max_attempts, backoff, created_at)
    VALUES ($1, $2, $3::jsonb, 'pending',
            COALESCE($4::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'), 0, $5::int,
            $6::jsonb, now() AT TIME ZONE 'UTC')`,
    [id, name, JSON.stringify(payload ?? null), runAt, attempts, JSON.stringify(options.backoff ?? DEFAULT_BACKOFF)],
  );
  return id;
}

function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
