// Reference API search: v2 answers hashtags as Tag entities, v1 as plain names.
import type { Ctx } from "../../src/domain/context.ts";
import { search, searchInput, type SearchResult } from "../../src/domain/search/search.ops.ts";
import { SearchV1Schema, SearchV2Schema } from "../views/schemas/misc.ts";
import { route } from "../route.ts";
import { renderAccounts } from "../views/account.ts";
import { renderStatuses } from "../views/status.ts";

async function renderResult(ctx: Ctx, r: SearchResult, version: 1 | 2) {
  const [accounts, statuses] = await Promise.all([renderAccounts(ctx, r.accounts), renderStatuses(ctx, r.statuses)]);
  const hashtags =
    version === 1 ? r.hashtags.map((t) => t.name) : r.hashtags.map((t) => ({ name: t.name, url: `${ctx.settings.baseUrl}/tag/${encodeURIComponent(t.name)}`, history: [] }));
  return { accounts, statuses, hashtags };
}

export const searchRoutes = ([1, 2] as const).map((version) =>
  route({
    method: "GET",
    path: `/api/v${version}/search`,
    view: version === 2 ? SearchV2Schema : SearchV1Schema,
    rateLimit: "search",
    summary: version === 2 ? "Search accounts, statuses and hashtags" : "Search (hashtags as plain names)",
    tags: ["Search"],
    auth: { scopes: ["read:search"], optional: true },
    query: searchInput,
    async handler(ctx, input) {
      return renderResult(ctx, await search(ctx, input.query), version);
    },
  }),
);
