// An action and its durable effects, committed together (the transactional outbox). Effects run after
// the action's commit were lost when the process died in between (kill -9, OOM, a power cut): the
// favourite stayed, its notification, push delivery or federation delivery never came, since nothing
// would ever look again. Inside `inTransaction` the context's `db` is the transaction and its `jobs`
// write their rows through it (`JobQueue.within`), so notifications and queued jobs (deliveries, push,
// expiries, …) exist exactly when the action does; the jobs then run, after a restart too.
//
// What must wait for the commit and need not survive a crash (bus events for live streams, cache drops)
// is registered with `afterCommit` and runs once the outermost transaction has committed.
import type { Db } from "../db/client.ts";
import type { TransactionJobs } from "../jobs/queue.ts";
import { makeCtx, type Ctx } from "./context.ts";

const OPEN = Symbol("open transaction");

interface Open {
  after: (() => void)[];
}

type TxCtx = Ctx & { [OPEN]?: Open };

/**
 * Runs `work` in one transaction with a context on it: every statement of the work must go through
 * `tx.db` (PGlite has a single connection) and every job it queues through `tx.jobs`. Called with a
 * context already in a transaction, it joins that one. A failed work stores and queues nothing.
 */
export async function inTransaction<T>(ctx: Ctx, work: (tx: Ctx) => Promise<T>): Promise<T> {
  if ((ctx as TxCtx)[OPEN]) return work(ctx);
  const open: Open = { after: [] };
  let jobs: TransactionJobs | undefined;
  const result = await ctx.db.$transaction(async (client) => {
    jobs = ctx.jobs.within(client);
    // fresh loaders: ones reading through the outer client would wait for the transaction's connection
    const tx = makeCtx({ ...ctx, db: client as unknown as Db, jobs, [OPEN]: open } as Ctx, ctx.viewer);
    return work(tx);
  });
  await jobs?.committed();
  for (const fn of open.after) fn();
  return result;
}

/**
 * Runs `fn` once `ctx`'s transaction has committed (at once outside a transaction); never for a rolled-back
 * one. `fn` must not use the transaction's `db` (it is closed by then): bus events and cache drops only.
 * Row-write announcements (src/db/row-writes.ts) need none of this: they wait for the commit themselves.
 */
export function afterCommit(ctx: Ctx, fn: () => void): void {
  const open = (ctx as TxCtx)[OPEN];
  if (open) open.after.push(fn);
  else fn();
}

/** Whether `ctx` works inside a transaction (its jobs commit with it). */
export const inOpenTransaction = (ctx: Ctx): boolean => !!(ctx as TxCtx)[OPEN];
