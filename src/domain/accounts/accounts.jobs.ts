// Background jobs of the accounts area.
import type { JobDefinition } from "../../jobs/registry.ts";
import { DELETE_ACCOUNT_JOB, purgeAccount } from "./account-actions.ops.ts";

export const accountJobs: JobDefinition[] = [
  {
    // queued by POST /api/ext/delete_account once the account is deactivated
    name: DELETE_ACCOUNT_JOB,
    handler: (services) => async (payload: { accountId: string }) => {
      await purgeAccount(services, payload.accountId);
    },
  },
];
