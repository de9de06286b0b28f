// Severed relationships: the viewer's severance events (as the `event` of a `severed_relationships`
// notification) and the lost followers and follows as the reference server's CSV exports.
import { z } from "zod";
import { pageInput } from "../../src/domain/pagination.ts";
import { listSeverances, severedRelationshipsCsv } from "../../src/domain/relationships/severances.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderSeveranceEvent } from "../../src/views/moderation-notices.ts";
import { RelationshipSeveranceEventSchema } from "../../src/views/schemas/notification.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Severed relationships"];

export const severedRelationshipRoutes = [
  route({
    method: "GET",
    path: "/api/v1/severed_relationships",
    view: listOf(RelationshipSeveranceEventSchema),
    summary: "The viewer's severed-relationship events, newest first (id = the one its notification names)",
    tags,
    operation: listSeverances,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listSeverances(ctx, query);
      return { ...page, items: page.items.map(renderSeveranceEvent) };
    },
  }),
  ...(["followers", "following"] as const).map((direction) =>
    route({
      method: "GET",
      path: `/api/v1/severed_relationships/:id/${direction}`,
      summary: `The ${direction === "followers" ? "followers lost" : "follows lost"} in one event, as CSV (the reference's export format)`,
      produces: "text/csv",
      tags,
      operation: severedRelationshipsCsv,
      params: z.object({ id: z.string() }),
      async handler(ctx, { params, res }) {
        const csv = await severedRelationshipsCsv(ctx, { id: params.id, direction });
        res.attachment(`${direction}_lost_${params.id}.csv`).type("text/csv").send(csv);
      },
    }),
  ),
];
