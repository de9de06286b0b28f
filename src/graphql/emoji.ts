// Custom emoji and emoji packs: the same operations as the REST routes (reading is public; pack
// changes and the reload are guarded as their operations declare: emoji_manage_emoji with `admin:write`).
import { listCustomEmoji, reloadEmoji } from "../domain/emoji/emoji.ops.ts";
import { Invalid } from "../kernel/errors.ts";
import { addPackFile, deletePackFile, updatePackFile } from "../domain/emoji/files.ops.ts";
import { createPack, deletePack, importPacks, listPacks, packView, showPack, updatePackMetadata, type PackView } from "../domain/emoji/packs.ops.ts";
import { downloadPack, listRemotePacks } from "../domain/emoji/remote.ops.ts";
import { emojiUrl, type CustomEmoji } from "../domain/emoji/registry.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";

const CustomEmojiRef = builder.objectRef<CustomEmoji>("CustomEmoji").implement({
  description: "One of the instance's custom emoji",
  fields: (t) => ({
    shortcode: t.exposeString("shortcode"),
    url: t.string({ resolve: (e, _a, ctx) => emojiUrl(ctx, e) }),
    category: t.string({ description: "the pack it comes from", resolve: (e) => e.pack }),
    tags: t.exposeStringList("tags"),
  }),
});

type PackNode = PackView & { name: string };

const EmojiFile = builder.objectRef<{ shortcode: string; filename: string }>("EmojiFile").implement({
  fields: (t) => ({ shortcode: t.exposeString("shortcode"), filename: t.exposeString("filename") }),
});

const str = (v: unknown) => (typeof v === "string" ? v : null);

const EmojiPackRef = builder.objectRef<PackNode>("EmojiPack").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    files: t.field({ type: [EmojiFile], description: "the page of files asked for (all of them in lists)", resolve: (p) => Object.entries(p.files).map(([shortcode, filename]) => ({ shortcode, filename })) }),
    filesCount: t.int({ resolve: (p) => p.files_count }),
    license: t.string({ nullable: true, resolve: (p) => str(p.pack.license) }),
    homepage: t.string({ nullable: true, resolve: (p) => str(p.pack.homepage) }),
    description: t.string({ nullable: true, resolve: (p) => str(p.pack.description) }),
    fallbackSrc: t.string({ nullable: true, resolve: (p) => str(p.pack["fallback-src"]) }),
    fallbackSrcSha256: t.string({ nullable: true, resolve: (p) => str(p.pack["fallback-src-sha256"]) }),
    shareFiles: t.boolean({ resolve: (p) => p.pack["share-files"] === true }),
    canDownload: t.boolean({ resolve: (p) => p.pack["can-download"] }),
    downloadSha256: t.string({ nullable: true, resolve: (p) => p.pack["download-sha256"] ?? null }),
  }),
});

const EmojiPackPage = builder.objectRef<{ packs: PackNode[]; count: number }>("EmojiPackPage").implement({
  fields: (t) => ({ packs: t.field({ type: [EmojiPackRef], resolve: (p) => p.packs }), count: t.exposeInt("count") }),
});

const EmojiPackMetadataInput = builder.inputType("EmojiPackMetadataInput", {
  description: "Absent fields keep their value; null removes it",
  fields: (t) => ({
    license: t.string(),
    homepage: t.string(),
    description: t.string(),
    fallbackSrc: t.string({ description: "a new one is fetched; its sha256 becomes fallbackSrcSha256" }),
    fallbackSrcSha256: t.string(),
    shareFiles: t.boolean(),
  }),
});

const KEYS = { license: "license", homepage: "homepage", description: "description", fallbackSrc: "fallback-src", fallbackSrcSha256: "fallback-src-sha256", shareFiles: "share-files" } as const;

builder.queryFields((t) => ({
  customEmojis: t.field({ ...accessOf(listCustomEmoji), type: [CustomEmojiRef], description: "The instance's custom emoji, in shortcode order", resolve: (_r, _a, ctx) => listCustomEmoji(ctx, {}) }),
  emojiPacks: t.field({
    ...accessOf(listPacks),
    type: EmojiPackPage,
    args: { page: t.arg.int({ defaultValue: 1 }), pageSize: t.arg.int({ defaultValue: 50 }) },
    resolve: async (_r, args, ctx) => {
      const { packs, count } = await listPacks(ctx, { page: args.page ?? 1, page_size: args.pageSize ?? 50 });
      return { packs: Object.entries(packs).map(([name, p]) => ({ name, ...p })), count };
    },
  }),
  emojiPack: t.field({
    ...accessOf(showPack),
    type: EmojiPackRef,
    args: { name: t.arg.string({ required: true }), page: t.arg.int({ defaultValue: 1 }), pageSize: t.arg.int({ defaultValue: 30 }) },
    resolve: async (_r, args, ctx) => ({ name: args.name.trim(), ...(await showPack(ctx, { name: args.name, page: args.page ?? 1, page_size: args.pageSize ?? 30 })) }),
  }),
}));

builder.mutationFields((t) => ({
  createEmojiPack: t.field({
    ...accessOf(createPack),
    type: EmojiPackRef,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const pack = await createPack(ctx, { name: args.name });
      return { name: pack.name, ...packView(pack) };
    },
  }),
  updateEmojiPackMetadata: t.field({
    ...accessOf(updatePackMetadata),
    type: EmojiPackRef,
    args: { name: t.arg.string({ required: true }), metadata: t.arg({ type: EmojiPackMetadataInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const metadata = Object.fromEntries(Object.entries(KEYS).filter(([k]) => (args.metadata as Record<string, unknown>)[k] !== undefined).map(([k, key]) => [key, (args.metadata as Record<string, unknown>)[k]]));
      await updatePackMetadata(ctx, { name: args.name, metadata });
      return { name: args.name.trim(), ...(await showPack(ctx, { name: args.name, page: 1, page_size: 30 })) };
    },
  }),
  deleteEmojiPack: t.boolean({
    ...accessOf(deletePack),
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deletePack(ctx, { name: args.name });
      return true;
    },
  }),
  reloadEmoji: t.boolean({
    ...accessOf(reloadEmoji),
    resolve: async (_r, _a, ctx) => {
      await reloadEmoji(ctx, {});
      return true;
    },
  }),
}));

/** A multipart upload (the GraphQL multipart request spec, as graphql-yoga reads it): a web File. */
export const FileScalar = builder.scalarType("File", {
  description: "An uploaded file (multipart request)",
  serialize: () => {
    throw new TypeError("File is an input-only scalar");
  },
  parseValue: (v) => {
    if (!v || typeof v !== "object" || typeof (v as File).arrayBuffer !== "function") throw new TypeError("File: expected an uploaded file");
    return v as File;
  },
});

const fileMap = (files: Record<string, string>) => Object.entries(files).map(([shortcode, filename]) => ({ shortcode, filename }));

builder.queryFields((t) => ({
  remoteEmojiPacksJson: t.string({
    ...accessOf(listRemotePacks),
    description: "Another instance's packs as it lists them (`{packs, count}`), JSON-encoded: its shape is the remote's",
    args: { url: t.arg.string({ required: true }), page: t.arg.int(), pageSize: t.arg.int() },
    resolve: async (_r, a, ctx) => JSON.stringify(await listRemotePacks(ctx, { url: a.url, page: a.page ?? undefined, page_size: a.pageSize ?? undefined })),
  }),
}));

builder.mutationFields((t) => ({
  importEmojiPacks: t.stringList({
    ...accessOf(importPacks),
    description: "Writes a pack.json for each pack folder copied onto the disk without one; answers their names",
    resolve: (_r, _a, ctx) => importPacks(ctx, {}),
  }),
  downloadEmojiPack: t.boolean({
    ...accessOf(downloadPack),
    description: "Copies another instance's pack `name` here (as `as`)",
    args: { url: t.arg.string({ required: true }), name: t.arg.string({ required: true }), as: t.arg.string() },
    resolve: async (_r, a, ctx) => (await downloadPack(ctx, { url: a.url, name: a.name, as: a.as ?? undefined }), true),
  }),
  addEmoji: t.field({
    ...accessOf(addPackFile),
    type: [EmojiFile],
    description: "Adds an image (an uploaded `file`, a zip of images, or the image at `url`) to a pack; answers its files",
    args: { pack: t.arg.string({ required: true }), file: t.arg({ type: FileScalar }), url: t.arg.string(), shortcode: t.arg.string(), filename: t.arg.string() },
    resolve: async (_r, a, ctx) => {
      if (!a.file && !a.url) throw Invalid("Missing field: file.", { file: "Missing field: file." });
      const file = a.file
        ? { buffer: Buffer.from(await a.file.arrayBuffer()), mimetype: a.file.type, originalname: a.file.name, size: a.file.size }
        : a.url!;
      return fileMap(await addPackFile(ctx, { name: a.pack, file, shortcode: a.shortcode ?? undefined, filename: a.filename ?? undefined }));
    },
  }),
  renameEmoji: t.field({
    ...accessOf(updatePackFile),
    type: [EmojiFile],
    description: "Renames an emoji and/or its file; `force` overwrites a used shortcode or file",
    args: { pack: t.arg.string({ required: true }), shortcode: t.arg.string({ required: true }), newShortcode: t.arg.string({ required: true }), newFilename: t.arg.string({ required: true }), force: t.arg.boolean() },
    resolve: async (_r, a, ctx) =>
      fileMap(await updatePackFile(ctx, { name: a.pack, shortcode: a.shortcode, new_shortcode: a.newShortcode, new_filename: a.newFilename, force: a.force ?? undefined })),
  }),
  deleteEmoji: t.field({
    ...accessOf(deletePackFile),
    type: [EmojiFile],
    description: "Removes an emoji and its file from a pack",
    args: { pack: t.arg.string({ required: true }), shortcode: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => fileMap(await deletePackFile(ctx, { name: a.pack, shortcode: a.shortcode })),
  }),
}));
