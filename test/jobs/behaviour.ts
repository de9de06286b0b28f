// Behaviour every JobQueue engine must show; each engine's test file runs it against a real backend.
import { afterEach, expect, it } from "vitest";
import type { JobInfo, JobQueue } from "../../src/jobs/queue.ts";
import { sleep } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

export interface JobView {
  state: "pending" | "running" | "done" | "failed";
  /** tries started */
  attempts: number;
  lastError: string | null;
}

export interface EngineUnderTest {
  /** a new, not yet started queue on the shared backend */
  make(): { queue: JobQueue; inspect(id: string): Promise<JobView> };
}

export function queueBehaviour(engine: () => EngineUnderTest): void {
  const started: JobQueue[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((q) => q.stop()));
  });
  function make() {
    const made = engine().make();
    started.push(made.queue);
    return made;
  }

  it("runs the handler with the payload and marks the job done", async () => {
    const { queue, inspect } = make();
    const seen: { payload: unknown; job: JobInfo }[] = [];
    queue.register("echo", async (payload, job) => void seen.push({ payload, job }));
    await queue.start();
    const id = await queue.enqueue("echo", { text: "héllo", n: 1, list: [1, 2] });
    await waitFor(() => seen.length === 1, "handler", { timeoutMs: 10_000 });
    expect(seen[0]).toEqual({ payload: { text: "héllo", n: 1, list: [1, 2] }, job: { id, name: "echo", attempt: 1 } });
    await waitFor(async () => (await inspect(id)).state === "done", "state done", { timeoutMs: 10_000 });
    expect((await inspect(id)).attempts).toBe(1);
    expect((await queue.stats()).done).toBeGreaterThanOrEqual(1);
  });

  it("retries with backoff after a thrown error, then succeeds", async () => {
    const { queue, inspect } = make();
    const tries: { attempt: number; at: number }[] = [];
    queue.register("flaky", async (_payload, job) => {
      tries.push({ attempt: job.attempt, at: Date.now() });
      if (job.attempt === 1) throw new Error("first try fails");
    });
    await queue.start();
    const id = await queue.enqueue("flaky", {}, { attempts: 3, backoff: { type: "fixed", delay: 400 } });
    await waitFor(async () => (await inspect(id)).state === "done", "state done", { timeoutMs: 10_000 });
    expect(tries.map((t) => t.attempt)).toEqual([1, 2]);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(350); // the backoff was waited out
    const view = await inspect(id);
    expect(view.attempts).toBe(2);
  });

  it("marks the job failed with the last error after maxAttempts", async () => {
    const { queue, inspect } = make();
    let calls = 0;
    queue.register("doomed", async (_payload, job) => {
      calls++;
      throw new Error(`boom on try ${job.attempt}`);
    });
    await queue.start();
    const id = await queue.enqueue("doomed", {}, { attempts: 2, backoff: { type: "exponential", delay: 50 } });
    await waitFor(async () => (await inspect(id)).state === "failed", "state failed", { timeoutMs: 10_000 });
    const view = await inspect(id);
    expect(view.attempts).toBe(2);
    expect(view.lastError).toContain("boom on try 2");
    // time is the behaviour: a third try would follow the backoff (100 ms) and a poll; failed is final
    await sleep(300);
    expect(calls).toBe(2); // no third try
  });

  it("does not run a job before its runAt", async () => {
    const { queue, inspect } = make();
    let ranAt = 0;
    queue.register("later", async () => void (ranAt = Date.now()));
    await queue.start();
    const runAt = new Date(Date.now() + 1200);
    const id = await queue.enqueue("later", {}, { runAt });
    // still waiting right after the enqueue; that it never ran early is shown by when it ran, below
    expect(ranAt).toBe(0);
    expect((await inspect(id)).state).toBe("pending");
    await waitFor(() => ranAt, "delayed job", { timeoutMs: 10_000 });
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 25); // small allowance for clock rounding
  });
}
