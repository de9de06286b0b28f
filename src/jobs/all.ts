// Every job definition of the server, registered by src/server.ts before the queue starts.
import { accountJobs } from "../domain/accounts/accounts.jobs.ts";
import { relationshipJobs } from "../domain/relationships/relationships.jobs.ts";
import type { JobDefinition } from "./registry.ts";

export const allJobs: readonly JobDefinition[] = [...accountJobs, ...relationshipJobs];
