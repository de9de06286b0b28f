// Custom emoji and emoji packs: the same operations as the REST routes (reading is public; pack
// changes and the reload need an admin holding `admin:write`).
import { listCustomEmoji, reloadEmoji } from "../domain/emoji/emoji.ops.ts";
import { createPack, deletePack, listPacks, packView, showPack, updatePackMetadata, type PackView } from "../domain/emoji/packs.ops.ts";
import { emojiUrl, type CustomEmoji } from "../domain/emoji/registry.ts";
import { privileged } from "./admin-auth.ts";
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
  customEmojis: t.field({ type: [CustomEmojiRef], description: "The instance's custom emoji, in shortcode order", resolve: (_r, _a, ctx) => listCustomEmoji(ctx, {}) }),
  emojiPacks: t.field({
    type: EmojiPackPage,
    args: { page: t.arg.int({ defaultValue: 1 }), pageSize: t.arg.int({ defaultValue: 50 }) },
    resolve: async (_r, args, ctx) => {
      const { packs, count } = await listPacks(ctx, { page: args.page ?? 1, page_size: args.pageSize ?? 50 });
      return { packs: Object.entries(packs).map(([name, p]) => ({ name, ...p })), count };
    },
  }),
  emojiPack: t.field({
    type: EmojiPackRef,
    args: { name: t.arg.string({ required: true }), page: t.arg.int({ defaultValue: 1 }), pageSize: t.arg.int({ defaultValue: 30 }) },
    resolve: async (_r, args, ctx) => ({ name: args.name.trim(), ...(await showPack(ctx, { name: args.name, page: args.page ?? 1, page_size: args.pageSize ?? 30 })) }),
  }),
}));

const adminWrite = privileged("emoji_manage_emoji", "admin:write");

builder.mutationFields((t) => ({
  createEmojiPack: t.field({
    ...adminWrite,
    type: EmojiPackRef,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const pack = await createPack(ctx, { name: args.name });
      return { name: pack.name, ...packView(pack) };
    },
  }),
  updateEmojiPackMetadata: t.field({
    ...adminWrite,
    type: EmojiPackRef,
    args: { name: t.arg.string({ required: true }), metadata: t.arg({ type: EmojiPackMetadataInput, required: true }) },
    resolve: async (_r, args, ctx) => {
      const metadata = Object.fromEntries(Object.entries(KEYS).filter(([k]) => (args.metadata as Record<string, unknown>)[k] !== undefined).map(([k, key]) => [key, (args.metadata as Record<string, unknown>)[k]]));
      await updatePackMetadata(ctx, { name: args.name, metadata });
      return { name: args.name.trim(), ...(await showPack(ctx, { name: args.name, page: 1, page_size: 30 })) };
    },
  }),
  deleteEmojiPack: t.boolean({
    ...adminWrite,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deletePack(ctx, { name: args.name });
      return true;
    },
  }),
  reloadEmoji: t.boolean({
    ...adminWrite,
    resolve: async (_r, _a, ctx) => {
      await reloadEmoji(ctx, {});
      return true;
    },
  }),
}));
