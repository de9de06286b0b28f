// Reference API favourites: the viewer's favourited statuses, and the family's favourites of an account.
import { accountFavourites, listFavourites } from "../../src/domain/statuses/collections.ops.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { idParam } from "../inputs.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";

export const favouriteRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/favourites",
    view: StatusListSchema,
    summary: "The viewer's favourited statuses, newest favourite first",
    tags: ["Statuses"],
    operation: listFavourites,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listFavourites(ctx, query);
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/accounts/:id/favourites",
    view: StatusListSchema,
    summary: "An account's favourites the viewer can see; 403 when the account hides them (hide_favorites) from others",
    tags: ["Accounts"],
    operation: accountFavourites,
    params: idParam,
    query: pageInput,
    paged: "id",
    async handler(ctx, { params, query }) {
      const page = await accountFavourites(ctx, { ...query, id: params.id });
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
];
