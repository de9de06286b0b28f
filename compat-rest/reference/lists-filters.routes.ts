// Reference API: lists (with their members, the lists containing an account and the list timeline),
// bookmarks and favourites, the family's account favourites, suggestions and the empty
// stubs (trends, identity proofs). Mounted before /api/v1/accounts/:id.
import { z } from "zod";
import type { List } from "../../src/generated/prisma/client.ts";
import {
  accountLists,
  addListAccounts,
  createList,
  deleteList,
  getList,
  listAccounts,
  listInput,
  listLists,
  listTimeline,
  listTimelineInput,
  removeListAccounts,
  updateList,
  updateListInput,
} from "../../src/domain/lists/lists.ops.ts";
import { accountFavourites, dismissSuggestion, listBookmarks, listFavourites, listSuggestions, suggestionsInput } from "../../src/domain/statuses/collections.ops.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { array } from "../../src/domain/inputs.ts";
import { setLinkHeader } from "../pagination.ts";
import { route, type RouteDef } from "../route.ts";
import { renderAccounts } from "../views/account.ts";
import { renderStatuses } from "../views/status.ts";
import { AccountSchema } from "../views/schemas/account.ts";
import { EmptyArraySchema, EmptySchema, ListSchema, SuggestionSchema } from "../views/schemas/misc.ts";
import { StatusListSchema } from "../views/schemas/status.ts";
import { listOf } from "../views/schemas/view.ts";

const idParam = z.object({ id: z.string() });
const membersBody = z.object({ account_ids: array(z.string()) });

export function renderList(list: List) {
  return { id: list.id, title: list.title, replies_policy: list.repliesPolicy, exclusive: list.exclusive };
}


const listRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/lists",
    view: listOf(ListSchema),
    summary: "The viewer's lists",
    tags: ["Lists"],
    auth: { scopes: ["read:lists"] },
    async handler(ctx) {
      return (await listLists(ctx, {})).map(renderList);
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/lists",
    view: ListSchema,
    summary: "Create a list (title, replies_policy, exclusive)",
    tags: ["Lists"],
    auth: { scopes: ["write:lists"] },
    body: listInput,
    async handler(ctx, { body }) {
      return renderList(await createList(ctx, body));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/lists/:id",
    view: ListSchema,
    summary: "One of the viewer's lists",
    tags: ["Lists"],
    auth: { scopes: ["read:lists"] },
    params: idParam,
    async handler(ctx, { params }) {
      return renderList(await getList(ctx, params));
    },
  }),
  route({
    method: "PUT",
    path: "/api/v1/lists/:id",
    view: ListSchema,
    summary: "Rename a list or change its replies policy or exclusivity",
    tags: ["Lists"],
    auth: { scopes: ["write:lists"] },
    params: idParam,
    body: updateListInput.omit({ id: true }),
    async handler(ctx, { params, body }) {
      return renderList(await updateList(ctx, { ...body, id: params.id }));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/lists/:id",
    view: EmptySchema,
    summary: "Delete a list",
    tags: ["Lists"],
    auth: { scopes: ["write:lists"] },
    params: idParam,
    async handler(ctx, { params }) {
      await deleteList(ctx, params);
      return {};
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/lists/:id/accounts",
    view: listOf(AccountSchema),
    summary: "Members of a list (limit=0 for all), paged by account id",
    tags: ["Lists"],
    auth: { scopes: ["read:lists"] },
    params: idParam,
    query: pageInput,
    async handler(ctx, { params, query, req, res }) {
      const page = await listAccounts(ctx, { ...query, id: params.id });
      setLinkHeader(req, res, ctx.settings.baseUrl, page);
      return renderAccounts(ctx, page.items);
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/lists/:id/accounts",
    view: EmptySchema,
    summary: "Add accounts the viewer follows to a list (account_ids[])",
    tags: ["Lists"],
    auth: { scopes: ["write:lists"] },
    params: idParam,
    body: membersBody,
    async handler(ctx, { params, body }) {
      await addListAccounts(ctx, { ...body, id: params.id });
      return {};
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/lists/:id/accounts",
    view: EmptySchema,
    summary: "Remove accounts from a list (account_ids[])",
    tags: ["Lists"],
    auth: { scopes: ["write:lists"] },
    params: idParam,
    body: membersBody,
    async handler(ctx, { params, body, req }) {
      // DELETE bodies are optional for some clients: the ids may come in the query string too
      const ids = body.account_ids.length ? body : membersBody.parse({ account_ids: req.query.account_ids ?? [] });
      await removeListAccounts(ctx, { ...ids, id: params.id });
      return {};
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/:id/lists",
    view: listOf(ListSchema),
    summary: "The viewer's lists that contain the account",
    tags: ["Lists"],
    auth: { scopes: ["read:lists"] },
    params: idParam,
    async handler(ctx, { params }) {
      return (await accountLists(ctx, params)).map(renderList);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/timelines/list/:id",
    view: StatusListSchema,
    summary: "Statuses of the list's members that the viewer can see, newest first",
    tags: ["Timelines"],
    auth: { scopes: ["read:lists"] },
    params: idParam,
    query: listTimelineInput.omit({ id: true }),
    async handler(ctx, { params, query, req, res }) {
      const page = await listTimeline(ctx, { ...query, id: params.id });
      setLinkHeader(req, res, ctx.settings.baseUrl, page);
      return renderStatuses(ctx, page.items);
    },
  }),
];


const collectionRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/bookmarks",
    view: StatusListSchema,
    summary: "The viewer's bookmarked statuses, newest bookmark first; `folder_id` keeps one of the viewer's bookmark folders",
    tags: ["Statuses"],
    auth: { scopes: ["read:bookmarks"] },
    query: listBookmarks.input,
    async handler(ctx, { query, req, res }) {
      const page = await listBookmarks(ctx, query);
      setLinkHeader(req, res, ctx.settings.baseUrl, page);
      return renderStatuses(ctx, page.items);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/favourites",
    view: StatusListSchema,
    summary: "The viewer's favourited statuses, newest favourite first",
    tags: ["Statuses"],
    auth: { scopes: ["read:favourites"] },
    query: pageInput,
    async handler(ctx, { query, req, res }) {
      const page = await listFavourites(ctx, query);
      setLinkHeader(req, res, ctx.settings.baseUrl, page);
      return renderStatuses(ctx, page.items);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/accounts/:id/favourites",
    view: StatusListSchema,
    summary: "An account's favourites the viewer can see; 403 when the account hides them (hide_favorites) from others",
    tags: ["Accounts"],
    auth: { scopes: ["read:favourites"], optional: true },
    params: idParam,
    query: pageInput,
    async handler(ctx, { params, query, req, res }) {
      const page = await accountFavourites(ctx, { ...query, id: params.id });
      setLinkHeader(req, res, ctx.settings.baseUrl, page);
      return renderStatuses(ctx, page.items);
    },
  }),
  route({
    method: "GET",
    path: "/api/v2/suggestions",
    view: listOf(SuggestionSchema),
    summary: "Suggested accounts as {source: staff, account}",
    tags: ["Accounts"],
    auth: { scopes: ["read"], optional: true },
    query: suggestionsInput,
    async handler(ctx, { query }) {
      const accounts = await renderAccounts(ctx, await listSuggestions(ctx, query));
      return accounts.map((account) => ({ source: "staff", account }));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/suggestions/:account_id",
    view: EmptySchema,
    summary: "Dismiss a suggested account: suggestions leave it out for the viewer from then on",
    tags: ["Accounts"],
    auth: { scopes: ["write"] },
    params: z.object({ account_id: z.string() }),
    response: { description: "`{}`; 404 for an unknown account" },
    async handler(ctx, { params }) {
      await dismissSuggestion(ctx, params);
      return {};
    },
  }),
];

function emptyArray(path: string, auth: RouteDef["auth"]): RouteDef {
  return route({ method: "GET", path, view: EmptyArraySchema, summary: "Always an empty array", tags: ["Stubs"], auth, handler: async () => [] });
}

// the spec fixes v1 suggestions as an empty stub; the staff's suggestions are served by v2
const stubRoutes: RouteDef[] = [
  emptyArray("/api/v1/suggestions", { scopes: ["read"], optional: true }),
  emptyArray("/api/v1/identity_proofs", { scopes: ["read:accounts"], optional: true }),
  // the later family answers an account's identity proofs with [] (megalodon asks for them)
  emptyArray("/api/v1/accounts/:id/identity_proofs", { scopes: ["read:accounts"] }),
];

export const listFilterRoutes: RouteDef[] = [...listRoutes, ...collectionRoutes, ...stubRoutes];
