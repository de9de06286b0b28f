// Background jobs of remote resolution: refreshing stale remote accounts (scheduled by
// `refreshIfStale` in src/domain/federation/port.ts when a remote account is read).
import { systemCtx } from "../domain/context.ts";
import type { JobDefinition } from "../jobs/registry.ts";
import { REFRESH_ACCOUNT_JOB } from "./resolve.job-names.ts";

export const resolveJobs: JobDefinition[] = [
  {
    name: REFRESH_ACCOUNT_JOB,
    handler: (services) => async (payload: { accountId: string }) => {
      await services.federation?.refreshAccount(systemCtx(services), payload.accountId);
    },
  },
];
