// Background jobs of the relationships area: mute expiry, imports, moving followers.
import { systemCtx } from "../context.ts";
import type { JobDefinition } from "../../jobs/registry.ts";
import { expireMutes } from "./blocks-mutes.ops.ts";
import { runImport, type ImportPayload } from "./imports.ops.ts";
import { moveFollowers } from "./move.ops.ts";
import { EXPIRE_MUTE_JOB, IMPORT_JOB, MOVE_FOLLOWERS_JOB } from "./relationships.job-names.ts";

export { EXPIRE_MUTE_JOB, IMPORT_JOB, MOVE_FOLLOWERS_JOB };

export const relationshipJobs: JobDefinition[] = [
  { name: EXPIRE_MUTE_JOB, handler: (services) => (payload: { sourceId: string; targetId: string }) => expireMutes(systemCtx(services), payload) },
  {
    name: IMPORT_JOB,
    handler: (services) => async (payload: ImportPayload) => {
      await runImport(systemCtx(services), payload);
    },
  },
  { name: MOVE_FOLLOWERS_JOB, handler: (services) => (payload: { originId: string; targetId: string }) => moveFollowers(systemCtx(services), payload) },
];
