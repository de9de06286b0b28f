// Background jobs of the relationships area (filled in by the accounts issue).
import type { JobDefinition } from "../../jobs/registry.ts";

export const relationshipJobs: JobDefinition[] = [];
