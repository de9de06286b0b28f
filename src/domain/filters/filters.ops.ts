// Filters of the reference API: v2 (a filter with a title, contexts, an action, an expiry, keywords
// and single statuses, each with its own CRUD) and v1, whose filters are views of the same data: a v1
// filter is one keyword with its filter's context, expiry and action (`irreversible` = `hide`), and
// its id is the keyword's. Every change tells the owner's streams (`filters_changed`).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Filter, FilterKeyword, FilterStatus } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array, bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { ownRow } from "../own-row.ts";
import { getVisibleStatus } from "../statuses/statuses.read.ts";
import { FILTER_ACTIONS, FILTER_CONTEXTS, loadActiveFilters, type FilterRules } from "./filters.read.ts";

export { FILTER_CONTEXTS, type FilterContext } from "./filters.read.ts";

const expiresIn = z.preprocess((v) => (v === "" ? null : v), z.union([int().refine((n) => n > 0, "must be positive"), z.null()]));
const contexts = array(z.enum(FILTER_CONTEXTS)).refine((c) => c.length > 0, "can't be blank");
const keyword = z.string().trim().min(1, "can't be blank").max(512);
const idInput = z.object({ id: z.string() });
const filterIdInput = z.object({ filter_id: z.string() });

/** `a[]=…` lists of objects arrive as arrays, or (forms with indexes, Rails' style) as objects keyed "0", "1", … */
const objects = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.values(v) : v), z.array(item).max(100));

function expiry(ctx: Ctx, seconds: number | null | undefined): Date | null | undefined {
  if (seconds === undefined) return undefined;
  return seconds === null ? null : new Date(ctx.clock().getTime() + seconds * 1000);
}

const changed = (ctx: Ctx, accountId: string) => ctx.bus.publish("filters_changed", { accountId });

/** One of the viewer's filters with its keywords and statuses (expired ones too). */
async function ownRules(ctx: Ctx, id: string): Promise<FilterRules> {
  const filter = await ownRow(ctx, (accountId) =>
    ctx.db.filter.findFirst({ where: { id, accountId }, include: { keywords: { orderBy: { id: "asc" } }, statuses: { orderBy: { id: "asc" } } } }),
  );
  const { keywords, statuses, ...row } = filter;
  return { filter: row, keywords, statuses };
}

function ownKeyword(ctx: Ctx, id: string): Promise<FilterKeyword & { filter: Filter }> {
  return ownRow(ctx, (accountId) => ctx.db.filterKeyword.findFirst({ where: { id, filter: { accountId } }, include: { filter: true } }));
}

function ownFilterStatus(ctx: Ctx, id: string): Promise<FilterStatus & { filter: Filter }> {
  return ownRow(ctx, (accountId) => ctx.db.filterStatus.findFirst({ where: { id, filter: { accountId } }, include: { filter: true } }));
}

// ---- v2: filters --------------------------------------------------------------------------------

export const listFiltersV2 = operation({
  name: "filters.v2.index",
  access: { scopes: ["read:filters"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<FilterRules[]> {
    const me = requireAccount(ctx);
    const filters = await ctx.db.filter.findMany({ where: { accountId: me.id }, include: { keywords: { orderBy: { id: "asc" } }, statuses: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } });
    return filters.map(({ keywords, statuses, ...filter }) => ({ filter, keywords, statuses }));
  },
});

export const getFilterV2 = operation({
  name: "filters.v2.show",
  access: { scopes: ["read:filters"] },
  input: idInput,
  authorize: requireAccount,
  run: (ctx, input) => ownRules(ctx, input.id),
});

const keywordAttributes = z.object({
  id: z.string().optional(),
  keyword: keyword.optional(),
  whole_word: bool().optional(),
  _destroy: bool().optional(),
});

export const createFilterV2Input = z.object({
  title: z.string().trim().min(1, "can't be blank").max(256),
  context: contexts,
  filter_action: z.enum(FILTER_ACTIONS).optional(),
  expires_in: expiresIn.optional(),
  keywords_attributes: objects(keywordAttributes.omit({ id: true, _destroy: true }).extend({ keyword })).optional(),
});

export const createFilterV2 = operation({
  name: "filters.v2.create",
  access: { scopes: ["write:filters"] },
  input: createFilterV2Input,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterRules> {
    const me = requireAccount(ctx);
    const id = newId();
    await ctx.db.filter.create({
      data: {
        id,
        accountId: me.id,
        title: input.title,
        context: [...new Set(input.context)],
        action: input.filter_action ?? "warn",
        expiresAt: expiry(ctx, input.expires_in) ?? null,
        keywords: { create: (input.keywords_attributes ?? []).map((k) => ({ id: newId(), keyword: k.keyword, wholeWord: k.whole_word ?? true })) },
      },
    });
    changed(ctx, me.id);
    return ownRules(ctx, id);
  },
});

export const updateFilterV2Input = createFilterV2Input.partial().extend({ id: z.string(), keywords_attributes: objects(keywordAttributes).optional() });

export const updateFilterV2 = operation({
  name: "filters.v2.update",
  access: { scopes: ["write:filters"] },
  input: updateFilterV2Input,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterRules> {
    const { filter, keywords } = await ownRules(ctx, input.id);
    const own = new Set(keywords.map((k) => k.id));
    for (const k of input.keywords_attributes ?? []) {
      if (k.id && !own.has(k.id)) throw NotFound("Record not found");
      if (!k.id && !k._destroy && !k.keyword) throw Unprocessable("Validation failed: Keyword can't be blank", { keyword: "can't be blank" });
    }
    const expiresAt = expiry(ctx, input.expires_in);
    await ctx.db.$transaction([
      ctx.db.filter.update({
        where: { id: filter.id },
        data: {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.context !== undefined ? { context: [...new Set(input.context)] } : {}),
          ...(input.filter_action !== undefined ? { action: input.filter_action } : {}),
          ...(expiresAt !== undefined ? { expiresAt } : {}),
        },
      }),
      ...(input.keywords_attributes ?? []).map((k) =>
        k.id && k._destroy
          ? ctx.db.filterKeyword.delete({ where: { id: k.id } })
          : k.id
            ? ctx.db.filterKeyword.update({ where: { id: k.id }, data: { ...(k.keyword !== undefined ? { keyword: k.keyword } : {}), ...(k.whole_word !== undefined ? { wholeWord: k.whole_word } : {}) } })
            : ctx.db.filterKeyword.create({ data: { id: newId(), filterId: filter.id, keyword: k.keyword!, wholeWord: k.whole_word ?? true } }),
      ),
    ]);
    changed(ctx, filter.accountId);
    return ownRules(ctx, filter.id);
  },
});

export const deleteFilterV2 = operation({
  name: "filters.v2.delete",
  access: { scopes: ["write:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const { filter } = await ownRules(ctx, input.id);
    await ctx.db.filter.delete({ where: { id: filter.id } });
    changed(ctx, filter.accountId);
  },
});

// ---- v2: keywords ---------------------------------------------------------------------------------

export const listFilterKeywords = operation({
  name: "filters.keywords.index",
  access: { scopes: ["read:filters"] },
  input: filterIdInput,
  authorize: requireAccount,
  run: async (ctx, input): Promise<FilterKeyword[]> => (await ownRules(ctx, input.filter_id)).keywords,
});

export const addFilterKeywordInput = filterIdInput.extend({ keyword, whole_word: bool().optional() });

export const addFilterKeyword = operation({
  name: "filters.keywords.create",
  access: { scopes: ["write:filters"] },
  input: addFilterKeywordInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterKeyword> {
    const { filter } = await ownRules(ctx, input.filter_id);
    const created = await ctx.db.filterKeyword.create({ data: { id: newId(), filterId: filter.id, keyword: input.keyword, wholeWord: input.whole_word ?? true } });
    changed(ctx, filter.accountId);
    return created;
  },
});

export const getFilterKeyword = operation({
  name: "filters.keywords.show",
  access: { scopes: ["read:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterKeyword> {
    const { filter: _filter, ...k } = await ownKeyword(ctx, input.id);
    return k;
  },
});

export const updateFilterKeywordInput = idInput.extend({ keyword: keyword.optional(), whole_word: bool().optional() });

export const updateFilterKeyword = operation({
  name: "filters.keywords.update",
  access: { scopes: ["write:filters"] },
  input: updateFilterKeywordInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterKeyword> {
    const k = await ownKeyword(ctx, input.id);
    const updated = await ctx.db.filterKeyword.update({
      where: { id: k.id },
      data: { ...(input.keyword !== undefined ? { keyword: input.keyword } : {}), ...(input.whole_word !== undefined ? { wholeWord: input.whole_word } : {}) },
    });
    changed(ctx, k.filter.accountId);
    return updated;
  },
});

export const deleteFilterKeyword = operation({
  name: "filters.keywords.delete",
  access: { scopes: ["write:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const k = await ownKeyword(ctx, input.id);
    await ctx.db.filterKeyword.delete({ where: { id: k.id } });
    changed(ctx, k.filter.accountId);
  },
});

// ---- v2: statuses ---------------------------------------------------------------------------------

export const listFilterStatuses = operation({
  name: "filters.statuses.index",
  access: { scopes: ["read:filters"] },
  input: filterIdInput,
  authorize: requireAccount,
  run: async (ctx, input): Promise<FilterStatus[]> => (await ownRules(ctx, input.filter_id)).statuses,
});

export const addFilterStatusInput = filterIdInput.extend({ status_id: z.string().min(1, "can't be blank") });

export const addFilterStatus = operation({
  name: "filters.statuses.create",
  access: { scopes: ["write:filters"] },
  input: addFilterStatusInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterStatus> {
    const { filter, statuses } = await ownRules(ctx, input.filter_id);
    // only a status the viewer can see (404 otherwise, as for any status read)
    const status = await getVisibleStatus(ctx, input.status_id);
    if (statuses.some((s) => s.statusId === status.id)) throw Unprocessable("Validation failed: Status has already been taken", { status_id: "has already been taken" });
    const created = await ctx.db.filterStatus.create({ data: { id: newId(), filterId: filter.id, statusId: status.id } });
    changed(ctx, filter.accountId);
    return created;
  },
});

export const getFilterStatus = operation({
  name: "filters.statuses.show",
  access: { scopes: ["read:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterStatus> {
    const { filter: _filter, ...s } = await ownFilterStatus(ctx, input.id);
    return s;
  },
});

export const deleteFilterStatus = operation({
  name: "filters.statuses.delete",
  access: { scopes: ["write:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const s = await ownFilterStatus(ctx, input.id);
    await ctx.db.filterStatus.delete({ where: { id: s.id } });
    changed(ctx, s.filter.accountId);
  },
});

// ---- v1: one keyword and its filter ---------------------------------------------------------------

/** A v1 filter: a keyword and the filter it belongs to. */
export interface FilterV1 {
  keyword: FilterKeyword;
  filter: Filter;
}

export const filterInput = z.object({
  phrase: keyword,
  context: contexts,
  irreversible: bool().optional(),
  whole_word: bool().optional(),
  /** seconds from now; null or "" for never */
  expires_in: expiresIn.optional(),
});

export const listFilters = operation({
  name: "filters.index",
  access: { scopes: ["read:filters"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<FilterV1[]> {
    const me = requireAccount(ctx);
    const rules = await loadActiveFilters(ctx, [me.id]);
    return rules.flatMap((r) => r.keywords.map((keyword) => ({ keyword, filter: r.filter })));
  },
});

export const getFilter = operation({
  name: "filters.show",
  access: { scopes: ["read:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterV1> {
    const { filter, ...keyword } = await ownKeyword(ctx, input.id);
    return { keyword, filter };
  },
});

export const createFilter = operation({
  name: "filters.create",
  access: { scopes: ["write:filters"] },
  input: filterInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterV1> {
    const me = requireAccount(ctx);
    const filter = await ctx.db.filter.create({
      data: {
        id: newId(),
        accountId: me.id,
        title: input.phrase,
        context: [...new Set(input.context)],
        action: input.irreversible ? "hide" : "warn",
        expiresAt: expiry(ctx, input.expires_in) ?? null,
      },
    });
    const keyword = await ctx.db.filterKeyword.create({ data: { id: newId(), filterId: filter.id, keyword: input.phrase, wholeWord: input.whole_word ?? true } });
    changed(ctx, me.id);
    return { keyword, filter };
  },
});

export const updateFilterInput = filterInput.partial().extend({ id: z.string() });

export const updateFilter = operation({
  name: "filters.update",
  access: { scopes: ["write:filters"] },
  input: updateFilterInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<FilterV1> {
    const { filter, ...k } = await ownKeyword(ctx, input.id);
    const expiresAt = expiry(ctx, input.expires_in);
    const filterData = {
      ...(input.context !== undefined ? { context: [...new Set(input.context)] } : {}),
      ...(input.irreversible !== undefined ? { action: input.irreversible ? ("hide" as const) : filter.action === "hide" ? ("warn" as const) : filter.action } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    // the filter's settings are shared by its keywords: v1 may change them only for a filter of one keyword (the reference's rule)
    if (Object.keys(filterData).length && (await ctx.db.filterKeyword.count({ where: { filterId: filter.id } })) > 1)
      throw Unprocessable("Validation failed: This filter has several keywords: change it with the v2 API");
    const [keyword, updated] = await ctx.db.$transaction([
      ctx.db.filterKeyword.update({
        where: { id: k.id },
        data: { ...(input.phrase !== undefined ? { keyword: input.phrase } : {}), ...(input.whole_word !== undefined ? { wholeWord: input.whole_word } : {}) },
      }),
      ctx.db.filter.update({ where: { id: filter.id }, data: filterData }),
    ]);
    changed(ctx, filter.accountId);
    return { keyword, filter: updated };
  },
});

export const deleteFilter = operation({
  name: "filters.delete",
  access: { scopes: ["write:filters"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const k = await ownKeyword(ctx, input.id);
    await ctx.db.filterKeyword.delete({ where: { id: k.id } });
    // a filter left with nothing to match (v1 made it for this keyword) goes with it
    await ctx.db.filter.deleteMany({ where: { id: k.filterId, keywords: { none: {} }, statuses: { none: {} } } });
    changed(ctx, k.filter.accountId);
  },
});
