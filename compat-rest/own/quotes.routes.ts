// Quote posts: the quotes of a status (the family's path, and the reference server's since 4.5).
// Quoting itself is `quote_id` / `quoted_status_id` on POST /api/v1/statuses.
import { z } from "zod";
import { listQuotes } from "../../src/domain/statuses/quotes.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";

export const quoteRoutes = [
  route({
    method: "GET",
    path: ["/api/v1/$ns/statuses/:id/quotes", "/api/v1/statuses/:id/quotes"],
    view: StatusListSchema,
    summary: "The quotes of a status that the viewer may see, newest first, paged like statuses; 404 when the status is not visible",
    tags: ["Statuses"],
    operation: listQuotes,
    params: z.object({ id: z.string() }),
    query: listQuotes.input.omit({ id: true }),
    paged: "id",
    async handler(ctx, { params, query }) {
      const page = await listQuotes(ctx, { ...query, id: params.id });
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
];
