// Filing a report about an account (and some of its statuses). The report is stored open with the
// reported statuses as they look now (moderators still see them after deletion) and every local
// staff member gets a `report` notification. Handling reports belongs to the admin area.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Prisma, Report, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import { anonymous, makeCtx, type Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../errors.ts";
import { array, bool } from "../inputs.ts";
import { notify } from "../notifications/notify.ts";
import { operation } from "../operation.ts";
import { filterVisible } from "../statuses/statuses.read.ts";
import { text } from "../input-limits.ts";

/** The reference API's default limit on a report's comment. */
export const REPORT_COMMENT_LIMIT = 1000;

/**
 * Renders statuses as JSON documents to keep in the report. A surface supplies it (the REST surface
 * passes its Status view, so the admin API shows snapshots in the same shape as live statuses).
 */
export type StatusSnapshotter = (ctx: Ctx, statuses: Status[]) => Promise<unknown[]>;

/** The request parameters, as every surface receives them. */
export const reportParams = z.object({
  account_id: z.string(),
  status_ids: array(z.string()).optional(),
  comment: text().optional().nullable(),
  /** forward a copy to the reported account's server (remote accounts only) */
  forward: bool().optional().nullable(),
  /** accepted for clients that send them; instance rules do not exist yet, so they are ignored */
  rule_ids: array(z.string()).optional(),
  /** accepted and ignored: every report is "other" until instance rules exist */
  category: z.string().optional().nullable(),
});

export interface FiledReport {
  report: Report;
  target: Account;
}

export const fileReport = operation({
  name: "reports.file",
  input: reportParams.extend({ snapshot: z.custom<StatusSnapshotter>((v) => typeof v === "function", "must be a function") }),
  authorize: requireAccount,
  async run(ctx, input): Promise<FiledReport> {
    const me = requireAccount(ctx);
    const target = await ctx.db.account.findUnique({ where: { id: input.account_id } });
    if (!target) throw NotFound("Record not found");
    const comment = input.comment ?? "";
    if ([...comment].length > REPORT_COMMENT_LIMIT)
      throw Unprocessable(`Validation failed: Comment is too long (maximum is ${REPORT_COMMENT_LIMIT} characters)`, { comment: "is too long" });

    const statusIds = [...new Set(input.status_ids ?? [])];
    const rows = statusIds.length ? await ctx.db.status.findMany({ where: { id: { in: statusIds }, accountId: target.id } }) : [];
    const visible = await filterVisible(ctx, rows);
    // unknown, another account's and invisible statuses get one answer, so nothing leaks
    if (visible.length !== statusIds.length)
      throw Unprocessable("Validation failed: Statuses must be visible statuses of the reported account", { status_ids: "must belong to the reported account" });
    const byId = new Map(visible.map((s) => [s.id, s]));
    const statuses = statusIds.map((id) => byId.get(id)!);

    // rendered for nobody in particular: no viewer-specific flags (favourited, relationship) are kept
    const snapshots = statuses.length ? await input.snapshot(makeCtx(ctx, anonymous), statuses) : [];
    const report = await ctx.db.report.create({
      data: {
        id: newId(),
        reporterId: me.id,
        targetId: target.id,
        statusIds,
        comment,
        forward: input.forward ?? false,
        state: "open",
        statusSnapshots: JSON.parse(JSON.stringify(snapshots)) as Prisma.InputJsonValue,
      },
    });

    const staff = await ctx.db.account.findMany({
      where: { local: true, deactivated: false, id: { not: me.id }, OR: [{ isAdmin: true }, { isModerator: true }] },
      select: { id: true },
    });
    await notify(
      ctx,
      staff.map((a) => ({ accountId: a.id, type: "report" as const, fromAccountId: me.id, reportId: report.id })),
    );
    ctx.bus.publish("report", { reportId: report.id });
    // federation: with `forward` and a remote target, a Flag goes to the target's server here
    return { report, target };
  },
});
