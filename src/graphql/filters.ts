// The signed-in account's filters (reference API v2 over REST): filters with their keywords and
// statuses, calling the REST routes' operations with the scopes REST asks for.
import {
  addFilterKeyword,
  addFilterStatus,
  createFilterV2,
  deleteFilterKeyword,
  deleteFilterStatus,
  deleteFilterV2,
  getFilterKeyword,
  getFilterStatus,
  getFilterV2,
  listFilterKeywords,
  listFilterStatuses,
  listFiltersV2,
  updateFilterKeyword,
  updateFilterV2,
} from "../domain/filters/filters.ops.ts";
import { FILTER_ACTIONS, FILTER_CONTEXTS, type FilterRules } from "../domain/filters/filters.read.ts";
import type { FilterKeyword, FilterStatus } from "../generated/prisma/client.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";
import { accessOf } from "./access.ts";

const FilterContextEnum = builder.enumType("FilterContext", { values: FILTER_CONTEXTS });
const FilterActionEnum = builder.enumType("FilterAction", {
  values: FILTER_ACTIONS,
  description: "warn and blur: statuses are marked (`filtered`); hide: they are also left out of timelines and streams",
});

const FilterKeywordRef = builder.objectRef<FilterKeyword>("FilterKeyword").implement({
  fields: (t) => ({ id: t.exposeID("id"), keyword: t.exposeString("keyword"), wholeWord: t.exposeBoolean("wholeWord") }),
});

const FilterStatusRef = builder.objectRef<FilterStatus>("FilterStatus").implement({
  fields: (t) => ({ id: t.exposeID("id"), statusId: t.exposeID("statusId") }),
});

const FilterRef = builder.objectRef<FilterRules>("Filter").implement({
  description: "A filter of the signed-in account: keywords and single statuses, in some contexts, until it expires",
  fields: (t) => ({
    id: t.id({ resolve: (r) => r.filter.id }),
    title: t.string({ resolve: (r) => r.filter.title }),
    context: t.field({ type: [FilterContextEnum], resolve: (r) => r.filter.context as (typeof FILTER_CONTEXTS)[number][] }),
    filterAction: t.field({ type: FilterActionEnum, resolve: (r) => r.filter.action }),
    expiresAt: t.field({ type: "DateTime", nullable: true, resolve: (r) => r.filter.expiresAt }),
    keywords: t.field({ type: [FilterKeywordRef], resolve: (r) => r.keywords }),
    statuses: t.field({ type: [FilterStatusRef], resolve: (r) => r.statuses }),
  }),
});

const KeywordInput = builder.inputType("FilterKeywordInput", {
  description: "Without id: a new keyword; with id: a change, or a deletion with destroy",
  fields: (t) => ({ id: t.id(), keyword: t.string(), wholeWord: t.boolean(), destroy: t.boolean() }),
});

const keywordAttributes = (list: { id?: string | number | null; keyword?: string | null; wholeWord?: boolean | null; destroy?: boolean | null }[] | null | undefined) =>
  list?.map((k) => ({ id: k.id == null ? undefined : String(k.id), keyword: opt(k.keyword), whole_word: opt(k.wholeWord), _destroy: opt(k.destroy) }));

builder.queryFields((t) => ({
  filters: t.field({ ...accessOf(listFiltersV2), type: [FilterRef], description: "The viewer's filters, expired ones too", resolve: (_r, _a, ctx) => listFiltersV2(ctx, {}) }),
  filter: t.field({ ...accessOf(getFilterV2), type: FilterRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => getFilterV2(ctx, { id: String(a.id) }) }),
  filterKeywords: t.field({
    ...accessOf(listFilterKeywords),
    type: [FilterKeywordRef],
    args: { filterId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => listFilterKeywords(ctx, { filter_id: String(a.filterId) }),
  }),
  filterKeyword: t.field({ ...accessOf(getFilterKeyword), type: FilterKeywordRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => getFilterKeyword(ctx, { id: String(a.id) }) }),
  filterStatuses: t.field({
    ...accessOf(listFilterStatuses),
    type: [FilterStatusRef],
    args: { filterId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => listFilterStatuses(ctx, { filter_id: String(a.filterId) }),
  }),
  filterStatus: t.field({ ...accessOf(getFilterStatus), type: FilterStatusRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => getFilterStatus(ctx, { id: String(a.id) }) }),
}));

builder.mutationFields((t) => ({
  createFilter: t.field({
    ...accessOf(createFilterV2),
    type: FilterRef,
    args: {
      title: t.arg.string({ required: true }),
      context: t.arg({ type: [FilterContextEnum], required: true }),
      filterAction: t.arg({ type: FilterActionEnum }),
      expiresIn: t.arg.int({ description: "seconds from now; null for never" }),
      keywords: t.arg({ type: [KeywordInput] }),
    },
    resolve: (_r, a, ctx) =>
      createFilterV2(ctx, {
        title: a.title,
        context: a.context,
        filter_action: opt(a.filterAction),
        expires_in: a.expiresIn,
        keywords_attributes: keywordAttributes(a.keywords)?.map((k) => ({ keyword: k.keyword ?? "", whole_word: k.whole_word })),
      }),
  }),
  updateFilter: t.field({
    ...accessOf(updateFilterV2),
    type: FilterRef,
    args: {
      id: t.arg.id({ required: true }),
      title: t.arg.string(),
      context: t.arg({ type: [FilterContextEnum] }),
      filterAction: t.arg({ type: FilterActionEnum }),
      expiresIn: t.arg.int({ description: "seconds from now; null for never; left out: unchanged" }),
      keywords: t.arg({ type: [KeywordInput] }),
    },
    resolve: (_r, a, ctx) =>
      updateFilterV2(ctx, {
        id: String(a.id),
        title: opt(a.title),
        context: opt(a.context),
        filter_action: opt(a.filterAction),
        expires_in: a.expiresIn,
        keywords_attributes: keywordAttributes(a.keywords),
      }),
  }),
  deleteFilter: t.boolean({
    ...accessOf(deleteFilterV2),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteFilterV2(ctx, { id: String(a.id) }), true),
  }),
  addFilterKeyword: t.field({
    ...accessOf(addFilterKeyword),
    type: FilterKeywordRef,
    args: { filterId: t.arg.id({ required: true }), keyword: t.arg.string({ required: true }), wholeWord: t.arg.boolean() },
    resolve: (_r, a, ctx) => addFilterKeyword(ctx, { filter_id: String(a.filterId), keyword: a.keyword, whole_word: opt(a.wholeWord) }),
  }),
  updateFilterKeyword: t.field({
    ...accessOf(updateFilterKeyword),
    type: FilterKeywordRef,
    args: { id: t.arg.id({ required: true }), keyword: t.arg.string(), wholeWord: t.arg.boolean() },
    resolve: (_r, a, ctx) => updateFilterKeyword(ctx, { id: String(a.id), keyword: opt(a.keyword), whole_word: opt(a.wholeWord) }),
  }),
  deleteFilterKeyword: t.boolean({
    ...accessOf(deleteFilterKeyword),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteFilterKeyword(ctx, { id: String(a.id) }), true),
  }),
  addFilterStatus: t.field({
    ...accessOf(addFilterStatus),
    type: FilterStatusRef,
    args: { filterId: t.arg.id({ required: true }), statusId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => addFilterStatus(ctx, { filter_id: String(a.filterId), status_id: String(a.statusId) }),
  }),
  deleteFilterStatus: t.boolean({
    ...accessOf(deleteFilterStatus),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await deleteFilterStatus(ctx, { id: String(a.id) }), true),
  }),
}));
