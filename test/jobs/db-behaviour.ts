// Database-engine specifics (claiming, leases, heartbeats), run against PGlite and PostgreSQL.
import { afterEach, expect, it } from "vitest";
import type { PrismaClient } from "../../src/generated/prisma/client.ts";
import { backoffDelay, createDatabaseQueue, type DatabaseQueueOptions } from "../../src/jobs/db-queue.ts";
import type { JobQueue } from "../../src/jobs/queue.ts";
import { newId } from "../../src/db/ids.ts";
import type { EngineUnderTest, JobView } from "./behaviour.ts";
import { sleep } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

export function databaseEngine(prisma: () => PrismaClient): EngineUnderTest {
  return {
    make: () => ({ queue: createDatabaseQueue(prisma(), { pollIntervalMs: 50, leaseMs: 2000, log: () => {} }), inspect: (id) => inspectJob(prisma(), id) }),
  };
}

export async function inspectJob(prisma: PrismaClient, id: string): Promise<JobView & { lockedBy: string | null }> {
  const row = await prisma.job.findUniqueOrThrow({ where: { id } });
  return { state: row.state, attempts: row.attempts, lastError: row.lastError, lockedBy: row.lockedBy };
}

/** A row as a worker that died mid-run leaves it: running, lease already expired. */
async function insertAbandoned(prisma: PrismaClient, name: string, attempts: number, maxAttempts: number): Promise<string> {
  const id = newId();
  await prisma.$executeRaw`
    INSERT INTO jobs (id, name, payload, state, run_at, attempts, max_attempts, locked_by, locked_until)
    VALUES (${id}, ${name}, '{}'::jsonb, 'running', now() AT TIME ZONE 'UTC', ${attempts}::int, ${maxAttempts}::int,
            'dead-worker', (now() AT TIME ZONE 'UTC') - interval '1 second')`;
  return id;
}

export function databaseBehaviour(prismaOf: () => PrismaClient): void {
  const queues: JobQueue[] = [];
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop()));
  });
  function make(opts: DatabaseQueueOptions = {}): JobQueue {
    const q = createDatabaseQueue(prismaOf(), { pollIntervalMs: 50, leaseMs: 2000, log: () => {}, ...opts });
    queues.push(q);
    return q;
  }

  it("computes fixed and exponential backoff", () => {
    expect([1, 2, 3].map((a) => backoffDelay({ type: "fixed", delay: 100 }, a))).toEqual([100, 100, 100]);
    expect([1, 2, 3].map((a) => backoffDelay({ type: "exponential", delay: 100 }, a))).toEqual([100, 200, 400]);
  });

  it("claims only jobs it has a handler for", async () => {
    const q = make();
    let ran = 0;
    q.register("mine", async () => void ran++);
    await q.start();
    const theirs = await q.enqueue("theirs-" + newId(), {});
    const mine = await q.enqueue("mine", {});
    await waitFor(async () => (await inspectJob(prismaOf(), mine)).state === "done", "the job to be done", { timeoutMs: 10_000 });
    // a sentinel: claims go by run_at, so a worker that claimed other names would take theirs before this one
    const sentinel = await q.enqueue("mine", {});
    await waitFor(async () => (await inspectJob(prismaOf(), sentinel)).state === "done", "the sentinel job to be done", { timeoutMs: 10_000 });
    expect(await inspectJob(prismaOf(), theirs)).toMatchObject({ state: "pending", attempts: 0 });
  });

  it("wakes up at once after an enqueue in the same process", async () => {
    const q = make({ pollIntervalMs: 60_000 });
    let ranAt = 0;
    q.register("prompt", async () => void (ranAt = Date.now()));
    await q.start();
    // time is the behaviour: the first poll (at start) has passed, and the next is 60 s away
    await sleep(100);
    const t0 = Date.now();
    await q.enqueue("prompt", {});
    await waitFor(() => ranAt, "prompt job", { timeoutMs: 5000 });
    expect(ranAt - t0).toBeLessThan(3000); // far below the 60 s poll interval
  });

  it("re-runs a job whose worker died (lease expired) and completes it", async () => {
    const name = "abandoned-" + newId();
    const id = await insertAbandoned(prismaOf(), name, 1, 5);
    const q = make();
    const attempts: number[] = [];
    q.register(name, async (_p, job) => void attempts.push(job.attempt));
    await q.start();
    await waitFor(async () => (await inspectJob(prismaOf(), id)).state === "done", "the job to be done", { timeoutMs: 10_000 });
    expect(attempts).toEqual([2]);
    expect(await inspectJob(prismaOf(), id)).toMatchObject({ attempts: 2, lockedBy: null });
  });

  it("fails a job whose worker died during its final attempt instead of running it again", async () => {
    const name = "abandoned-last-" + newId();
    const id = await insertAbandoned(prismaOf(), name, 2, 2);
    const q = make();
    let ran = 0;
    q.register(name, async () => void ran++);
    await q.start();
    await waitFor(async () => (await inspectJob(prismaOf(), id)).state === "failed", "the job to fail", { timeoutMs: 10_000 });
    expect(ran).toBe(0);
    expect((await inspectJob(prismaOf(), id)).lastError).toContain("lease expired");
  });

  it("heartbeats keep a long job's lease, so a second worker does not steal it", async () => {
    const name = "slow-" + newId();
    let calls = 0;
    for (const workerId of ["hb-a", "hb-b"]) {
      const q = make({ workerId, leaseMs: 500, pollIntervalMs: 30 });
      q.register(name, async () => {
        calls++;
        await sleep(1500); // time is the behaviour: a job three leases long
      });
      await q.start();
    }
    const id = await queues[0]!.enqueue(name, {});
    await waitFor(async () => (await inspectJob(prismaOf(), id)).state === "done", "the job to be done", { timeoutMs: 10_000 });
    expect(calls).toBe(1);
    expect((await inspectJob(prismaOf(), id)).attempts).toBe(1);
  });

  it("does not record an outcome after its lease was taken over by another worker", async () => {
    const name = "stolen-" + newId();
    let release!: () => void;
    const q = make({ workerId: "original" });
    q.register(name, () => new Promise<void>((resolve) => (release = resolve)));
    await q.start();
    const id = await q.enqueue(name, {});
    await waitFor(() => release, "handler start", { timeoutMs: 3000 });
    // as if the lease had expired and another worker had claimed the job
    await prismaOf().job.update({ where: { id }, data: { lockedBy: "thief", attempts: { increment: 1 } } });
    release();
    await q.stop(); // waits for the handler and for its (refused) outcome write
    expect(await inspectJob(prismaOf(), id)).toMatchObject({ state: "running", lockedBy: "thief", attempts: 2 });
    await prismaOf().job.delete({ where: { id } }); // nobody will ever finish it
  });

  it("two workers on one database run each of 20 jobs exactly once", async () => {
    const name = "many-" + newId();
    const runs = new Map<string, string[]>();
    const inFlight = new Set<string>();
    let overlap = false;
    for (const workerId of ["worker-a", "worker-b"]) {
      const q = make({ workerId, pollIntervalMs: 20, concurrency: 3 });
      q.register(name, async (payload: { i: number }, job) => {
        if (inFlight.has(job.id)) overlap = true;
        inFlight.add(job.id);
        runs.set(job.id, [...(runs.get(job.id) ?? []), workerId]);
        await sleep(20 + (payload.i % 4) * 10); // time is the behaviour: jobs of unequal length overlap
        inFlight.delete(job.id);
      });
      await q.start();
    }
    // enqueued by a third, enqueue-only queue, so neither worker is favoured by the enqueue wake-up
    const producer = createDatabaseQueue(prismaOf());
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => producer.enqueue(name, { i })));
    await waitFor(async () => (await prismaOf().job.count({ where: { name, state: "done" } })) === 20, "20 done", { timeoutMs: 10_000 });
    expect(overlap).toBe(false);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((w) => w.length === 1)).toBe(true);
    const byWorker = new Set([...runs.values()].flat());
    expect(byWorker.size).toBe(2); // both took part
    const rows = await prismaOf().job.findMany({ where: { name } });
    expect(rows.every((r) => r.attempts === 1 && r.lockedBy === null && r.finishedAt)).toBe(true);
  });


  it("records jobs that finish together in one statement, each of them done", async () => {
    // the real client, watched: statements that record successes are counted
    let doneStatements = 0;
    const real = prismaOf();
    const watched = new Proxy(real, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        // a client the queue does not know goes through Prisma's raw calls (src/db/sql.ts)
        if (prop !== "$queryRaw" && prop !== "$queryRawUnsafe") return typeof value === "function" ? value.bind(target) : value;
        return (text: TemplateStringsArray | string, ...values: unknown[]) => {
          if ((typeof text === "string" ? text : text.join("?")).includes("SET state = 'done'")) doneStatements++;
          return (value as (...a: unknown[]) => unknown).call(target, text, ...values);
        };
      },
    });
    const name = "together-" + newId();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = createDatabaseQueue(watched, { pollIntervalMs: 20, leaseMs: 2000, concurrency: 10, log: () => {} });
    queues.push(q);
    let started = 0;
    q.register(name, async () => {
      started++;
      await gate;
    });
    const ids = await Promise.all(Array.from({ length: 10 }, () => q.enqueue(name, {})));
    await q.start();
    await waitFor(async () => started === 10, "10 running", { timeoutMs: 10_000 });
    release();
    await waitFor(async () => (await prismaOf().job.count({ where: { name, state: "done" } })) === 10, "10 done", { timeoutMs: 10_000 });
    expect(doneStatements).toBeGreaterThan(0);
    expect(doneStatements).toBeLessThanOrEqual(3); // one per job before
    const rows = await prismaOf().job.findMany({ where: { id: { in: ids } } });
    expect(rows.every((r) => r.state === "done" && r.attempts === 1 && r.lockedBy === null && r.lockedUntil === null && r.finishedAt)).toBe(true);
  });
  it("reports counts per state", async () => {
    const q = make();
    const stats = await q.stats();
    expect(Object.keys(stats).sort()).toEqual(["done", "failed", "pending", "running"]);
    const total = await prismaOf().job.count();
    expect(Object.values(stats).reduce((a, b) => a + b, 0)).toBe(total);
  });
}
