// Filing a report about an account (and some of its statuses). The report is stored open with the
// reported statuses as they look now (moderators still see them after deletion) and every local
// staff member gets a `report` notification. Handling reports belongs to the admin area.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Prisma, Report, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import { anonymous, makeCtx, type Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array, bool, int } from "../inputs.ts";
import { offsetOf, REPORT_STATES, reportInclude, type ReportRow } from "./admin-reports.ops.ts";
import { notify } from "../notifications/notify.ts";
import { operation } from "../operation.ts";
import { filterVisible } from "../statuses/statuses.read.ts";
import { text } from "../input-limits.ts";
import { federate } from "../federation/outbox.ts";

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
  /** the instance rules broken (a `violation`) */
  rule_ids: array(z.union([z.string(), z.number()]).transform(String)).optional(),
  /** spam, legal, violation or other (the default, or "violation" when rules are named); others are refused */
  category: z.string().optional().nullable(),
});

export const REPORT_CATEGORIES = ["spam", "legal", "violation", "other"] as const;

/**
 * The category and rules of a report as the reference server decides them: rules are kept only for a
 * "violation" (the default when some are named), and must be rules of this instance (422 otherwise).
 */
async function categoryOf(ctx: Ctx, category: string | null | undefined, ruleIds: string[] | undefined): Promise<{ category: string; ruleIds: string[] }> {
  const wanted = [...new Set((ruleIds ?? []).map((id) => String(id).trim()).filter((id) => id !== ""))];
  const chosen = category || (wanted.length ? "violation" : "other");
  if (!(REPORT_CATEGORIES as readonly string[]).includes(chosen))
    throw Unprocessable(`Validation failed: Category must be one of ${REPORT_CATEGORIES.join(", ")}`, { category: "is not included in the list" });
  if (chosen !== "violation" || wanted.length === 0) return { category: chosen, ruleIds: [] };
  const numbers = wanted.map(Number);
  const known = numbers.every((n) => Number.isSafeInteger(n) && n > 0) ? await ctx.db.rule.findMany({ where: { id: { in: numbers } }, select: { id: true } }) : [];
  if (known.length !== numbers.length) throw Unprocessable("Validation failed: Rule ids must be rules of this instance", { rule_ids: "is invalid" });
  return { category: chosen, ruleIds: numbers.map(String) }; // stored as the reference API writes them
}

export interface FiledReport {
  report: Report;
  target: Account;
}

export const fileReport = operation({
  name: "reports.file",
  access: { scopes: ["write:reports"] },
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
    const { category, ruleIds } = await categoryOf(ctx, input.category, input.rule_ids);
    const report = await storeReport(ctx, me, target, { statusIds, comment, forward: input.forward ?? false, snapshots, category, ruleIds });
    // forwarded: the instance actor's Flag goes to the reported account's server
    if (report.forward && !target.local) await federate(ctx, { type: "flag", reportId: report.id });
    return { report, target };
  },
});

/** Stores an open report, notifies the local staff (not the reporter) and publishes it to live subscribers. */
async function storeReport(
  ctx: Ctx,
  reporter: Account,
  target: Account,
  data: { statusIds: string[]; comment: string; forward: boolean; snapshots: unknown[]; category: string; ruleIds: string[] },
): Promise<Report> {
  const report = await ctx.db.report.create({
    data: {
      id: newId(),
      reporterId: reporter.id,
      targetId: target.id,
      statusIds: data.statusIds,
      comment: data.comment,
      forward: data.forward,
      category: data.category,
      ruleIds: data.ruleIds,
      state: "open",
      statusSnapshots: JSON.parse(JSON.stringify(data.snapshots)) as Prisma.InputJsonValue,
    },
  });
  const staff = await ctx.db.account.findMany({
    where: { local: true, deactivated: false, id: { not: reporter.id }, OR: [{ isAdmin: true }, { isModerator: true }] },
    select: { id: true },
  });
  await notify(
    ctx,
    staff.map((a) => ({ accountId: a.id, type: "report" as const, fromAccountId: reporter.id, reportId: report.id })),
  );
  ctx.bus.publish("report", { reportId: report.id });
  return report;
}

/**
 * A report received from another server (an incoming Flag): `reporter` is the account of the actor that
 * sent it, the remote instance's own actor as the family and Mastodon send them, so moderators see which
 * instance reported. Only `target`'s own statuses are kept; the comment is cut to the local limit.
 * No snapshots: the reported statuses are local and shown live (the admin view falls back to nothing).
 */
export async function receiveRemoteReport(ctx: Ctx, reporter: Account, target: Account, statuses: Pick<Status, "id" | "accountId">[], comment: string): Promise<Report> {
  const statusIds = [...new Set(statuses.filter((s) => s.accountId === target.id).map((s) => s.id))];
  return storeReport(ctx, reporter, target, { statusIds, comment: [...comment].slice(0, REPORT_COMMENT_LIMIT).join(""), forward: false, snapshots: [], category: "other", ruleIds: [] });
}

/** The family's own-reports listing (`/api/v0/<ns>/reports`): the viewer's reports, newest first, `page`/`size` (20). */
export const listOwnReports = operation({
  name: "reports.listOwn",
  access: { scopes: ["read:reports"] },
  input: z.object({ state: z.enum(REPORT_STATES).optional(), page: int().optional(), size: int().optional() }),
  async run(ctx, input): Promise<{ total: number; reports: ReportRow[] }> {
    const viewer = requireAccount(ctx);
    const size = Math.min(Math.max(input.size ?? 20, 1), 100);
    const where: Prisma.ReportWhereInput = { reporterId: viewer.id, ...(input.state ? { state: input.state } : {}) };
    const [total, reports] = await Promise.all([
      ctx.db.report.count({ where }),
      ctx.db.report.findMany({ where, include: reportInclude, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offsetOf(input, size), take: size }),
    ]);
    return { total, reports };
  },
});

/** One of the viewer's own reports; anybody else's is "Not found", as unknown ones are. */
export const showOwnReport = operation({
  name: "reports.showOwn",
  access: { scopes: ["read:reports"] },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<ReportRow> {
    const viewer = requireAccount(ctx);
    const report = await ctx.db.report.findFirst({ where: { id: input.id, reporterId: viewer.id }, include: reportInclude });
    if (!report) throw NotFound("Not found");
    return report;
  },
});
