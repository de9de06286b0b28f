// Job handlers are declared by their areas and registered on the queue before it starts.
import type { Services } from "../kernel/context.ts";
import type { JobHandler, JobQueue } from "./queue.ts";

export interface JobDefinition {
  name: string;
  /** builds the handler with the process's services (jobs run outside any request) */
  handler: (services: Services) => JobHandler;
}

export function registerJobs(jobs: JobQueue, services: Services, definitions: readonly JobDefinition[]) {
  for (const def of definitions) jobs.register(def.name, def.handler(services));
}
