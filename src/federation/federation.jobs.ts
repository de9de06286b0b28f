// Fedify's queued tasks (inbox activities, fan-outs, deliveries) run as our durable jobs.
import type { JobDefinition } from "../jobs/registry.ts";
import { withGuard } from "../net/outbound.ts";
import { deliveryRefused } from "./delivery-policy.ts";
import { federationFor } from "./federation.ts";
import { FEDERATION_TASK_JOB } from "./message-queue.ts";
import { runFederationTask } from "./outbox/task.ts";

export const federationJobs: JobDefinition[] = [
  {
    name: FEDERATION_TASK_JOB,
    // deliveries also record the instance's health (outbox/task.ts)
    handler: (services) => async (payload) => {
      // no delivery to servers the instance refuses (delivery-policy.ts)
      if (deliveryRefused(services, payload)) return;
      await withGuard(services, () => runFederationTask(services, payload, () => federationFor(services).processQueuedTask(services, payload)));
    },
  },
];
