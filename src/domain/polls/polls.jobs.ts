// Background jobs of polls: closing a poll at its expiry (enqueued durably when the status is posted).
import type { JobDefinition } from "../../jobs/registry.ts";
import { systemCtx } from "../context.ts";
import { CLOSE_POLL_JOB } from "../statuses/statuses.job-names.ts";
import { closePoll } from "./polls.ops.ts";

export const pollJobs: JobDefinition[] = [
  {
    name: CLOSE_POLL_JOB,
    handler: (services) => async (payload: { pollId: string }) => {
      await closePoll(systemCtx(services), payload.pollId);
    },
  },
];
