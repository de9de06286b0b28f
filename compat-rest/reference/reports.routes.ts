// Reference API: filing a report; the earlier family's listing of one's own reports (`/api/v0/<ns>/reports`).
// Moderators handle reports through the admin API.
import { z } from "zod";
import { fileReport, listOwnReports, reportParams, showOwnReport } from "../../src/domain/reports/reports.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderOwnReports } from "../../src/views/admin-report.ts";
import { renderReport } from "../../src/views/report.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { ReportSchema } from "../../src/views/schemas/notification.ts";
import { OwnReportSchema, OwnReportsSchema } from "../../src/views/schemas/admin.ts";

export const reportRoutes = [
  route({
    method: "POST",
    path: "/api/v1/reports",
    view: ReportSchema,
    summary: "Report an account (and some of its statuses) to the moderators",
    tags: ["Reports"],
    operation: fileReport,
    body: reportParams,
    response: { description: "The Report; 404 for an unknown account, 422 for statuses that are not the account's (or not visible) and comments over 1000 characters" },
    async handler(ctx, { body }) {
      const { report, target } = await fileReport(ctx, { ...body, snapshot: renderStatuses });
      return renderReport(ctx, report, target);
    },
  }),
  route({
    method: "GET",
    path: "/api/v0/$ns/reports",
    view: OwnReportsSchema,
    summary: "The viewer's own reports, newest first (`state`, `page`, `size` — 20 by default)",
    tags: ["Reports"],
    operation: listOwnReports,
    query: listOwnReports.input,
    response: { description: "`{total, reports: [Report]}` in the admin Report's shape, with plain accounts and no moderators' notes" },
    async handler(ctx, { query }) {
      const { total, reports } = await listOwnReports(ctx, query);
      return { total, reports: await renderOwnReports(ctx, reports) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v0/$ns/reports/:id",
    view: OwnReportSchema,
    summary: "One of the viewer's own reports",
    tags: ["Reports"],
    operation: showOwnReport,
    params: z.object({ id: z.string() }),
    response: { description: "Report; 404 `{error: \"Not found\"}` for another's or an unknown report" },
    async handler(ctx, { params }) {
      return (await renderOwnReports(ctx, [await showOwnReport(ctx, params)]))[0];
    },
  }),
];
