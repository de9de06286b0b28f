// Background jobs of polls (filled in by the statuses issue).
import type { JobDefinition } from "../../jobs/registry.ts";

export const pollJobs: JobDefinition[] = [];
