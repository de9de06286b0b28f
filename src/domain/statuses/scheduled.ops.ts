// The signed-in account's scheduled statuses: list, show, reschedule, cancel. Posting with
// `scheduled_at` (statuses.ops.ts) creates them; the publish job (statuses.jobs.ts) turns them into
// statuses and ignores jobs whose `scheduledAt` no longer matches the row, so rescheduling is
// "update the row, enqueue a new job" and cancelling is "delete the row".
import { z } from "zod";
import type { MediaAttachment, ScheduledStatus } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Unprocessable } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { ownRow } from "../own-row.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { PUBLISH_SCHEDULED_JOB } from "./statuses.job-names.ts";
import { inTransaction } from "../transaction.ts";

/** A scheduled status must be at least this far in the future (as when posting). */
const MIN_SCHEDULE_MS = 5 * 60 * 1000;

export interface ScheduledWithMedia {
  scheduled: ScheduledStatus;
  media: MediaAttachment[];
}

/** The media of each scheduled status, in its `mediaIds` order, in one query. */
export async function scheduledWithMedia(ctx: Ctx, rows: ScheduledStatus[]): Promise<ScheduledWithMedia[]> {
  const ids = [...new Set(rows.flatMap((r) => r.mediaIds))];
  const media = ids.length ? await ctx.db.mediaAttachment.findMany({ where: { id: { in: ids } } }) : [];
  const byId = new Map(media.map((m) => [m.id, m]));
  return rows.map((scheduled) => ({ scheduled, media: scheduled.mediaIds.map((id) => byId.get(id)).filter((m): m is MediaAttachment => !!m) }));
}

/** One of the viewer's scheduled statuses, or 404 (another account's are not found either). */
function ownScheduled(ctx: Ctx, id: string): Promise<ScheduledStatus> {
  return ownRow(ctx, (accountId) => ctx.db.scheduledStatus.findFirst({ where: { id, accountId } }));
}

export const listScheduledStatuses = operation({
  name: "scheduledStatuses.list",
  access: { scopes: ["read:statuses"] },
  input: pageInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<ScheduledWithMedia>> {
    const me = requireAccount(ctx);
    const page = keyset(input);
    const rows = await ctx.db.scheduledStatus.findMany({
      where: { accountId: me.id, ...(page.cursor ? { id: page.cursor } : {}) },
      orderBy: { id: page.order },
      take: page.take,
    });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: await scheduledWithMedia(ctx, result.items) };
  },
});

export const showScheduledStatus = operation({
  name: "scheduledStatuses.show",
  access: { scopes: ["read:statuses"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<ScheduledWithMedia> {
    return (await scheduledWithMedia(ctx, [await ownScheduled(ctx, input.id)]))[0];
  },
});

export const rescheduleStatus = operation({
  name: "scheduledStatuses.reschedule",
  access: { scopes: ["write:statuses"] },
  input: z.object({ id: z.string(), scheduled_at: z.iso.datetime({ offset: true }) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<ScheduledWithMedia> {
    const row = await ownScheduled(ctx, input.id);
    const at = new Date(input.scheduled_at);
    if (at.getTime() - ctx.clock().getTime() < MIN_SCHEDULE_MS) throw Unprocessable("Validation failed: Scheduled at must be at least 5 minutes in the future", { scheduled_at: "is too soon" });
    // the new time and its job commit together (src/domain/transaction.ts); the job already queued
    // carries the old time and will do nothing
    const updated = await inTransaction(ctx, async (tx) => {
      const updated = await tx.db.scheduledStatus.update({ where: { id: row.id }, data: { scheduledAt: at } });
      await tx.jobs.enqueue(PUBLISH_SCHEDULED_JOB, { id: updated.id, scheduledAt: at.toISOString() }, { runAt: at });
      return updated;
    });
    return (await scheduledWithMedia(ctx, [updated]))[0];
  },
});

export const cancelScheduledStatus = operation({
  name: "scheduledStatuses.cancel",
  access: { scopes: ["write:statuses"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const row = await ownScheduled(ctx, input.id);
    // its publish job finds no row and does nothing; uploads stay the owner's, unattached
    await ctx.db.scheduledStatus.deleteMany({ where: { id: row.id } });
  },
});
