// Status moderation (admin API `statuses`, `instances/:instance/statuses`): staff read statuses
// through their own queries ("godmode" shows every visibility) — never through visibility.ts, which
// stays the rule for everyone else — and change or delete them, each change in the moderation log.
import { z } from "zod";
import { storedHost } from "../../db/like.ts";
import type { Prisma, Status } from "../../generated/prisma/client.ts";
import { systemCtx, type Ctx } from "../context.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { bool, int } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { deleteStatus } from "./statuses.ops.ts";
import { offsetOf } from "../reports/admin-reports.ops.ts";
import { statusUpdated } from "./status-cache.ts";
import { statusCountsChanged } from "../accounts/account-counts.ts";

/** What `PUT /statuses/:id` may set, as the family allows. */
export const SETTABLE_VISIBILITIES = ["public", "private", "unlisted"] as const;

export interface AdminStatusFilter {
  /** every visibility; otherwise public and unlisted only */
  godmode?: boolean;
  /** reblogs are left out unless asked for */
  withReblogs?: boolean;
  localOnly?: boolean;
  /** statuses of this host's accounts; this server's own host means local statuses */
  instance?: string;
  accountId?: string;
}

/** The admin listings' filter (also for a user's statuses in the users area). */
export function adminStatusWhere(ctx: Ctx, f: AdminStatusFilter): Prisma.StatusWhereInput {
  const where: Prisma.StatusWhereInput = {};
  if (!f.godmode) where.visibility = { in: ["public", "unlisted"] };
  if (!f.withReblogs) where.reblogOfId = null;
  if (f.localOnly) where.local = true;
  if (f.accountId) where.accountId = f.accountId;
  if (f.instance !== undefined) {
    const host = f.instance.trim().toLowerCase();
    where.account = host === ctx.settings.domain.toLowerCase() ? { local: true } : { domain: storedHost(host) };
  }
  return where;
}

const listing = {
  page: int().optional(),
  page_size: int().optional(),
  offset: int().optional(),
  with_total: z.boolean().optional(),
  godmode: bool().optional(),
  with_reblogs: bool().optional(),
};

/** One page, newest first; the total only when asked (counting a large table is not free). */
export async function adminStatusPage(ctx: Ctx, where: Prisma.StatusWhereInput, input: { page?: number; page_size?: number; offset?: number; with_total?: boolean }) {
  const size = Math.max(input.page_size ?? 20, 1);
  const [total, items] = await Promise.all([
    input.with_total ? ctx.db.status.count({ where }) : Promise.resolve(null),
    ctx.db.status.findMany({ where, orderBy: { id: "desc" }, skip: offsetOf(input, size), take: size }),
  ]);
  return { total, items };
}


export const adminListStatuses = operation({
  name: "admin.statuses.list",
  access: { scopes: ["admin:read:statuses"], privilege: "messages_read" },
  input: z.object({ ...listing, local_only: bool().optional() }),
  run: (ctx, input) =>
    adminStatusPage(ctx, adminStatusWhere(ctx, { godmode: input.godmode, withReblogs: input.with_reblogs, localOnly: input.local_only }), input),
});

export const adminInstanceStatuses = operation({
  name: "admin.instances.statuses",
  access: { scopes: ["admin:read:statuses"], privilege: "messages_read" },
  input: z.object({ ...listing, instance: z.string() }),
  run: (ctx, input) =>
    adminStatusPage(ctx, adminStatusWhere(ctx, { godmode: input.godmode, withReblogs: input.with_reblogs, instance: input.instance }), { ...input, with_total: input.with_total ?? true }),
});

async function findStatus(ctx: Ctx, id: string): Promise<Status> {
  const status = await ctx.db.status.findUnique({ where: { id } });
  if (!status) throw NotFound("Not found");
  return status;
}

export const adminShowStatus = operation({
  name: "admin.statuses.show",
  access: { scopes: ["admin:read:statuses"], privilege: "messages_read" },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => findStatus(ctx, input.id),
});

export const adminUpdateStatus = operation({
  name: "admin.statuses.update",
  access: { scopes: ["admin:write:statuses"], privilege: "messages_delete" },
  input: z.object({ id: z.string(), sensitive: bool().optional().nullable(), visibility: z.string().optional().nullable() }),
  async run(ctx, input): Promise<Status> {
    const visibility = input.visibility ?? undefined;
    const sensitive = input.sensitive ?? undefined;
    if (visibility !== undefined && !SETTABLE_VISIBILITIES.includes(visibility as never)) throw Invalid("Unsupported visibility", { visibility: "is not supported" });
    const status = await findStatus(ctx, input.id);
    if (visibility === undefined && sensitive === undefined) return status;
    const updated = await ctx.db.$transaction(async (tx) => {
      // the counters' trigger follows a visibility change
      const row = await tx.status.update({ where: { id: status.id }, data: { sensitive, visibility: visibility as (typeof SETTABLE_VISIBILITIES)[number] | undefined } });
      await logAction(ctx, { action: "status_update", subject: { id: status.id }, sensitive, visibility }, tx);
      return row;
    });
    statusUpdated(ctx, updated.id);
    // public/unlisted ↔ private moves it in or out of its author's statuses_count
    if (visibility !== undefined) statusCountsChanged(ctx, [status, updated]);
    return updated;
  },
});

export const adminDeleteStatus = operation({
  name: "admin.statuses.delete",
  access: { scopes: ["admin:write:statuses"], privilege: "messages_delete" },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<Status> {
    const status = await findStatus(ctx, input.id);
    // the author's own deletion, run as the system: the same side effects whoever deletes
    await deleteStatus.run(systemCtx(ctx), { id: status.id });
    await logAction(ctx, { action: "status_delete", subject: { id: status.id } });
    return status;
  },
});
