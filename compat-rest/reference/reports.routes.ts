// Reference API: filing a report. Moderators handle reports through the admin API.
import { fileReport, reportParams } from "../../src/domain/reports/reports.ops.ts";
import { route } from "../route.ts";
import { renderReport } from "../views/report.ts";
import { renderStatuses } from "../views/status.ts";

export const reportRoutes = [
  route({
    method: "POST",
    path: "/api/v1/reports",
    summary: "Report an account (and some of its statuses) to the moderators",
    tags: ["Reports"],
    auth: { scopes: ["write:reports"] },
    body: reportParams,
    response: { description: "The Report; 404 for an unknown account, 422 for statuses that are not the account's (or not visible) and comments over 1000 characters" },
    async handler(ctx, { body }) {
      const { report, target } = await fileReport(ctx, { ...body, snapshot: renderStatuses });
      return renderReport(ctx, report, target);
    },
  }),
];
