// Reference API lists: the viewer's lists, their members, the lists containing an account and the
// list timeline. Mounted before /api/v1/accounts/:id.
import { z } from "zod";
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
import { pageInput } from "../../src/domain/pagination.ts";
import { array } from "../../src/domain/inputs.ts";
import { idParam } from "../inputs.ts";
import { pageSpecs } from "../../src/http/routes/page-cache.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderAccounts } from "../../src/views/account.ts";
import { renderList } from "../../src/views/list.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { EmptySchema, ListSchema } from "../../src/views/schemas/misc.ts";
import { AccountSchema } from "../../src/views/schemas/account.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const membersBody = z.object({ account_ids: array(z.string()) });

export const listRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/lists",
    view: listOf(ListSchema),
    summary: "The viewer's lists",
    tags: ["Lists"],
    operation: listLists,
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
    operation: createList,
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
    operation: getList,
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
    operation: updateList,
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
    operation: deleteList,
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
    operation: listAccounts,
    params: idParam,
    query: pageInput,
    paged: "id",
    async handler(ctx, { params, query }) {
      const page = await listAccounts(ctx, { ...query, id: params.id });
      return { ...page, items: await renderAccounts(ctx, page.items) };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/lists/:id/accounts",
    view: EmptySchema,
    summary: "Add accounts the viewer follows to a list (account_ids[])",
    tags: ["Lists"],
    operation: addListAccounts,
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
    operation: removeListAccounts,
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
    operation: accountLists,
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
    operation: listTimeline,
    params: idParam,
    query: listTimelineInput.omit({ id: true }),
    paged: "id",
    pageCache: (_ctx, { params, query }) => pageSpecs.list({ ...query, id: params.id }),
    async handler(ctx, { params, query }) {
      const page = await listTimeline(ctx, { ...query, id: params.id });
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
];
