// Emoji packs of this instance: list, show, archive (public) and create, update metadata, delete,
// import from disk (admin). Every change reloads the in-memory registry.
import { logAction } from "../moderation-log/log.ts";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { guardedFetch } from "../../net/guarded-fetch.ts";
import type { Ctx } from "../context.ts";
import { Conflict, DomainError, Forbidden, Invalid, NotFound, UpstreamFailure } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { isDownloadable, packArchive, sha256Hex } from "./archive.ts";
import { checkPackName, EMOJI_EXTENSIONS, isValidFileName, META_KEYS, packDir, packNames, packsDir, readPack, SHORTCODE, withPackLock, writePack, type Pack, type PackMeta } from "./pack-store.ts";
import { loadEmojiRegistry } from "./registry.ts";
import { readZip } from "./zip.ts";

/** A local failure (the pack folder cannot be read, written or removed): REST answers 500, as the family. */
export class PackFailure extends DomainError {
  constructor(message: string) {
    super("unprocessable", message);
  }
}

/** The pack as the API shows it: `pack` gains `can-download` and, when it can, the archive's `download-sha256`. */
export interface PackView {
  files: Record<string, string>;
  files_count: number;
  pack: PackMeta & { "can-download": boolean; "download-sha256"?: string };
}

export function packView(pack: Pack, files: Record<string, string> = pack.files): PackView {
  const info = isDownloadable(pack) ? { ...pack.pack, "can-download": true, "download-sha256": packArchive(pack).sha256 } : { ...pack.pack, "can-download": false };
  return { files, files_count: Object.keys(pack.files).length, pack: info };
}

/** The pack, or the family's 404. */
export function loadPack(ctx: Ctx, rawName: string): Pack {
  const name = checkPackName(rawName);
  const pack = readOrFail(ctx, name);
  if (!pack) throw NotFound(`Pack ${name} does not exist`);
  return pack;
}

function readOrFail(ctx: Ctx, name: string): Pack | null {
  try {
    return readPack(ctx.settings, name);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new PackFailure(`Failed to read the ${name} pack: ${(error as Error).message}`);
  }
}

/** Rescans the packs here, and tells the other processes to do the same. */
export function reloadRegistry(ctx: Ctx) {
  loadEmojiRegistry(ctx.settings);
  ctx.bus.publish("emoji_changed", {});
}

const paging = (pageSize: number) => ({ page: int().pipe(z.number().min(1)).default(1), page_size: int().pipe(z.number().min(1)).default(pageSize) });

/** `{packs: {name: pack}, count}`, packs in name order, `page_size` 50 by default. */
export const listPacks = operation({
  name: "emoji.listPacks",
  access: "public",
  input: z.object(paging(50)),
  async run(ctx, input): Promise<{ packs: Record<string, PackView>; count: number }> {
    const all = packNames(ctx.settings)
      .map((name) => {
        try {
          return readPack(ctx.settings, name);
        } catch {
          return null; // a broken pack.json is left out, as the family does
        }
      })
      .filter((p): p is Pack => !!p);
    const start = (input.page - 1) * input.page_size;
    const page = all.slice(start, start + input.page_size);
    return { packs: Object.fromEntries(page.map((p) => [p.name, packView(p)])), count: all.length };
  },
});

/** One pack with a page of its files (shortcode order, `page_size` 30 by default). */
export const showPack = operation({
  name: "emoji.showPack",
  access: "public",
  input: z.object({ name: z.string(), ...paging(30) }),
  async run(ctx, input): Promise<PackView> {
    const pack = loadPack(ctx, input.name);
    const codes = Object.keys(pack.files).sort();
    const start = (input.page - 1) * input.page_size;
    const files = Object.fromEntries(codes.slice(start, start + input.page_size).map((c) => [c, pack.files[c]]));
    return packView(pack, files);
  },
});

/** The zip of a shared pack; 403 when it is not shared (or files are missing), 404 when it does not exist. */
export const getPackArchive = operation({
  name: "emoji.packArchive",
  access: "public",
  input: z.object({ name: z.string() }),
  async run(ctx, input): Promise<{ filename: string; zip: Uint8Array }> {
    const pack = loadPack(ctx, input.name);
    if (!isDownloadable(pack))
      throw Forbidden(`Pack ${pack.name} cannot be downloaded from this instance, either pack sharing was disabled for this pack or some files are missing`);
    return { filename: `${pack.name}.zip`, zip: packArchive(pack).zip };
  },
});

export const createPack = operation({
  name: "emoji.createPack",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({ name: z.string() }),
  async run(ctx, input): Promise<Pack> {
    const name = checkPackName(input.name);
    const dir = packDir(ctx.settings, name);
    const done = await withPackLock(ctx.settings, async () => {
      fs.mkdirSync(packsDir(ctx.settings), { recursive: true });
      try {
        fs.mkdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") throw Conflict(`A pack named "${name}" already exists`);
        throw new PackFailure(`Unexpected error occurred while creating pack. ${(error as Error).message}`);
      }
      const pack: Pack = { name, dir, files: {}, pack: {} };
      writePack(pack);
      return pack;
    });
    await logAction(ctx, { action: "emoji_pack_create", pack: name });
    return done;
  },
});

const metadataInput = z.record(z.string(), z.unknown());

/** Checks the metadata keys it knows; `null` removes a key. */
function mergeMeta(current: PackMeta, changes: Record<string, unknown>): PackMeta {
  const next: PackMeta = { ...current };
  for (const key of META_KEYS) {
    if (!(key in changes)) continue;
    const value = changes[key];
    if (value === null) delete next[key];
    else if (key === "share-files") {
      const flag = value === "true" ? true : value === "false" ? false : value;
      if (typeof flag !== "boolean") throw Invalid("share-files must be a boolean");
      next[key] = flag;
    } else {
      if (typeof value !== "string") throw Invalid(`${key} must be a string`);
      next[key] = value;
    }
  }
  return next;
}

/**
 * Updates the pack's metadata and answers it. A new `fallback-src` is fetched (through the guarded
 * fetcher) and must hold every file of the pack (400 otherwise); its sha256 becomes `fallback-src-sha256`.
 */
export const updatePackMetadata = operation({
  name: "emoji.updatePackMetadata",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({ name: z.string(), metadata: metadataInput }),
  async run(ctx, input): Promise<PackMeta> {
    const current = loadPack(ctx, input.name);
    const next = mergeMeta(current.pack, input.metadata);
    const src = next["fallback-src"];
    if (typeof src === "string" && src && src !== current.pack["fallback-src"]) {
      const res = await guardedFetch(ctx, src);
      if (!res.ok) throw new UpstreamFailure(`Could not fetch the fallback archive ${src}: status ${res.status}`);
      const wanted = new Set(Object.values(current.files));
      const found = readZip(res.body, (n) => wanted.has(n), ctx.config.get("http", "max_body_bytes") * 4);
      if ([...wanted].some((f) => !found.has(f))) throw Invalid("The fallback archive does not have all files specified in pack.json");
      next["fallback-src-sha256"] = sha256Hex(res.body);
    }
    const done = await withPackLock(ctx.settings, async () => {
      const pack = loadPack(ctx, input.name);
      pack.pack = next;
      writePack(pack);
      return next;
    });
    await logAction(ctx, { action: "emoji_pack_update", pack: input.name });
    return done;
  },
});

export const deletePack = operation({
  name: "emoji.deletePack",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({ name: z.string() }),
  async run(ctx, input): Promise<void> {
    const name = checkPackName(input.name);
    const dir = packDir(ctx.settings, name);
    await withPackLock(ctx.settings, async () => {
      if (!fs.existsSync(dir)) throw NotFound(`Pack ${name} does not exist`);
      try {
        fs.rmSync(dir, { recursive: true });
      } catch (error) {
        throw new PackFailure(`Couldn't delete the \`${name}\` pack ${(error as Error).message}`);
      }
      reloadRegistry(ctx);
    });
    await logAction(ctx, { action: "emoji_pack_delete", pack: name });
  },
});

/** shortcode → file from an emoji.txt ("shortcode, file[, tags]" per line) or from the image files found. */
function filesOnDisk(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const txt = path.join(dir, "emoji.txt");
  if (fs.existsSync(txt)) {
    for (const line of fs.readFileSync(txt, "utf8").split("\n")) {
      const [code, file] = line.trim().split(/,\s*/);
      if (!code || !file) continue;
      // emoji.txt of older installs names files by their public path (/emoji/<pack>/x.png)
      const name = file.startsWith("/") ? path.basename(file) : file;
      if (SHORTCODE.test(code) && isValidFileName(name) && fs.existsSync(path.join(dir, name))) files[code] = name;
    }
    return files;
  }
  const walk = (sub: string, depth: number) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory() && depth < 2) walk(rel, depth + 1);
      else if (entry.isFile() && EMOJI_EXTENSIONS.includes(path.extname(entry.name).toLowerCase()) && isValidFileName(rel)) {
        const code = path.basename(entry.name, path.extname(entry.name));
        if (SHORTCODE.test(code) && !(code in files)) files[code] = rel;
      }
    }
  };
  walk("", 0);
  return files;
}

/** Writes a pack.json for every pack folder that has none (copied onto the disk by hand); answers their names. */
export const importPacks = operation({
  name: "emoji.importPacks",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({}),
  async run(ctx): Promise<string[]> {
    const done = await withPackLock(ctx.settings, async () => {
      const imported: string[] = [];
      for (const name of packNames(ctx.settings)) {
        const dir = packDir(ctx.settings, name);
        if (fs.existsSync(path.join(dir, "pack.json"))) continue;
        writePack({ name, dir, files: filesOnDisk(dir), pack: {} });
        imported.push(name);
      }
      reloadRegistry(ctx);
      return imported;
    });
    await logAction(ctx, { action: "emoji_pack_import", packs: done });
    return done;
  },
});
