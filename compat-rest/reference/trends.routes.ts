// Reference API: trends, computed from the last week of local and federated activity
// (src/domain/trends/trends.ops.ts).
import { listTrendingLinks, listTrendingStatuses, listTrendingTags } from "../../src/domain/trends/trends.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { renderTrendingTag } from "../../src/views/trends.ts";
import { TagSchema } from "../../src/views/schemas/misc.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { NoLinksSchema } from "../../src/views/schemas/tools.ts";

const tags = ["Trends"];

export const trendRoutes = [
  route({
    method: "GET",
    // `/api/v1/trends` is the reference's older name of the same list
    path: ["/api/v1/trends/tags", "/api/v1/trends"],
    view: listOf(TagSchema),
    summary: "Hashtags used by the most accounts in the last week (limit 10, at most 20; offset), with their daily history",
    tags,
    operation: listTrendingTags,
    query: listTrendingTags.input,
    paged: "offset",
    async handler(ctx, { query }) {
      const list = await listTrendingTags(ctx, query);
      return { items: list.map((t) => renderTrendingTag(ctx, t)), offset: query.offset ?? 0, limit: Math.min(query.limit ?? 10, 20) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/trends/statuses",
    view: StatusListSchema,
    summary: "Public posts of the last week that received the most favourites and reblogs in it (limit 20, at most 40; offset)",
    tags,
    operation: listTrendingStatuses,
    query: listTrendingStatuses.input,
    paged: "offset",
    async handler(ctx, { query }) {
      const list = await listTrendingStatuses(ctx, query);
      return { items: await renderStatuses(ctx, list.map((t) => t.status)), offset: query.offset ?? 0, limit: Math.min(query.limit ?? 20, 40) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/trends/links",
    view: NoLinksSchema,
    summary: "Trending links: always empty (links trend from preview cards, which this server does not fetch)",
    tags,
    operation: listTrendingLinks,
    query: listTrendingLinks.input,
    handler: (ctx, { query }) => listTrendingLinks(ctx, query),
  }),
];
