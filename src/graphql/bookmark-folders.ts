// Bookmark folders and per-app settings of the signed-in account, and scrobbles, calling the REST
// routes' operations with the scopes REST asks for.
import { getAppSettings, updateAppSettings } from "../domain/accounts/app-settings.ops.ts";
import { createBookmarkFolder, deleteBookmarkFolder, listBookmarkFolders, updateBookmarkFolder } from "../domain/bookmarks/folders.ops.ts";
import { emojiRegistry, emojiUrl } from "../domain/emoji/registry.ts";
import { createScrobble, listScrobbles } from "../domain/scrobbles/scrobbles.ops.ts";
import type { BookmarkFolder, Scrobble } from "../generated/prisma/client.ts";
import { Invalid } from "../kernel/errors.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";
import "./accounts.ts";
import { accessOf } from "./access.ts";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw Invalid("settingsJson: not JSON", { settingsJson: "is invalid" });
  }
}

const BookmarkFolderRef = builder.objectRef<BookmarkFolder>("BookmarkFolder").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    emoji: t.exposeString("emoji", { nullable: true }),
    emojiUrl: t.string({
      nullable: true,
      description: "the image of a custom emoji",
      resolve: (f, _a, ctx) => {
        const custom = f.emoji ? emojiRegistry(ctx).get(f.emoji) : undefined;
        return custom ? emojiUrl(ctx, custom) : null;
      },
    }),
  }),
});

const ScrobbleRef = builder.objectRef<Scrobble>("Scrobble").implement({
  description: "Something an account listened to",
  fields: (t) => ({
    id: t.exposeID("id"),
    account: t.prismaField({ type: "Account", resolve: async (_q, s, _a, ctx) => (await ctx.loaders.account.load(s.accountId))! }),
    title: t.exposeString("title"),
    artist: t.exposeString("artist", { nullable: true }),
    album: t.exposeString("album", { nullable: true }),
    length: t.exposeInt("length", { nullable: true, description: "milliseconds" }),
    externalLink: t.exposeString("externalLink", { nullable: true }),
    visibility: t.exposeString("visibility"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  bookmarkFolders: t.field({ ...accessOf(listBookmarkFolders), type: [BookmarkFolderRef], resolve: (_r, _a, ctx) => listBookmarkFolders(ctx, {}) }),
  appSettingsJson: t.string({
    ...accessOf(getAppSettings),
    description: "The viewer's settings for one application, JSON-encoded",
    args: { app: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => JSON.stringify(await getAppSettings(ctx, { app: a.app })),
  }),
  scrobbles: t.field({
    ...accessOf(listScrobbles),
    type: [ScrobbleRef],
    description: "An account's scrobbles the viewer may see, newest first (REST paging: maxId, limit)",
    args: { accountId: t.arg.id({ required: true }), maxId: t.arg.id(), limit: t.arg.int() },
    resolve: async (_r, a, ctx) => (await listScrobbles(ctx, { id: String(a.accountId), max_id: a.maxId ? String(a.maxId) : undefined, limit: opt(a.limit) })).items,
  }),
}));

builder.mutationFields((t) => ({
  createBookmarkFolder: t.field({
    ...accessOf(createBookmarkFolder),
    type: BookmarkFolderRef,
    args: { name: t.arg.string({ required: true }), emoji: t.arg.string() },
    resolve: (_r, a, ctx) => createBookmarkFolder(ctx, { name: a.name, emoji: a.emoji }),
  }),
  updateBookmarkFolder: t.field({
    ...accessOf(updateBookmarkFolder),
    type: BookmarkFolderRef,
    args: { id: t.arg.id({ required: true }), name: t.arg.string(), emoji: t.arg.string() },
    resolve: (_r, a, ctx) => updateBookmarkFolder(ctx, { id: String(a.id), name: opt(a.name), emoji: a.emoji }),
  }),
  deleteBookmarkFolder: t.field({
    ...accessOf(deleteBookmarkFolder),
    type: BookmarkFolderRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => deleteBookmarkFolder(ctx, { id: String(a.id) }),
  }),
  updateAppSettings: t.string({
    ...accessOf(updateAppSettings),
    description: "Merges JSON-encoded keys into one application's settings (null removes a key); answers them JSON-encoded",
    args: { app: t.arg.string({ required: true }), settingsJson: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => JSON.stringify(await updateAppSettings(ctx, { app: a.app, settings: parseJson(a.settingsJson) as Record<string, unknown> })),
  }),
  scrobble: t.field({
    ...accessOf(createScrobble),
    type: ScrobbleRef,
    args: { title: t.arg.string({ required: true }), artist: t.arg.string(), album: t.arg.string(), length: t.arg.int(), externalLink: t.arg.string(), visibility: t.arg.string() },
    resolve: (_r, a, ctx) =>
      createScrobble(ctx, { title: a.title, artist: a.artist, album: a.album, length: a.length, externalLink: a.externalLink, visibility: opt(a.visibility) as "public" | undefined }),
  }),
}));
