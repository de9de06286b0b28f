// Background jobs of the admin area: purging a remote instance.
import type { JobDefinition } from "../../jobs/registry.ts";
import { PURGE_INSTANCE_JOB, purgeInstanceAccounts, type PurgeInstancePayload } from "./instances.ops.ts";

export const instanceJobs: JobDefinition[] = [
  {
    // queued by DELETE /api/v1/<ns>/admin/instances/:instance
    name: PURGE_INSTANCE_JOB,
    handler: (services) => async (payload: PurgeInstancePayload) => {
      await purgeInstanceAccounts(services, payload);
    },
  },
];
