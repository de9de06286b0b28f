// Reports through the reference admin API (`/api/v1/admin/reports`): the reference server's filters and
// keyset pages, assignment to a moderator, and category/rules. Resolving and reopening are the family's
// state change (updateReportStates), so both APIs log them alike.
import { z } from "zod";
import { storedHost } from "../../db/like.ts";
import type { Account, Prisma, Report, Rule } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Forbidden, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array, bool } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { reportInclude, updateReportStates, type ReportRow } from "./admin-reports.ops.ts";

export const REPORT_CATEGORIES = ["spam", "legal", "violation", "other"] as const;

export type AdminReportRow = ReportRow & { assignedAccount: Account | null; rules: Rule[] };

const include = { ...reportInclude, assignedAccount: true } satisfies Prisma.ReportInclude;

/** Attaches the instance rules each report names (one query for the whole list). */
async function withRules(ctx: Ctx, reports: (ReportRow & { assignedAccount: Account | null })[]): Promise<AdminReportRow[]> {
  const ids = [...new Set(reports.flatMap((r) => r.ruleIds.map(Number)))].filter(Number.isSafeInteger);
  const rules = ids.length ? await ctx.db.rule.findMany({ where: { id: { in: ids } } }) : [];
  return reports.map((r) => ({ ...r, rules: rules.filter((rule) => r.ruleIds.includes(String(rule.id))) }));
}

export const listReferenceReports = operation({
  name: "admin.reports.listReference",
  access: { scopes: ["admin:read:reports"], privilege: "reports_manage_reports" },
  input: pageInput.extend({
    /** true: handled reports only; false or absent: open ones */
    resolved: bool().optional(),
    account_id: z.string().optional(),
    target_account_id: z.string().optional(),
    /** reports about accounts of this server */
    by_target_domain: z.string().optional(),
  }),
  async run(ctx, input): Promise<Page<AdminReportRow>> {
    const k = keyset(input, { defaultLimit: 100, maxLimit: 200 });
    const where: Prisma.ReportWhereInput = {
      state: input.resolved ? { not: "open" } : "open",
      ...(input.account_id && { reporterId: input.account_id }),
      ...(input.target_account_id && { targetId: input.target_account_id }),
      ...(input.by_target_domain && { target: { domain: storedHost(input.by_target_domain) } }),
      ...(k.cursor && { id: k.cursor }),
    };
    const rows = await ctx.db.report.findMany({ where, include, orderBy: { id: k.order }, take: k.take });
    return k.finish(await withRules(ctx, rows), (r) => r.id);
  },
});

export async function findReferenceReport(ctx: Ctx, id: string): Promise<AdminReportRow> {
  const report = await ctx.db.report.findUnique({ where: { id }, include });
  if (!report) throw NotFound("Record not found");
  return (await withRules(ctx, [report]))[0]!;
}

export const showReferenceReport = operation({
  name: "admin.reports.showReference",
  access: { scopes: ["admin:read:reports"], privilege: "reports_manage_reports" },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => findReferenceReport(ctx, input.id),
});

const ref = (r: Report & { target: Account }) => ({ id: r.id, state: r.state, target: { id: r.target.id, nickname: r.target.nickname } });

/** Assigns the report to the viewer (`assign_to_self`), or to nobody. */
export const assignReport = operation({
  name: "admin.reports.assign",
  access: { scopes: ["admin:write:reports"], privilege: "reports_manage_reports" },
  input: z.object({ id: z.string(), assign: z.boolean() }),
  async run(ctx, input) {
    const report = await findReferenceReport(ctx, input.id);
    const assignee = input.assign ? ctx.viewer.account : null;
    // the admin token acts without an account: there is nobody to assign
    if (input.assign && !assignee) throw Forbidden("An account is needed to take a report");
    await ctx.db.$transaction(async (tx) => {
      await tx.report.update({ where: { id: report.id }, data: { assignedAccountId: assignee?.id ?? null } });
      await logAction(ctx, { action: "report_assign", subject: ref(report), assignee }, tx);
    });
    return findReferenceReport(ctx, report.id);
  },
});

/** Resolves (`resolved`) or reopens (`open`) a report through the family's state change. */
export const setReportResolved = operation({
  name: "admin.reports.setResolved",
  access: { scopes: ["admin:write:reports"], privilege: "reports_manage_reports" },
  input: z.object({ id: z.string(), resolved: z.boolean() }),
  async run(ctx, input) {
    await findReferenceReport(ctx, input.id);
    await updateReportStates(ctx, { reports: [{ id: input.id, state: input.resolved ? "resolved" : "open" }] });
    return findReferenceReport(ctx, input.id);
  },
});

export const updateReportDetails = operation({
  name: "admin.reports.updateDetails",
  access: { scopes: ["admin:write:reports"], privilege: "reports_manage_reports" },
  input: z.object({ id: z.string(), category: z.enum(REPORT_CATEGORIES).optional(), rule_ids: array(z.union([z.string(), z.number()]).transform(String)).optional() }),
  async run(ctx, input) {
    const report = await findReferenceReport(ctx, input.id);
    const category = input.category ?? report.category;
    let ruleIds = input.rule_ids ?? report.ruleIds;
    if (input.rule_ids) {
      const wanted = [...new Set(input.rule_ids)];
      const numbers = wanted.map(Number).filter(Number.isSafeInteger);
      const known = numbers.length === wanted.length ? await ctx.db.rule.findMany({ where: { id: { in: numbers } }, select: { id: true } }) : [];
      if (known.length !== wanted.length) throw Unprocessable("Validation failed: Rule ids are not all instance rules", { rule_ids: "is invalid" });
      ruleIds = wanted;
    }
    // rules belong to violations; another category names none
    if (category !== "violation") ruleIds = [];
    await ctx.db.$transaction(async (tx) => {
      await tx.report.update({ where: { id: report.id }, data: { category, ruleIds } });
      await logAction(ctx, { action: "report_details", subject: ref(report), category, rules: ruleIds }, tx);
    });
    return findReferenceReport(ctx, report.id);
  },
});
