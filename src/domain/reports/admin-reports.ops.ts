// Handling reports (admin API `reports`, `grouped_reports`, report notes): listing, state changes and
// moderators' notes, each change written to the moderation log. Filing a report is src/domain/reports.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Prisma, Report, ReportNote } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { array, int } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { text } from "../input-limits.ts";

export const REPORT_STATES = ["open", "closed", "resolved"] as const;
export type ReportStateName = (typeof REPORT_STATES)[number];

export const reportInclude = { reporter: true, target: true, notes: { include: { author: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] } } satisfies Prisma.ReportInclude;

/** A report with what every surface shows of it: both accounts and the notes (oldest first). */
export type ReportRow = Report & { reporter: Account; target: Account; notes: (ReportNote & { author: Account | null })[] };


/** `page` / `page_size` (or an explicit `offset`, for cursor surfaces) → skip/take. */
export function offsetOf(input: { page?: number; offset?: number }, size: number) {
  return input.offset ?? (Math.max(input.page ?? 1, 1) - 1) * size;
}

export const listReports = operation({
  name: "admin.reports.list",
  access: { scopes: ["admin:read:reports"], privilege: "reports_manage_reports" },
  input: z.object({
    state: z.enum(REPORT_STATES).optional(),
    page: int().optional(),
    page_size: int().optional(),
    /** the earlier variant's name for the page size */
    limit: int().optional(),
    offset: int().optional(),
  }),
  async run(ctx, input): Promise<{ total: number; reports: ReportRow[] }> {
    const size = Math.max(input.page_size ?? input.limit ?? 50, 1);
    const where: Prisma.ReportWhereInput = input.state ? { state: input.state } : {};
    const [total, reports] = await Promise.all([
      ctx.db.report.count({ where }),
      ctx.db.report.findMany({ where, include: reportInclude, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offsetOf(input, size), take: size }),
    ]);
    return { total, reports };
  },
});

export async function findReport(ctx: Ctx, id: string): Promise<ReportRow> {
  const report = await ctx.db.report.findUnique({ where: { id }, include: reportInclude });
  if (!report) throw NotFound("Not found");
  return report;
}

export const showReport = operation({
  name: "admin.reports.show",
  access: { scopes: ["admin:read:reports"], privilege: "reports_manage_reports" },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => findReport(ctx, input.id),
});

export interface ReportGroup {
  statusId: string;
  /** the newest report's date */
  date: Date;
  reports: ReportRow[];
  /** the reporters, once each */
  actors: Account[];
}

/** Reports grouped by reported status (newest report first); reports without statuses are in no group. */
export const groupedReports = operation({
  name: "admin.reports.grouped",
  access: { scopes: ["admin:read:reports"], privilege: "reports_manage_reports" },
  input: z.object({}),
  async run(ctx): Promise<ReportGroup[]> {
    const reports = await ctx.db.report.findMany({ where: { NOT: { statusIds: { isEmpty: true } } }, include: reportInclude, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    const groups = new Map<string, ReportGroup>();
    for (const report of reports) {
      for (const statusId of report.statusIds) {
        let g = groups.get(statusId);
        if (!g) groups.set(statusId, (g = { statusId, date: report.createdAt, reports: [], actors: [] }));
        g.reports.push(report);
        if (!g.actors.some((a) => a.id === report.reporterId)) g.actors.push(report.reporter);
      }
    }
    return [...groups.values()];
  },
});

const ref = (r: Pick<Report, "id" | "state">, target: Account) => ({ id: r.id, state: r.state, target: { id: target.id, nickname: target.nickname } });

export interface StateUpdateResult {
  updated: ReportRow[];
  /** the family's per-entry refusals; the other entries still apply */
  errors: { id: string; error: "Unsupported state" | "not_found" }[];
}

/** Sets the state of each listed report; each applied change is one moderation-log entry. */
export const updateReportStates = operation({
  name: "admin.reports.updateStates",
  access: { scopes: ["admin:write:reports"], privilege: "reports_manage_reports" },
  input: z.object({
    reports: array(z.object({ id: z.union([z.string(), z.number()]).transform(String), state: z.string() })),
  }),
  async run(ctx, input): Promise<StateUpdateResult> {
    const errors: StateUpdateResult["errors"] = [];
    const rows = await ctx.db.report.findMany({ where: { id: { in: input.reports.map((r) => r.id) } }, include: { target: true } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const applied: string[] = [];
    for (const { id, state } of input.reports) {
      const report = byId.get(id);
      if (!REPORT_STATES.includes(state as ReportStateName)) errors.push({ id, error: "Unsupported state" });
      else if (!report) errors.push({ id, error: "not_found" });
      else {
        await ctx.db.$transaction(async (tx) => {
          const row = await tx.report.update({ where: { id }, data: { state: state as ReportStateName } });
          await logAction(ctx, { action: "report_update", subject: ref(row, report.target) }, tx);
        });
        applied.push(id);
      }
    }
    const updated = applied.length ? await ctx.db.report.findMany({ where: { id: { in: applied } }, include: reportInclude }) : [];
    const order = new Map(applied.map((id, i) => [id, i]));
    return { updated: updated.sort((a, b) => order.get(a.id)! - order.get(b.id)!), errors };
  },
});

export const addReportNote = operation({
  name: "admin.reports.addNote",
  access: { scopes: ["admin:write:reports"], privilege: "reports_manage_reports" },
  input: z.object({ id: z.string(), content: text() }),
  async run(ctx, input): Promise<ReportRow> {
    const content = input.content.trim();
    if (!content) throw Invalid("Invalid parameters", { content: "can't be blank" });
    const report = await ctx.db.report.findUnique({ where: { id: input.id }, include: { target: true } });
    if (!report) throw NotFound("Not found");
    await ctx.db.$transaction(async (tx) => {
      await tx.reportNote.create({ data: { id: newId(), reportId: report.id, authorId: ctx.viewer.account?.id ?? null, content, createdAt: ctx.clock() } });
      await logAction(ctx, { action: "report_note", subject: ref(report, report.target), text: content }, tx);
    });
    return findReport(ctx, report.id);
  },
});

export const deleteReportNote = operation({
  name: "admin.reports.deleteNote",
  access: { scopes: ["admin:write:reports"], privilege: "reports_manage_reports" },
  input: z.object({ report_id: z.string(), id: z.string() }),
  async run(ctx, input): Promise<ReportRow> {
    const note = await ctx.db.reportNote.findUnique({ where: { id: input.id }, include: { report: { include: { target: true } } } });
    if (!note || note.reportId !== input.report_id) throw NotFound("Not found");
    await ctx.db.$transaction(async (tx) => {
      await tx.reportNote.delete({ where: { id: note.id } });
      await logAction(ctx, { action: "report_note_delete", subject: ref(note.report, note.report.target), text: note.content }, tx);
    });
    return findReport(ctx, note.reportId);
  },
});
