// The files of a pack (admin): add (an upload, a zip of images, or a remote URL fetched through the
// guarded fetcher), rename (shortcode and/or file, `force` to overwrite) and delete. Each answers the
// pack's updated file map and reloads the registry.
import { logAction } from "../moderation-log/log.ts";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { detectImageType, type Upload } from "../../media/storage.ts";
import { guardedFetch } from "../../net/guarded-fetch.ts";
import type { Ctx } from "../context.ts";
import { Conflict, Invalid, NotFound, Unprocessable, UpstreamFailure } from "../../kernel/errors.ts";
import { bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { checkFileName, checkPackName, checkShortcode, EMOJI_EXTENSIONS, inside, isValidFileName, packFilePath, readPack, SHORTCODE, withPackLock, writePack, type Pack } from "./pack-store.ts";
import { reloadRegistry } from "./packs.ops.ts";
import { emojiRegistry } from "./registry.ts";
import { isZip, readZip } from "./zip.ts";

function packOrNotFound(ctx: Ctx, rawName: string): Pack {
  const name = checkPackName(rawName);
  const pack = readPack(ctx.settings, name);
  if (!pack) throw NotFound(`pack "${name}" is not found`);
  return pack;
}

/** Taken by any pack of the instance (the registry) or by this pack's own map. */
function shortcodeTaken(ctx: Ctx, pack: Pack, code: string): boolean {
  return emojiRegistry(ctx).has(code) || Object.hasOwn(pack.files, code);
}

function writeFile(pack: Pack, file: string, data: Uint8Array) {
  const target = packFilePath(pack, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, data);
}

/** Removes a file and the sub-folder it leaves empty (never the pack folder itself). */
function removeFile(pack: Pack, file: string) {
  const target = packFilePath(pack, file);
  fs.rmSync(target, { force: true });
  const dir = path.dirname(target);
  if (dir !== path.resolve(pack.dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

const shortcodeOf = (file: string) => path.basename(file, path.extname(file));

function checkImage(data: Uint8Array, file: string) {
  if (!detectImageType(Buffer.from(data))) throw Invalid(`${file} is not an image (png, jpeg, gif, webp or avif)`);
}

/**
 * A zip of images: each entry whose shortcode is free is added under its path in the archive, as the
 * family does. Only images are kept, by their bytes (an entry named `.png` that is not one is left out);
 * an archive of more than MAX_ZIP_ENTRIES files is refused (zip.ts). Nothing is written before every
 * entry is read and checked, so a refused archive leaves the pack as it was.
 */
function addZip(ctx: Ctx, pack: Pack, data: Uint8Array, maxBytes: number) {
  const entries = readZip(data, (n) => EMOJI_EXTENSIONS.includes(path.extname(n).toLowerCase()), maxBytes);
  const kept = new Map<string, [file: string, content: Uint8Array]>(); // by shortcode: the first entry wins
  for (const [file, content] of entries) {
    const code = shortcodeOf(file);
    if (!isValidFileName(file)) throw Invalid(`Invalid file name in the archive: ${JSON.stringify(file)}`);
    if (!SHORTCODE.test(code) || kept.has(code) || shortcodeTaken(ctx, pack, code) || !detectImageType(Buffer.from(content))) continue;
    kept.set(code, [file, content]);
  }
  for (const [code, [file, content]] of kept) {
    writeFile(pack, file, content);
    pack.files[code] = file;
  }
}

export const addPackFile = operation({
  name: "emoji.addFile",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({
    name: z.string(),
    /** an upload, or the URL of an image to fetch */
    file: z.union([z.custom<Upload>((v) => !!v && typeof v === "object" && Buffer.isBuffer((v as Upload).buffer)), z.string()]),
    shortcode: z.string().optional(),
    filename: z.string().optional(),
  }),
  async run(ctx, input): Promise<Record<string, string>> {
    const maxBytes = ctx.config.get("instance", "upload_limit");
    packOrNotFound(ctx, input.name);
    let data: Uint8Array;
    let given: string;
    if (typeof input.file === "string") {
      const res = await guardedFetch(ctx, input.file, { maxBytes });
      if (!res.ok) throw new UpstreamFailure(`Could not fetch ${input.file}: status ${res.status}`);
      data = res.body;
      given = decodeURIComponent(path.posix.basename(new URL(res.url).pathname));
    } else {
      if (input.file.buffer.length > maxBytes) throw Invalid(`file: too large (limit ${maxBytes} bytes)`);
      data = input.file.buffer;
      given = input.file.originalname;
    }
    const done = await withPackLock(ctx.settings, async () => {
      const pack = packOrNotFound(ctx, input.name);
      if (isZip(data)) addZip(ctx, pack, data, maxBytes);
      else {
        const filename = input.filename || given;
        const shortcode = input.shortcode || (filename ? shortcodeOf(filename) : "");
        if (!filename || !shortcode) throw Unprocessable("pack name, shortcode or filename cannot be empty");
        checkShortcode(shortcode);
        checkFileName(filename);
        if (shortcodeTaken(ctx, pack, shortcode)) throw Conflict(`An emoji with the "${shortcode}" shortcode already exists`);
        if (fs.existsSync(packFilePath(pack, filename))) throw Conflict(`A file named "${filename}" already exists in the pack`);
        checkImage(data, filename);
        writeFile(pack, filename, data);
        pack.files[shortcode] = filename;
      }
      writePack(pack);
      reloadRegistry(ctx);
      return pack.files;
    });
    await logAction(ctx, { action: "emoji_file_add", pack: input.name, shortcode: input.shortcode || (isZip(data) ? "(archive)" : shortcodeOf(input.filename || given)) });
    return done;
  },
});

export const updatePackFile = operation({
  name: "emoji.updateFile",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({
    name: z.string(),
    shortcode: z.string(),
    new_shortcode: z.string().optional(),
    new_filename: z.string().optional(),
    force: bool().optional(),
  }),
  async run(ctx, input): Promise<Record<string, string>> {
    const done = await withPackLock(ctx.settings, async () => {
      const pack = packOrNotFound(ctx, input.name);
      const { shortcode, new_shortcode: newCode, new_filename: newFile } = input;
      if (!shortcode || !newCode || !newFile) throw Unprocessable("new_shortcode or new_filename cannot be empty");
      const oldFile = Object.hasOwn(pack.files, shortcode) ? pack.files[shortcode] : undefined;
      if (oldFile === undefined || !isValidFileName(oldFile) || !fs.existsSync(inside(pack.dir, oldFile))) throw Invalid(`Emoji "${shortcode}" does not exist`);
      checkShortcode(newCode);
      checkFileName(newFile);
      if (newCode !== shortcode && shortcodeTaken(ctx, pack, newCode) && !input.force)
        throw Conflict(`New shortcode "${newCode}" is already used. If you want to override emoji use 'force' option`);
      if (newFile !== oldFile) {
        const target = packFilePath(pack, newFile);
        if (fs.existsSync(target) && !input.force) throw Conflict(`A file named "${newFile}" already exists in the pack. If you want to override it use 'force' option`);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(inside(pack.dir, oldFile), target);
        const oldDir = path.dirname(inside(pack.dir, oldFile));
        if (oldDir !== path.resolve(pack.dir) && fs.readdirSync(oldDir).length === 0) fs.rmdirSync(oldDir);
      }
      delete pack.files[shortcode];
      pack.files[newCode] = newFile;
      writePack(pack);
      reloadRegistry(ctx);
      return pack.files;
    });
    await logAction(ctx, { action: "emoji_file_update", pack: input.name, shortcode: input.shortcode });
    return done;
  },
});

export const deletePackFile = operation({
  name: "emoji.deleteFile",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({ name: z.string(), shortcode: z.string() }),
  async run(ctx, input): Promise<Record<string, string>> {
    const done = await withPackLock(ctx.settings, async () => {
      if (!input.name.trim() || !input.shortcode) throw Unprocessable("pack name or shortcode cannot be empty");
      const pack = packOrNotFound(ctx, input.name);
      const file = Object.hasOwn(pack.files, input.shortcode) ? pack.files[input.shortcode] : undefined;
      if (file === undefined) throw Invalid(`Emoji "${input.shortcode}" does not exist`);
      delete pack.files[input.shortcode];
      // another shortcode may alias the same image
      if (isValidFileName(file) && !Object.values(pack.files).includes(file)) removeFile(pack, file);
      writePack(pack);
      reloadRegistry(ctx);
      return pack.files;
    });
    await logAction(ctx, { action: "emoji_file_delete", pack: input.name, shortcode: input.shortcode });
    return done;
  },
});
