// The family's bookmark folders: each account's named folders (unique names), each with an optional
// emoji (a unicode emoji or one of the instance's custom emoji, checked like a reaction). Bookmarks go
// into a folder when made with `folder_id`; deleting a folder keeps its bookmarks, out of any folder.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import { Prisma, type BookmarkFolder } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Conflict, Unprocessable } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { ownRow } from "../own-row.ts";
import { reactionEmoji } from "../reactions/reactions.ops.ts";

const NAME_LIMIT = 255;
const name = z.string().trim().min(1).max(NAME_LIMIT);

/** A stored emoji for a folder: "" or null clears it. */
function folderEmoji(ctx: Ctx, raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    return reactionEmoji(ctx, raw.trim()).emoji;
  } catch {
    throw Unprocessable("Invalid emoji", { emoji: "is invalid" });
  }
}

/** The viewer's folder `id` (404 for anyone else's). */
export function ownFolder(ctx: Ctx, id: string): Promise<BookmarkFolder> {
  return ownRow(ctx, (accountId) => ctx.db.bookmarkFolder.findFirst({ where: { id, accountId } }));
}

/** A unique-name clash as the family words it. */
async function unique<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw Conflict("Folder with this name already exists");
    throw error;
  }
}

export const listBookmarkFolders = operation({
  name: "bookmarks.folders.list",
  access: { scopes: ["read:bookmarks"] },
  input: z.object({}),
  authorize: requireAccount,
  run: (ctx) => ctx.db.bookmarkFolder.findMany({ where: { accountId: ctx.viewer.account!.id }, orderBy: { id: "asc" } }),
});

export const createBookmarkFolder = operation({
  name: "bookmarks.folders.create",
  access: { scopes: ["write:bookmarks"] },
  input: z.object({ name, emoji: z.string().nullable().optional() }),
  authorize: requireAccount,
  run: (ctx, input) =>
    unique(ctx.db.bookmarkFolder.create({ data: { id: newId(ctx.clock().getTime()), accountId: ctx.viewer.account!.id, name: input.name, emoji: folderEmoji(ctx, input.emoji) } })),
});

export const updateBookmarkFolder = operation({
  name: "bookmarks.folders.update",
  access: { scopes: ["write:bookmarks"] },
  input: z.object({ id: z.string(), name: name.optional(), emoji: z.string().nullable().optional() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const folder = await ownFolder(ctx, input.id);
    const data = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.emoji !== undefined ? { emoji: folderEmoji(ctx, input.emoji) } : {}) };
    return unique(ctx.db.bookmarkFolder.update({ where: { id: folder.id }, data }));
  },
});

/** Deletes the folder (its bookmarks stay, in no folder) and answers it, as the family does. */
export const deleteBookmarkFolder = operation({
  name: "bookmarks.folders.delete",
  access: { scopes: ["write:bookmarks"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const folder = await ownFolder(ctx, input.id);
    await ctx.db.bookmarkFolder.delete({ where: { id: folder.id } });
    return folder;
  },
});
