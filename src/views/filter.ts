// Filters in the reference API's shapes: v2's Filter (with its FilterKeyword and FilterStatus lists),
// v1's filter (one keyword with its filter's settings) and the FilterResult statuses carry in `filtered`.
import type { FilterKeyword, FilterStatus } from "../../src/generated/prisma/client.ts";
import type { FilterV1 } from "../../src/domain/filters/filters.ops.ts";
import type { FilterResult, FilterRules } from "../../src/domain/filters/filters.read.ts";

export const renderFilterKeyword = (k: FilterKeyword) => ({ id: k.id, keyword: k.keyword, whole_word: k.wholeWord });

export const renderFilterStatus = (s: FilterStatus) => ({ id: s.id, status_id: s.statusId });

export function renderFilterV2({ filter, keywords, statuses }: FilterRules) {
  return {
    id: filter.id,
    title: filter.title,
    context: filter.context,
    expires_at: filter.expiresAt?.toISOString() ?? null,
    filter_action: filter.action,
    keywords: keywords.map(renderFilterKeyword),
    statuses: statuses.map(renderFilterStatus),
  };
}

export function renderFilterV1({ keyword, filter }: FilterV1) {
  return {
    id: keyword.id,
    phrase: keyword.keyword,
    context: filter.context,
    whole_word: keyword.wholeWord,
    expires_at: filter.expiresAt?.toISOString() ?? null,
    irreversible: filter.action === "hide",
  };
}

export function renderFilterResult(r: FilterResult) {
  return { filter: renderFilterV2(r.rules), keyword_matches: r.keywordMatches, status_matches: r.statusMatches };
}
