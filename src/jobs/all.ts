// Every job definition of the server, registered by src/server.ts before the queue starts.
import { accountJobs } from "../domain/accounts/accounts.jobs.ts";
import { backupJobs } from "../domain/backups/backups.jobs.ts";
import { instanceJobs } from "../domain/instances/instances.jobs.ts";
import { relationshipJobs } from "../domain/relationships/relationships.jobs.ts";
import { pollJobs } from "../domain/polls/polls.jobs.ts";
import { pushJobs } from "../domain/push/push.jobs.ts";
import { statusJobs } from "../domain/statuses/statuses.jobs.ts";
import { federationAdapterJobs } from "../federation/lazy.ts";
import { taskJobs } from "../domain/tasks/tasks.jobs.ts";
import type { JobDefinition } from "./registry.ts";

export const allJobs: readonly JobDefinition[] = [...accountJobs, ...relationshipJobs, ...statusJobs, ...pollJobs, ...backupJobs, ...instanceJobs, ...pushJobs, ...federationAdapterJobs, ...taskJobs];
