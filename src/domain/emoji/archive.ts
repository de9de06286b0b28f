// The zip of a shared pack (pack.json + its files), what other instances download. Built on demand
// and kept in memory while pack.json and the files' sizes and times stay the same.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inside, isValidFileName, type Pack } from "./pack-store.ts";
import { makeZip } from "./zip.ts";

export interface PackArchive {
  zip: Uint8Array;
  /** upper-case hex, as the family writes `download-sha256` */
  sha256: string;
}

const cache = new Map<string, { key: string; archive: PackArchive }>();

function fileNames(pack: Pack): string[] {
  return [...new Set(Object.values(pack.files))].filter(isValidFileName).sort();
}

/** Shared (`share-files`) and every file present: other instances may download it. */
export function isDownloadable(pack: Pack): boolean {
  if (pack.pack["share-files"] !== true) return false;
  const files = Object.values(pack.files);
  return files.every((f) => isValidFileName(f) && fs.existsSync(inside(pack.dir, f)));
}

export const sha256Hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex").toUpperCase();

export function packArchive(pack: Pack): PackArchive {
  const files = fileNames(pack);
  const packJson = fs.readFileSync(path.join(pack.dir, "pack.json"));
  const stamps = files.map((f) => {
    const st = fs.statSync(inside(pack.dir, f));
    return `${f}:${st.size}:${st.mtimeMs}`;
  });
  const key = sha256Hex(Buffer.concat([packJson, Buffer.from(stamps.join("\n"))]));
  const id = pack.dir;
  const hit = cache.get(id);
  if (hit?.key === key) return hit.archive;
  const entries: Record<string, Uint8Array> = { "pack.json": packJson };
  for (const f of files) entries[f] = fs.readFileSync(inside(pack.dir, f));
  const zip = makeZip(entries);
  const archive = { zip, sha256: sha256Hex(zip) };
  cache.set(id, { key, archive });
  return archive;
}
