// The reference admin API's dashboard data: measures, dimensions and retention cohorts, computed from
// the stored data (src/domain/stats/metrics.ops.ts); staff holding the family's statistics_read.
import { dimensions, measures, retention } from "../../src/domain/stats/metrics.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { AdminCohortSchema, AdminDimensionSchema, AdminMeasureSchema } from "../../src/views/schemas/tools.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Admin (reference): dashboard"];

export const referenceMetricRoutes = [
  route({
    method: "POST",
    path: "/api/v1/admin/measures",
    view: listOf(AdminMeasureSchema),
    summary: "Daily counts between start_at and end_at for keys: active_users, new_users, interactions, opened_reports, resolved_reports, tag_* (tag_id), instance_* (domain)",
    tags,
    operation: measures,
    body: measures.input,
    handler: (ctx, { body }) => measures(ctx, body),
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/dimensions",
    view: listOf(AdminDimensionSchema),
    summary: "Breakdowns for keys: languages, sources, servers, space_usage, software_versions, tag_servers, tag_languages (tag_id), instance_accounts, instance_languages (domain)",
    tags,
    operation: dimensions,
    body: dimensions.input,
    handler: (ctx, { body }) => dimensions(ctx, body),
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/retention",
    view: listOf(AdminCohortSchema),
    summary: "Sign-up cohorts per day or month and the share of each active (posting or favouriting) in every later period",
    tags,
    operation: retention,
    body: retention.input,
    handler: (ctx, { body }) => retention(ctx, body),
  }),
];
