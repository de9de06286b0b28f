// Fedify's MessageQueue on our durable job queue (the database, or BullMQ with REDIS_URL): inbox
// activities, fan-outs and per-inbox deliveries become `federation.task` jobs, so they survive a
// restart and are shared by every process. Fedify keeps its own retry policy (nativeRetrial false):
// a failed delivery is re-enqueued by Fedify with its backoff, so a job is one try. The job runner
// calls `federation.processQueuedTask` (see federation.jobs.ts); `listen` is never used, because the
// queue is not started through Fedify (manuallyStartQueue).
import type { MessageQueue, MessageQueueEnqueueOptions } from "@fedify/fedify";
import type { JobQueue } from "../jobs/queue.ts";

export const FEDERATION_TASK_JOB = "federation.task";

/**
 * Tries per job: a task only fails as a job when its process died under it (Fedify handles delivery
 * failures itself), so a couple of tries recover from a crash without repeating real failures.
 */
const ATTEMPTS = 3;

export class JobMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  constructor(private readonly jobs: JobQueue) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    const delayMs = options?.delay ? Math.max(0, options.delay.total("millisecond")) : 0;
    await this.jobs.enqueue(FEDERATION_TASK_JOB, message, {
      runAt: delayMs > 0 ? new Date(Date.now() + delayMs) : undefined,
      attempts: ATTEMPTS,
      backoff: { type: "exponential", delay: 5_000 },
    });
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    for (const message of messages) await this.enqueue(message, options);
  }

  /** Not used: jobs are run by our queue's workers (see the note above). Resolves when aborted. */
  listen(_handler: (message: unknown) => Promise<void> | void, options?: { signal?: AbortSignal }): Promise<void> {
    return new Promise((resolve) => {
      if (!options?.signal) return resolve();
      if (options.signal.aborted) return resolve();
      options.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }
}
