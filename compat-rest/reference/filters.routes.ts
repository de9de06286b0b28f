// Reference API filters: v2 (filters, their keywords and their statuses) and v1 (each keyword as a
// filter of its own), all over the same data (src/domain/filters). Paths of keywords and statuses by
// their own id (`/api/v2/filters/keywords/:id`) are declared before `/api/v2/filters/:id`.
import { z } from "zod";
import {
  addFilterKeyword,
  addFilterKeywordInput,
  addFilterStatus,
  addFilterStatusInput,
  createFilter,
  createFilterV2,
  createFilterV2Input,
  deleteFilter,
  deleteFilterKeyword,
  deleteFilterStatus,
  deleteFilterV2,
  filterInput,
  getFilter,
  getFilterKeyword,
  getFilterStatus,
  getFilterV2,
  listFilterKeywords,
  listFilters,
  listFilterStatuses,
  listFiltersV2,
  updateFilter,
  updateFilterInput,
  updateFilterKeyword,
  updateFilterKeywordInput,
  updateFilterV2,
  updateFilterV2Input,
} from "../../src/domain/filters/filters.ops.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderFilterKeyword, renderFilterStatus, renderFilterV1, renderFilterV2 } from "../../src/views/filter.ts";
import { FilterKeywordSchema, FilterStatusSchema, FilterV1Schema, FilterV2Schema } from "../../src/views/schemas/filter.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const idParam = z.object({ id: z.string() });
const filterIdParam = z.object({ filter_id: z.string() });
const tags = ["Filters"];

const v1: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/filters",
    view: listOf(FilterV1Schema),
    summary: "The viewer's unexpired filter keywords, each as a v1 filter",
    tags,
    operation: listFilters,
    handler: async (ctx) => (await listFilters(ctx, {})).map(renderFilterV1),
  }),
  route({
    method: "POST",
    path: "/api/v1/filters",
    view: FilterV1Schema,
    summary: "Create a filter of one keyword (phrase, context[], irreversible, whole_word, expires_in)",
    tags,
    operation: createFilter,
    body: filterInput,
    handler: async (ctx, { body }) => renderFilterV1(await createFilter(ctx, body)),
  }),
  route({
    method: "GET",
    path: "/api/v1/filters/:id",
    view: FilterV1Schema,
    summary: "One v1 filter (a keyword's id)",
    tags,
    operation: getFilter,
    params: idParam,
    handler: async (ctx, { params }) => renderFilterV1(await getFilter(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/api/v1/filters/:id",
    view: FilterV1Schema,
    summary: "Change a v1 filter (fields left out are kept; the filter's settings only when it has one keyword)",
    tags,
    operation: updateFilter,
    params: idParam,
    body: updateFilterInput.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderFilterV1(await updateFilter(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/filters/:id",
    view: EmptySchema,
    summary: "Delete a v1 filter's keyword (and its filter when nothing is left in it)",
    tags,
    operation: deleteFilter,
    params: idParam,
    async handler(ctx, { params }) {
      await deleteFilter(ctx, params);
      return {};
    },
  }),
];

const keywords: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v2/filters/keywords/:id",
    view: FilterKeywordSchema,
    summary: "One keyword of the viewer's filters",
    tags,
    operation: getFilterKeyword,
    params: idParam,
    handler: async (ctx, { params }) => renderFilterKeyword(await getFilterKeyword(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/api/v2/filters/keywords/:id",
    view: FilterKeywordSchema,
    summary: "Change a keyword (keyword, whole_word)",
    tags,
    operation: updateFilterKeyword,
    params: idParam,
    body: updateFilterKeywordInput.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderFilterKeyword(await updateFilterKeyword(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: "/api/v2/filters/keywords/:id",
    view: EmptySchema,
    summary: "Delete a keyword",
    tags,
    operation: deleteFilterKeyword,
    params: idParam,
    async handler(ctx, { params }) {
      await deleteFilterKeyword(ctx, params);
      return {};
    },
  }),
  route({
    method: "GET",
    path: "/api/v2/filters/:filter_id/keywords",
    view: listOf(FilterKeywordSchema),
    summary: "A filter's keywords",
    tags,
    operation: listFilterKeywords,
    params: filterIdParam,
    handler: async (ctx, { params }) => (await listFilterKeywords(ctx, params)).map(renderFilterKeyword),
  }),
  route({
    method: "POST",
    path: "/api/v2/filters/:filter_id/keywords",
    view: FilterKeywordSchema,
    summary: "Add a keyword to a filter (keyword, whole_word)",
    tags,
    operation: addFilterKeyword,
    params: filterIdParam,
    body: addFilterKeywordInput.omit({ filter_id: true }),
    handler: async (ctx, { params, body }) => renderFilterKeyword(await addFilterKeyword(ctx, { ...body, filter_id: params.filter_id })),
  }),
];

const statuses: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v2/filters/statuses/:id",
    view: FilterStatusSchema,
    summary: "One status of the viewer's filters",
    tags,
    operation: getFilterStatus,
    params: idParam,
    handler: async (ctx, { params }) => renderFilterStatus(await getFilterStatus(ctx, params)),
  }),
  route({
    method: "DELETE",
    path: "/api/v2/filters/statuses/:id",
    view: EmptySchema,
    summary: "Take a status out of its filter",
    tags,
    operation: deleteFilterStatus,
    params: idParam,
    async handler(ctx, { params }) {
      await deleteFilterStatus(ctx, params);
      return {};
    },
  }),
  route({
    method: "GET",
    path: "/api/v2/filters/:filter_id/statuses",
    view: listOf(FilterStatusSchema),
    summary: "A filter's statuses",
    tags,
    operation: listFilterStatuses,
    params: filterIdParam,
    handler: async (ctx, { params }) => (await listFilterStatuses(ctx, params)).map(renderFilterStatus),
  }),
  route({
    method: "POST",
    path: "/api/v2/filters/:filter_id/statuses",
    view: FilterStatusSchema,
    summary: "Add a status the viewer can see to a filter (status_id)",
    tags,
    operation: addFilterStatus,
    params: filterIdParam,
    body: addFilterStatusInput.omit({ filter_id: true }),
    handler: async (ctx, { params, body }) => renderFilterStatus(await addFilterStatus(ctx, { ...body, filter_id: params.filter_id })),
  }),
];

const v2: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v2/filters",
    view: listOf(FilterV2Schema),
    summary: "The viewer's filters (expired ones too) with their keywords and statuses",
    tags,
    operation: listFiltersV2,
    handler: async (ctx) => (await listFiltersV2(ctx, {})).map(renderFilterV2),
  }),
  route({
    method: "POST",
    path: "/api/v2/filters",
    view: FilterV2Schema,
    summary: "Create a filter (title, context[], filter_action warn|hide|blur, expires_in, keywords_attributes[][keyword|whole_word])",
    tags,
    operation: createFilterV2,
    body: createFilterV2Input,
    handler: async (ctx, { body }) => renderFilterV2(await createFilterV2(ctx, body)),
  }),
  route({
    method: "GET",
    path: "/api/v2/filters/:id",
    view: FilterV2Schema,
    summary: "One of the viewer's filters",
    tags,
    operation: getFilterV2,
    params: idParam,
    handler: async (ctx, { params }) => renderFilterV2(await getFilterV2(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/api/v2/filters/:id",
    view: FilterV2Schema,
    summary: "Change a filter; keywords_attributes[] adds (no id), changes (id) or deletes (id, _destroy) keywords",
    tags,
    operation: updateFilterV2,
    params: idParam,
    body: updateFilterV2Input.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderFilterV2(await updateFilterV2(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: "/api/v2/filters/:id",
    view: EmptySchema,
    summary: "Delete a filter with its keywords and statuses",
    tags,
    operation: deleteFilterV2,
    params: idParam,
    async handler(ctx, { params }) {
      await deleteFilterV2(ctx, params);
      return {};
    },
  }),
];

export const filterRoutes: RouteDef[] = [...v1, ...keywords, ...statuses, ...v2];
