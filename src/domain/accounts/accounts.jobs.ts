// Background jobs of the accounts area (filled in by the accounts issue).
import type { JobDefinition } from "../../jobs/registry.ts";

export const accountJobs: JobDefinition[] = [];
