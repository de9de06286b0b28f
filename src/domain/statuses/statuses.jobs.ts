// Background jobs of statuses: expiry (deleted at `expires_at`) and publishing scheduled statuses.
import type { JobDefinition } from "../../jobs/registry.ts";
import { ALL_SCOPES, makeCtx, systemCtx } from "../context.ts";
import { deleteStatus, postStatus, type PostInput } from "./statuses.ops.ts";
import { EXPIRE_STATUS_JOB, PUBLISH_SCHEDULED_JOB } from "./statuses.job-names.ts";

export const statusJobs: JobDefinition[] = [
  {
    name: EXPIRE_STATUS_JOB,
    handler: (services) => async (payload: { statusId: string }) => {
      const ctx = systemCtx(services);
      const status = await ctx.db.status.findUnique({ where: { id: payload.statusId } });
      if (!status?.expiresAt || status.expiresAt > ctx.clock()) return; // gone, or its expiry moved
      await deleteStatus(ctx, { id: status.id });
    },
  },
  {
    name: PUBLISH_SCHEDULED_JOB,
    handler: (services) => async (payload: { id: string; scheduledAt: string }) => {
      const scheduled = await services.db.scheduledStatus.findUnique({ where: { id: payload.id }, include: { account: true } });
      // deleted, or rescheduled (a newer job carries the new time)
      if (!scheduled || scheduled.scheduledAt.toISOString() !== payload.scheduledAt || scheduled.account.deactivated) return;
      const ctx = makeCtx(services, { account: scheduled.account, app: null, scopes: ALL_SCOPES, via: "session" });
      await postStatus(ctx, { ...(scheduled.params as PostInput), media_ids: scheduled.mediaIds, idempotency_key: `scheduled:${scheduled.id}` });
      await services.db.scheduledStatus.deleteMany({ where: { id: scheduled.id } });
    },
  },
];
