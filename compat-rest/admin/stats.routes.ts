// Admin API: status counts by visibility, from the counters the database keeps.
import { z } from "zod";
import { statusStats } from "../../src/domain/stats/stats.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { StatusVisibilityStatsSchema } from "../../src/views/schemas/admin.ts";

export const adminStatsRoutes = [
  route({
    method: "GET",
    path: admin("/stats"),
    view: StatusVisibilityStatsSchema,
    summary: "Status counts by visibility, for every instance or one host (this server's host: local statuses)",
    tags: ["Admin: statistics"],
    operation: statusStats,
    query: z.object({ instance: z.string().optional() }),
    response: { description: "`{status_visibility: {public, unlisted, private, direct}}`" },
    async handler(ctx, { query }) {
      return { status_visibility: await statusStats(ctx, query) };
    },
  }),
];
