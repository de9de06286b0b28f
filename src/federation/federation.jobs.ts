// Fedify's queued tasks (inbox activities, fan-outs, deliveries) run as our durable jobs.
import type { JobDefinition } from "../jobs/registry.ts";
import { withGuard } from "../net/outbound.ts";
import { federationFor } from "./federation.ts";
import { FEDERATION_TASK_JOB } from "./message-queue.ts";

export const federationJobs: JobDefinition[] = [
  {
    name: FEDERATION_TASK_JOB,
    handler: (services) => (payload) => withGuard(services, () => federationFor(services).processQueuedTask(services, payload)),
  },
];
