// Reading filters and matching statuses against them. A filter (reference API v2) has keywords and
// single statuses; `loadActiveFilters` brings a set of accounts' unexpired filters with both in ONE
// statement (timelines, streams), and `filtersJson` is the same SQL for statements that load more
// (the status renderer's). `filterResults` says which filters a status matches, and why: the
// reference's FilterResult (`keyword_matches`, `status_matches`).
import { Prisma, type Filter, type FilterAction, type FilterKeyword, type FilterStatus, type Status } from "../../generated/prisma/client.ts";
import { decodeModel, modelJson } from "../../db/model-rows.ts";
import type { Db } from "../../db/client.ts";
import type { Ctx } from "../context.ts";
import { htmlToText } from "../statuses/formatter.ts";

export const FILTER_CONTEXTS = ["home", "notifications", "public", "thread", "account"] as const;
export type FilterContext = (typeof FILTER_CONTEXTS)[number];
export const FILTER_ACTIONS = ["warn", "hide", "blur"] as const satisfies readonly FilterAction[];

/** A filter with its keywords and statuses. */
export interface FilterRules {
  filter: Filter;
  keywords: FilterKeyword[];
  statuses: FilterStatus[];
}

/** What one filter found in a status (the reference's FilterResult). */
export interface FilterResult {
  rules: FilterRules;
  /** the keywords found in the status's text, null when none */
  keywordMatches: string[] | null;
  /** the status (or the original it reblogs) when the filter names it, null otherwise */
  statusMatches: string[] | null;
}

type Json = Record<string, unknown>;

/** SQL: the filters of `accounts` (a one-column query), unexpired at `now`, with their keywords and statuses, as a JSON array (null when none). */
export function filtersJson(db: Db, accounts: Prisma.Sql, now: Date, where: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const at = Prisma.sql`(${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  return Prisma.sql`(SELECT json_agg(json_build_object(
      'filter', ${modelJson(db, "Filter", "f")},
      'keywords', (SELECT json_agg(${modelJson(db, "FilterKeyword", "k")} ORDER BY k.id) FROM filter_keywords k WHERE k.filter_id = f.id),
      'statuses', (SELECT json_agg(${modelJson(db, "FilterStatus", "fs")} ORDER BY fs.id) FROM filter_statuses fs WHERE fs.filter_id = f.id)
    ) ORDER BY f.id)
    FROM filters f WHERE f.account_id IN (${accounts}) AND (f.expires_at IS NULL OR f.expires_at > ${at}) ${where})`;
}

export function decodeFilters(db: Db, json: unknown): FilterRules[] {
  return ((json as { filter: Json; keywords: Json[] | null; statuses: Json[] | null }[] | null) ?? []).map((r) => ({
    filter: decodeModel(db, "Filter", r.filter),
    keywords: (r.keywords ?? []).map((k) => decodeModel(db, "FilterKeyword", k)),
    statuses: (r.statuses ?? []).map((s) => decodeModel(db, "FilterStatus", s)),
  }));
}

/** The unexpired filters of some accounts, optionally only those of one context or one action: one statement. */
export async function loadActiveFilters(
  ctx: Pick<Ctx, "db" | "clock">,
  accountIds: readonly string[],
  only: { context?: FilterContext; action?: FilterAction } = {},
): Promise<FilterRules[]> {
  if (accountIds.length === 0) return [];
  const conditions = [
    only.context ? Prisma.sql`AND ${only.context} = ANY(f.context)` : Prisma.empty,
    only.action ? Prisma.sql`AND f.action = ${only.action}::"FilterAction"` : Prisma.empty,
  ];
  const accounts = Prisma.sql`SELECT unnest(${[...new Set(accountIds)]}::text[])`;
  const [row] = await ctx.db.$queryRaw<{ filters: unknown }[]>(Prisma.sql`SELECT ${filtersJson(ctx.db, accounts, ctx.clock(), Prisma.join(conditions, " "))} AS filters`);
  return decodeFilters(ctx.db, row.filters);
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * Case-insensitive match of a keyword in a text. With `whole_word`, the keyword must not be glued to
 * letters or digits on a side where it starts or ends with one (the reference API's rule).
 */
export function matchesKeyword(text: string, k: Pick<FilterKeyword, "keyword" | "wholeWord">): boolean {
  const keyword = k.keyword.trim();
  if (!keyword) return false;
  if (!k.wholeWord) return text.toLocaleLowerCase().includes(keyword.toLocaleLowerCase());
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const start = WORD.test(keyword[0]) ? "(?<![\\p{L}\\p{N}_])" : "";
  const end = WORD.test(keyword[keyword.length - 1]) ? "(?![\\p{L}\\p{N}_])" : "";
  return new RegExp(`${start}${escaped}${end}`, "iu").test(text);
}

/** The text filters look at: the content warning and the content as plain text (poll options are not included). */
export function statusFilterText(status: Pick<Status, "spoilerText" | "content">): string {
  return `${status.spoilerText}\n${htmlToText(status.content)}`;
}

/**
 * The filters a status matches. `shown` is what the status shows (the original, for a reblog);
 * `ids` the status's id and its original's (a filter naming either matches).
 */
export function filterResults(filters: readonly FilterRules[], shown: Pick<Status, "spoilerText" | "content">, ids: readonly string[]): FilterResult[] {
  if (filters.length === 0) return [];
  let text: string | undefined;
  const results: FilterResult[] = [];
  for (const rules of filters) {
    let keywordMatches: string[] | null = null;
    if (rules.keywords.length) {
      text ??= statusFilterText(shown);
      const found = rules.keywords.filter((k) => matchesKeyword(text!, k)).map((k) => k.keyword);
      if (found.length) keywordMatches = found;
    }
    const named = rules.statuses.filter((s) => ids.includes(s.statusId)).map((s) => s.statusId);
    const statusMatches = named.length ? named : null;
    if (keywordMatches || statusMatches) results.push({ rules, keywordMatches, statusMatches });
  }
  return results;
}

/** Drops statuses (reblogs by their original) that any of the filters matches; one query for reblogged originals. */
export async function rejectFiltered<S extends Status>(ctx: Pick<Ctx, "db">, filters: readonly FilterRules[], statuses: S[]): Promise<S[]> {
  if (filters.length === 0 || statuses.length === 0) return statuses;
  const originalIds = [...new Set(statuses.flatMap((s) => (s.reblogOfId ? [s.reblogOfId] : [])))];
  const originals = originalIds.length ? new Map((await ctx.db.status.findMany({ where: { id: { in: originalIds } } })).map((s) => [s.id, s])) : new Map<string, Status>();
  return statuses.filter((s) => {
    const shown = s.reblogOfId ? originals.get(s.reblogOfId) : s;
    if (!shown) return true;
    return filterResults(filters, shown, s.reblogOfId ? [s.id, s.reblogOfId] : [s.id]).length === 0;
  });
}
