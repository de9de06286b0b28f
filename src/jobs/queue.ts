// The job queue seen by domain operations: named handlers, durable jobs, retries with backoff.
// Two engines implement it: the database (default) and BullMQ on Redis (when REDIS_URL is set).
import type { Prisma } from "../generated/prisma/client.ts";
export interface Backoff {
  type: "fixed" | "exponential";
  /** milliseconds; exponential doubles it per attempt */
  delay: number;
}

export interface JobOptions {
  /** run no earlier than this */
  runAt?: Date;
  /** total tries before the job is marked failed (default 5) */
  attempts?: number;
  backoff?: Backoff;
}

export interface JobInfo {
  id: string;
  name: string;
  /** 1 on the first try */
  attempt: number;
}

export type JobHandler = (payload: any, job: JobInfo) => Promise<void>;

export interface JobQueue {
  readonly engine: "database" | "redis";
  /** Stores the job durably and returns its id. */
  enqueue(name: string, payload: unknown, opts?: JobOptions): Promise<string>;
  /** Registers the handler for jobs called `name`; register all handlers before start(). */
  register(name: string, handler: JobHandler): void;
  /** Starts processing (a no-op for processes that only enqueue). */
  start(): Promise<void>;
  /** Stops taking new jobs and waits for running ones to finish. */
  stop(): Promise<void>;
  /** Counts by state, for the healthcheck's job_queue_stats. */
  stats(): Promise<Record<string, number>>;
  /**
   * This queue inside the open transaction `tx` (the transactional outbox): a job enqueued through the
   * answer is a row written by `tx`, so it exists exactly when the transaction commits, whatever
   * happens to the process. Call `committed()` once `tx` has committed: it starts the jobs at once
   * (without it they still run, a little later). Enqueueing through the answer's own `within` joins `tx`.
   */
  within(tx: Prisma.TransactionClient): TransactionJobs;
}

/** A queue whose jobs commit with a transaction (`JobQueue.within`). */
export interface TransactionJobs extends JobQueue {
  /** the transaction committed: run (or hand over) its jobs now; never throws */
  committed(): Promise<void>;
}
