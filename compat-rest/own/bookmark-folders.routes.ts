// Own API: bookmark folders (a bookmark goes into one with `folder_id` on POST /statuses/:id/bookmark;
// GET /api/v1/bookmarks?folder_id= lists one folder).
import { z } from "zod";
import { createBookmarkFolder, deleteBookmarkFolder, listBookmarkFolders, updateBookmarkFolder } from "../../src/domain/bookmarks/folders.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderBookmarkFolder } from "../../src/views/bookmark-folder.ts";
import { BookmarkFolderSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Bookmarks"];
const idParam = z.object({ id: z.string() });

export const bookmarkFolderRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$ns/bookmark_folders",
    view: listOf(BookmarkFolderSchema),
    summary: "The viewer's bookmark folders `[{id, name, emoji, emoji_url}]`, oldest first",
    tags,
    operation: listBookmarkFolders,
    handler: async (ctx) => (await listBookmarkFolders(ctx, {})).map((f) => renderBookmarkFolder(ctx, f)),
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/bookmark_folders",
    view: BookmarkFolderSchema,
    summary: "Create a folder: `name` (unique among the viewer's; 409 otherwise), `emoji` (unicode or a custom emoji's shortcode; 422 otherwise)",
    tags,
    operation: createBookmarkFolder,
    body: createBookmarkFolder.input,
    handler: async (ctx, { body }) => renderBookmarkFolder(ctx, await createBookmarkFolder(ctx, body)),
  }),
  route({
    method: "PATCH",
    path: "/api/v1/$ns/bookmark_folders/:id",
    view: BookmarkFolderSchema,
    summary: "Rename a folder or change its emoji (\"\" clears it); 404 for a folder that is not the viewer's",
    tags,
    operation: updateBookmarkFolder,
    params: idParam,
    body: updateBookmarkFolder.input.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderBookmarkFolder(ctx, await updateBookmarkFolder(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/$ns/bookmark_folders/:id",
    view: BookmarkFolderSchema,
    summary: "Delete a folder (its bookmarks stay, in no folder); answers the deleted folder",
    tags,
    operation: deleteBookmarkFolder,
    params: idParam,
    handler: async (ctx, { params }) => renderBookmarkFolder(ctx, await deleteBookmarkFolder(ctx, { id: params.id })),
  }),
];
