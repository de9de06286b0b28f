// Reference API search: v2 answers hashtags as Tag entities, v1 as plain names.
import { SearchV1Schema, SearchV2Schema } from "../../src/views/schemas/misc.ts";
import { search, searchInput } from "../../src/domain/search/search.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderSearchResult } from "../../src/views/search.ts";

export const searchRoutes = ([1, 2] as const).map((version) =>
  route({
    method: "GET",
    path: `/api/v${version}/search`,
    view: version === 2 ? SearchV2Schema : SearchV1Schema,
    rateLimit: "search",
    summary: version === 2 ? "Search accounts, statuses and hashtags" : "Search (hashtags as plain names)",
    tags: ["Search"],
    operation: search,
    query: searchInput,
    async handler(ctx, input) {
      return renderSearchResult(ctx, await search(ctx, input.query), version);
    },
  }),
);
