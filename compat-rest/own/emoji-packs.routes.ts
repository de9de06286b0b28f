// The family's custom emoji API: the emoji map, and emoji packs (reading is public; writing, imports,
// remote listing and downloads need an admin). Codes are the family's: 400 bad input, 403 archive
// not shared, 404 missing pack, 409 existing pack or shortcode, 422 empty values, 500 local failures
// (a folder that cannot be written or removed); another server that cannot be used is 502 and a URL the
// guarded fetcher refuses 400, each with a message (the family answers 500 for both). Every path also answers under /api/<ns>/, as pleroma-fe calls some there.
import { z } from "zod";
import { listCustomEmoji } from "../../src/domain/emoji/emoji.ops.ts";
import { addPackFile, deletePackFile, updatePackFile } from "../../src/domain/emoji/files.ops.ts";
import { createPack, deletePack, getPackArchive, importPacks, listPacks, PackFailure, showPack, updatePackMetadata } from "../../src/domain/emoji/packs.ops.ts";
import { downloadPack, listRemotePacks } from "../../src/domain/emoji/remote.ops.ts";
import { Invalid, type DomainError } from "../../src/kernel/errors.ts";
import { route, type ErrorShape, type RouteDef } from "../../src/http/routes/route.ts";
import { EmojiMapSchema, OkSchema } from "../../src/views/schemas/misc.ts";
import { EmojiPackSchema, EmojiPacksSchema, ImportedPacksSchema, PackFilesSchema, PackMetaSchema, RemotePacksSchema } from "../../src/views/schemas/tools.ts";

const paths = (p: string) => [`/api/v1/$ns${p}`, `/api/$ns${p}`];
const tags = ["Emoji packs"];

/**
 * Remote failures: a URL the guarded fetcher refuses (private address, not http) is the request's
 * fault (400); a server that cannot be reached, answers an error or sends something unusable is a bad
 * gateway (502); local failures stay 500.
 */
function packErrors(error: DomainError): ErrorShape | undefined {
  // remote failures (GuardedFetchError, UpstreamFailure) take the default shapes: 400 refused, 502 failed
  if (error instanceof PackFailure) return { status: 500, body: { error: error.message } };
  return undefined;
}

const nameParam = z.object({ name: z.string() });

export const emojiPackRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: ["/api/v1/$ns/emoji", "/api/$ns/emoji", "/api/$ns/emoji.json"],
    view: EmojiMapSchema,
    summary: "The custom emoji map: {shortcode: {image_url, tags}}; image_url is a path under the base URL, tags hold `pack:<name>`",
    tags,
    operation: listCustomEmoji,
    async handler(ctx) {
      const all = await listCustomEmoji(ctx, {});
      return Object.fromEntries(all.map((e) => [e.shortcode, { image_url: e.path, tags: e.tags }]));
    },
  }),
  route({
    method: "GET",
    path: paths("/emoji/packs"),
    view: EmojiPacksSchema,
    summary: "The packs of this instance, {packs: {name: pack}, count}, in name order (page default 1, page_size 50)",
    tags,
    operation: listPacks,
    query: listPacks.input,
    errors: packErrors,
    async handler(ctx, { query }) {
      return listPacks(ctx, query);
    },
  }),
  route({
    method: "GET",
    path: paths("/emoji/pack"),
    view: EmojiPackSchema,
    summary: "One pack {files, files_count, pack} with a page of its files in shortcode order (page default 1, page_size 30); 404 when missing",
    tags,
    operation: showPack,
    query: showPack.input,
    errors: packErrors,
    async handler(ctx, { query }) {
      return showPack(ctx, query);
    },
  }),
  route({
    method: "POST",
    path: paths("/emoji/pack"),
    view: OkSchema,
    summary: "Create an empty pack; 409 when it exists, 400 for an empty or unsafe name",
    tags,
    operation: createPack,
    body: nameParam,
    errors: packErrors,
    async handler(ctx, { body }) {
      await createPack(ctx, body);
      return "ok";
    },
  }),
  route({
    method: "PATCH",
    path: paths("/emoji/pack"),
    view: PackMetaSchema,
    summary: "Update a pack's metadata (license, homepage, description, fallback-src, fallback-src-sha256, share-files; null removes a key); answers the metadata. A new fallback-src is fetched and must hold every file (400 otherwise)",
    tags,
    operation: updatePackMetadata,
    body: updatePackMetadata.input,
    errors: packErrors,
    async handler(ctx, { body }) {
      return updatePackMetadata(ctx, body);
    },
  }),
  route({
    method: "DELETE",
    path: paths("/emoji/pack"),
    view: OkSchema,
    summary: "Delete a pack and its files; 404 when missing, 500 when the files cannot be removed",
    tags,
    operation: deletePack,
    body: nameParam,
    errors: packErrors,
    async handler(ctx, { body }) {
      await deletePack(ctx, body);
      return "ok";
    },
  }),
  route({
    method: "GET",
    path: paths("/emoji/packs/import"),
    view: ImportedPacksSchema,
    summary: "Write a pack.json for each pack folder copied onto the disk without one (from its emoji.txt or its image files); answers their names",
    tags,
    operation: importPacks,
    errors: packErrors,
    async handler(ctx) {
      return importPacks(ctx, {});
    },
  }),
  route({
    method: "GET",
    path: paths("/emoji/packs/remote"),
    view: RemotePacksSchema,
    summary: "Another instance's packs, as it lists them (page default 1, page_size 50); 502 when it does not share packs or cannot be used, 400 for a refused URL",
    tags,
    operation: listRemotePacks,
    query: listRemotePacks.input,
    errors: packErrors,
    async handler(ctx, { query }) {
      return listRemotePacks(ctx, query);
    },
  }),
  route({
    method: "POST",
    path: paths("/emoji/packs/download"),
    view: OkSchema,
    summary: "Copy another instance's pack `name` here (as `as`): its shared archive, or its fallback-src, checked against the advertised sha256; 409 when the local name exists, 502 when the remote cannot be used, 400 for a refused URL",
    tags,
    operation: downloadPack,
    body: downloadPack.input,
    errors: packErrors,
    async handler(ctx, { body }) {
      await downloadPack(ctx, body);
      return "ok";
    },
  }),
  route({
    method: "POST",
    path: paths("/emoji/packs/files"),
    view: PackFilesSchema,
    summary: "Add an image (`file`: an upload, a zip of images, or a URL) as `shortcode` (default: the file name without extension) under `filename`; answers the file map. 409 for a used shortcode, 422 for empty values, 404 for a missing pack",
    tags,
    operation: addPackFile,
    files: ["file"],
    body: z.object({ name: z.string(), file: z.string().optional(), shortcode: z.string().optional(), filename: z.string().optional() }),
    errors: packErrors,
    async handler(ctx, { body, files }) {
      const file = files.file?.[0] ?? body.file;
      if (!file) throw Invalid("Missing field: file.", { file: "Missing field: file." });
      return addPackFile(ctx, { ...body, file });
    },
  }),
  route({
    method: "PATCH",
    path: paths("/emoji/packs/files"),
    view: PackFilesSchema,
    summary: "Rename an emoji (`new_shortcode`) and/or its file (`new_filename`); `force` overwrites a used shortcode or file; answers the file map. 400 for an unknown emoji, 409 for a used name, 422 for empty values",
    tags,
    operation: updatePackFile,
    body: updatePackFile.input,
    errors: packErrors,
    async handler(ctx, { body }) {
      return updatePackFile(ctx, body);
    },
  }),
  route({
    method: "DELETE",
    path: paths("/emoji/packs/files"),
    view: PackFilesSchema,
    summary: "Remove an emoji and its file; answers the file map. 400 for an unknown emoji, 404 for a missing pack",
    tags,
    operation: deletePackFile,
    body: deletePackFile.input,
    errors: packErrors,
    async handler(ctx, { body }) {
      return deletePackFile(ctx, body);
    },
  }),
  route({
    method: "GET",
    path: paths("/emoji/packs/archive"),
    summary: "The zip of a shared pack (pack.json and its files); 403 when not shared, 404 when missing",
    produces: "application/zip",
    tags,
    operation: getPackArchive,
    query: nameParam,
    response: { description: "application/zip" },
    errors: packErrors,
    async handler(ctx, { query, res }) {
      const { filename, zip } = await getPackArchive(ctx, query);
      res
        .status(200)
        .set({ "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${encodeURIComponent(filename)}"` })
        .send(Buffer.from(zip));
      return undefined;
    },
  }),
];
