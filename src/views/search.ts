// Reference API search results (v1 and v2 hashtags).
import type { Ctx } from "../../src/domain/context.ts";
import type { SearchResult } from "../../src/domain/search/search.ops.ts";
import { renderAccounts } from "./account.ts";
import { renderStatuses } from "./status.ts";

export async function renderSearchResult(ctx: Ctx, r: SearchResult, version: 1 | 2) {
  const [accounts, statuses] = await Promise.all([renderAccounts(ctx, r.accounts), renderStatuses(ctx, r.statuses)]);
  const hashtags =
    version === 1 ? r.hashtags.map((t) => t.name) : r.hashtags.map((t) => ({ name: t.name, url: `${ctx.settings.baseUrl}/tag/${encodeURIComponent(t.name)}`, history: [] }));
  return { accounts, statuses, hashtags };
}
