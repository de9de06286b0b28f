// Emoji packs on disk: DATA_DIR/emoji/packs/<name>/pack.json plus the image files it names. Every
// name that arrives from outside (pack names, file names, zip entries, a remote pack's file map) is
// validated here and resolved inside the pack folder before anything is read or written.
import fs from "node:fs";
import path from "node:path";
import type { Settings } from "../../config/env.ts";
import { Invalid } from "../../kernel/errors.ts";

/** The metadata keys of `pack.json` → `pack` (the spec's list); other keys found on disk are kept as they are. */
export const META_KEYS = ["license", "homepage", "description", "fallback-src", "fallback-src-sha256", "share-files"] as const;

export interface PackMeta {
  license?: string;
  homepage?: string;
  description?: string;
  "fallback-src"?: string;
  "fallback-src-sha256"?: string;
  "share-files"?: boolean;
  [key: string]: unknown;
}

export interface Pack {
  name: string;
  dir: string;
  /** shortcode → file name relative to the pack folder */
  files: Record<string, string>;
  pack: PackMeta;
}

/** Image types an emoji file may have; anything a browser could run as a document (svg, html) is refused. */
export const EMOJI_EXTENSIONS = [".png", ".apng", ".gif", ".jpg", ".jpeg", ".webp", ".avif"];

const PACK_NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.+ -]{0,99}$/u;
const PATH_SEGMENT = /^[\p{L}\p{N}_][\p{L}\p{N}_.+ -]{0,199}$/u;
/** shortcodes as `:shortcode:` finds them in text */
export const SHORTCODE = /^[A-Za-z0-9_-]{1,100}$/;

export const packsDir = (settings: Pick<Settings, "dataDir">) => path.join(settings.dataDir, "emoji", "packs");

/** `child` resolved under `base`, or an error: the last guard against path escape whatever validated the name. */
export function inside(base: string, child: string): string {
  const resolved = path.resolve(base, child);
  if (!resolved.startsWith(path.resolve(base) + path.sep)) throw Invalid(`Invalid path: ${child}`);
  return resolved;
}

/** A pack name is one path component: letters, digits, `_ . + -` and spaces, not starting with a dot. */
export function checkPackName(raw: string): string {
  const name = raw.trim();
  if (!name) throw Invalid("pack name cannot be empty");
  if (!PACK_NAME.test(name) || name.endsWith(".")) throw Invalid(`Invalid pack name: ${JSON.stringify(name)}`);
  return name;
}

/** A file name relative to its pack: safe components separated by "/", an image extension, never pack.json. */
export function isValidFileName(name: string): boolean {
  if (!name || name.length > 500 || name.includes("\\") || name.includes("\0")) return false;
  const parts = name.split("/");
  if (!parts.every((p) => PATH_SEGMENT.test(p) && !p.endsWith("."))) return false;
  return EMOJI_EXTENSIONS.includes(path.extname(name).toLowerCase());
}

export function checkFileName(name: string): string {
  if (!isValidFileName(name)) throw Invalid(`Invalid file name: ${JSON.stringify(name)} (a relative path ending in ${EMOJI_EXTENSIONS.join(", ")})`);
  return name;
}

export function checkShortcode(code: string): string {
  if (!SHORTCODE.test(code) || code === "__proto__") throw Invalid(`Invalid shortcode: ${JSON.stringify(code)} (letters, digits, "_" and "-")`);
  return code;
}

export function packDir(settings: Pick<Settings, "dataDir">, name: string): string {
  return inside(packsDir(settings), checkPackName(name));
}

export function packFilePath(pack: Pick<Pack, "dir">, file: string): string {
  return inside(pack.dir, checkFileName(file));
}

/** The folders under packs/, sorted (created on first use). */
export function packNames(settings: Pick<Settings, "dataDir">): string[] {
  const dir = packsDir(settings);
  fs.mkdirSync(dir, { recursive: true });
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && PACK_NAME.test(d.name))
    .map((d) => d.name)
    .sort();
}

/** The pack named `name`, or null when its folder or pack.json is missing. A broken pack.json is an error. */
export function readPack(settings: Pick<Settings, "dataDir">, name: string): Pack | null {
  const dir = packDir(settings, name);
  let raw: string;
  try {
    raw = fs.readFileSync(path.join(dir, "pack.json"), "utf8");
  } catch {
    return null;
  }
  const data = JSON.parse(raw) as { files?: unknown; pack?: unknown };
  const files: Record<string, string> = {};
  if (data.files && typeof data.files === "object")
    for (const [code, file] of Object.entries(data.files as Record<string, unknown>)) if (typeof file === "string" && code !== "__proto__") files[code] = file;
  const pack = data.pack && typeof data.pack === "object" ? (data.pack as PackMeta) : {};
  return { name: checkPackName(name), dir, files, pack };
}

/** Writes pack.json through a temporary file, so a reader never sees half of it. */
export function writePack(pack: Pack): void {
  fs.mkdirSync(pack.dir, { recursive: true });
  const file = path.join(pack.dir, "pack.json");
  const tmp = `${file}.${process.pid}.tmp`;
  const sorted = Object.fromEntries(Object.entries(pack.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  fs.writeFileSync(tmp, JSON.stringify({ files: sorted, pack: pack.pack }, null, 2) + "\n");
  fs.renameSync(tmp, file);
}

/** Only the spec's metadata keys, with their types checked (a remote pack's or a request's). */
export function cleanMeta(input: Record<string, unknown>): PackMeta {
  const out: PackMeta = {};
  for (const key of META_KEYS) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (key === "share-files") {
      if (typeof value !== "boolean") throw Invalid("share-files must be a boolean");
      out[key] = value;
    } else {
      if (typeof value !== "string") throw Invalid(`${key} must be a string`);
      out[key] = value;
    }
  }
  return out;
}

/** Serialises the writers of one data folder: a pack.json is read, changed and written without interleaving. */
const locks = new Map<string, Promise<unknown>>();
export function withPackLock<T>(settings: Pick<Settings, "dataDir">, fn: () => Promise<T>): Promise<T> {
  const key = settings.dataDir;
  const run = (locks.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  void tail.then(() => locks.get(key) === tail && locks.delete(key));
  return run;
}
