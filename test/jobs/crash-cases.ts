// "A job scheduled, the process killed and restarted, the job still runs once" for the database engine,
// with real processes (test/jobs/fixtures/worker.ts). Used for PostgreSQL and for a PGlite directory.
// A PGlite directory is opened by one process at a time, so the first process is always dead before
// the second starts — which is exactly the restart scenario.
import path from "node:path";
import { expect, it } from "vitest";
import type { WorkerProcess } from "./helpers.ts";
import { readLines, spawnWorker } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

interface JobRow {
  id: string;
  state: string;
  attempts: number;
  lockedBy: string | null;
}

/** Stops the restarted worker and returns the row it left behind. */
async function stopAndReadRow(worker: WorkerProcess, id: string): Promise<JobRow | undefined> {
  await worker.sentinel(); // a duplicate run would have started by now
  expect(await worker.stop()).toBe(0);
  const jobs = await worker.message<JobRow[]>("jobs");
  return jobs.find((j) => j.id === id);
}

export function databaseCrashCases(url: () => string, dir: () => string): void {
  const base = () => ({ engine: "database" as const, url: url(), pollIntervalMs: 100, leaseMs: 1000 });

  it("runs a job once after the process that scheduled it was killed before it was due", async () => {
    const file = path.join(dir(), "before.log");
    const first = spawnWorker({ ...base(), workerId: "w1", enqueueInMs: 2000, file });
    const id = await first.message<string>("enqueued");
    await first.kill();
    expect(readLines(file)).toEqual([]);

    const second = spawnWorker({ ...base(), workerId: "w2", migrate: false, sentinelFile: path.join(dir(), "sentinel.log") });
    await waitFor(() => readLines(file).some((l) => l.startsWith("done")), "the job to run", { timeoutMs: 40_000 });
    expect(await stopAndReadRow(second, id)).toMatchObject({ state: "done", attempts: 1, lockedBy: null });
    expect(readLines(file)).toEqual(["start 1 w2", "done 1 w2"]);
  });

  it("re-runs a job once when its process was killed while the handler ran", async () => {
    const file = path.join(dir(), "during.log");
    const first = spawnWorker({ ...base(), workerId: "w1", enqueueInMs: 0, file, hang: true });
    const id = await first.message<string>("enqueued");
    await waitFor(() => readLines(file).includes("start 1 w1"), "the handler to start", { timeoutMs: 30_000 });
    await first.kill();

    const second = spawnWorker({ ...base(), workerId: "w2", migrate: false, sentinelFile: path.join(dir(), "sentinel.log") });
    await waitFor(() => readLines(file).some((l) => l.startsWith("done")), "the job to run again", { timeoutMs: 40_000 });
    expect(await stopAndReadRow(second, id)).toMatchObject({ state: "done", attempts: 2, lockedBy: null });
    expect(readLines(file)).toEqual(["start 1 w1", "start 2 w2", "done 2 w2"]);
  });
}
