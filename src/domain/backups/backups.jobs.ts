// Background jobs of account backups.
import type { JobDefinition } from "../../jobs/registry.ts";
import { BACKUP_JOB, buildBackup } from "./backups.ops.ts";

export const backupJobs: JobDefinition[] = [
  {
    name: BACKUP_JOB,
    handler: (services) => async (payload: { backupId: string }) => {
      await buildBackup(services, payload.backupId);
    },
  },
];
