// Admin API: reports and their notes (moderators hold `reports_manage_reports` by default).
import { z } from "zod";
import {
  addReportNote,
  deleteReportNote,
  groupedReports,
  listReports,
  showReport,
  updateReportStates,
} from "../../src/domain/reports/admin-reports.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminReport, renderAdminReports, renderGroupedReports } from "../../src/views/admin-report.ts";
import { admin } from "./paths.ts";
import { text } from "../../src/domain/input-limits.ts";
import { AdminReportSchema, AdminReportsSchema, GroupedReportsSchema } from "../../src/views/schemas/admin.ts";

const tags = ["Admin: reports"];

/** Notes answer every refusal of their input (blank, unknown report or note) with the family's string. */
const invalidParameters = (e: DomainError) => (e.kind === "invalid" || e.kind === "not_found" ? { status: 400, body: "Invalid parameters" } : undefined);

export const adminReportRoutes = [
  route({
    method: "GET",
    path: admin("/reports"),
    view: AdminReportsSchema,
    summary: "List reports, newest first",
    tags,
    operation: listReports,
    query: listReports.input.omit({ offset: true }),
    response: { description: "`{total, reports: [Report]}`; `page_size` (or `limit`) defaults to 50" },
    async handler(ctx, { query }) {
      const { total, reports } = await listReports(ctx, query);
      return { total, reports: await renderAdminReports(ctx, reports) };
    },
  }),
  route({
    method: "GET",
    path: admin("/grouped_reports"),
    view: GroupedReportsSchema,
    summary: "Reports grouped by reported status",
    tags,
    operation: groupedReports,
    response: { description: "`{reports: [{date, account, status, actors, reports}]}`" },
    async handler(ctx) {
      return { reports: await renderGroupedReports(ctx, await groupedReports(ctx, {})) };
    },
  }),
  route({
    method: "GET",
    path: admin("/reports/:id"),
    view: AdminReportSchema,
    summary: "One report",
    tags,
    operation: showReport,
    params: z.object({ id: z.string() }),
    response: { description: "Report; 404 `{error: \"Not found\"}`" },
    async handler(ctx, { params }) {
      return renderAdminReport(ctx, await showReport(ctx, params));
    },
  }),
  route({
    method: "PATCH",
    path: admin("/reports"),
    summary: "Change the state of several reports",
    tags,
    operation: updateReportStates,
    body: updateReportStates.input,
    status: 204,
    response: { description: "204; 400 with `[{id, error}]` for unknown ids and unsupported states (the other entries are applied)" },
    async handler(ctx, { body, res }) {
      const { errors } = await updateReportStates(ctx, body);
      if (errors.length) res.status(400).json(errors);
      return undefined;
    },
  }),
  route({
    method: "POST",
    path: admin("/reports/:id/notes"),
    summary: "Add a moderator's note to a report",
    tags,
    operation: addReportNote,
    params: z.object({ id: z.string() }),
    body: z.object({ content: text() }),
    status: 204,
    errors: invalidParameters,
    response: { description: "204; 400 `\"Invalid parameters\"`" },
    async handler(ctx, { params, body }) {
      await addReportNote(ctx, { id: params.id, content: body.content });
      return undefined;
    },
  }),
  route({
    method: "DELETE",
    path: admin("/reports/:report_id/notes/:id"),
    summary: "Delete a note of a report",
    tags,
    operation: deleteReportNote,
    params: z.object({ report_id: z.string(), id: z.string() }),
    status: 204,
    errors: invalidParameters,
    response: { description: "204; 400 `\"Invalid parameters\"`" },
    async handler(ctx, { params }) {
      await deleteReportNote(ctx, params);
      return undefined;
    },
  }),
];
