// Reference API bookmarks: the viewer's bookmarked statuses (the family's folders: own/bookmark-folders.routes.ts).
import { listBookmarks } from "../../src/domain/statuses/collections.ops.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";

export const bookmarkRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/api/v1/bookmarks",
    view: StatusListSchema,
    summary: "The viewer's bookmarked statuses, newest bookmark first; `folder_id` keeps one of the viewer's bookmark folders",
    tags: ["Statuses"],
    operation: listBookmarks,
    query: listBookmarks.input,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listBookmarks(ctx, query);
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
];
