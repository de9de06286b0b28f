// Zip archives of packs (fflate). Archives are deterministic (fixed timestamps, sorted entries), so
// the sha256 a listing advertises matches the archive fetched later. Reading never trusts an entry
// name: only names the caller expects are extracted, and unsafe names refuse the whole archive.
import { Unzip, UnzipInflate, zipSync, type Zippable } from "fflate";
import { Invalid, Unprocessable } from "../../kernel/errors.ts";

const FIXED_TIME = new Date(1980, 0, 1);

export function isZip(data: Uint8Array): boolean {
  return data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04;
}

export function makeZip(entries: Record<string, Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  for (const name of Object.keys(entries).sort()) zippable[name] = [entries[name], { level: 0, mtime: FIXED_TIME }];
  return zipSync(zippable);
}

/** A relative path that cannot leave the folder it is extracted to (before any further name rules). */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.startsWith("/") || name.includes("\\") || name.includes("\0") || /^[A-Za-z]:/.test(name)) return false;
  return name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** Compressed bytes fed to the inflater at a time: deflate expands at most ~1032×, so one step stays bounded. */
const STEP = 16 * 1024;

/**
 * Entries an archive may hold (files, whether wanted or not). An emoji pack of a thousand images is
 * already a large one; past that, an archive of tiny entries costs a callback, a name check and an
 * image sniff each for nothing the pack needs, so it is refused before any is written.
 */
export const MAX_ZIP_ENTRIES = 1000;

export interface ZipErrors {
  /** entries allowed (default MAX_ZIP_ENTRIES); `tooMany` is the error past it */
  maxEntries?: number;
  tooMany?: (maxEntries: number) => Error;
  unsafe?: (name: string) => Error;
  tooLarge?: (maxBytes: number) => Error;
  unreadable?: (message: string) => Error;
}

/**
 * The entries of `data` that `want` accepts, with their contents. More than `maxEntries` files refuse the
 * archive (counted as they stream past, whether wanted or not). Any entry with an unsafe name
 * (`../x`, `/etc/x`, `C:\x`) refuses the archive; directories are skipped. What is extracted may not
 * exceed `maxBytes` in total: declared sizes are checked before inflating, and the bytes actually
 * inflated are counted as they come (a zip bomb lies about its sizes), so the archive is refused as
 * soon as it passes the limit, without ever holding more than the limit and one step.
 */
export function readZip(data: Uint8Array, want: (name: string) => boolean, maxBytes: number, errors: ZipErrors = {}): Map<string, Uint8Array> {
  const unsafe = errors.unsafe ?? ((name) => Invalid(`Refused archive: the entry ${JSON.stringify(name)} would be written outside the pack folder`));
  const tooLarge = errors.tooLarge ?? ((max) => Invalid(`Refused archive: its files exceed ${max} bytes`));
  const unreadable = errors.unreadable ?? ((message) => Invalid(`Not a readable zip archive: ${message}`));
  const maxEntries = errors.maxEntries ?? MAX_ZIP_ENTRIES;
  const tooMany = errors.tooMany ?? ((max) => Unprocessable(`Refused archive: it holds more than ${max} files`));
  if (!isZip(data)) throw unreadable("invalid zip data");
  const files = new Map<string, Uint8Array[]>();
  let total = 0;
  let entries = 0;
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (failure || file.name.endsWith("/")) return;
    if (++entries > maxEntries) return void (failure = tooMany(maxEntries));
    if (!isSafeEntryName(file.name)) return void (failure = unsafe(file.name));
    if (!want(file.name)) return;
    if (total + (file.originalSize ?? 0) > maxBytes) return void (failure = tooLarge(maxBytes));
    const chunks: Uint8Array[] = [];
    files.set(file.name, chunks);
    file.ondata = (err, chunk) => {
      if (failure) return;
      if (err) return void (failure = unreadable(err.message));
      total += chunk.length;
      if (total > maxBytes) {
        failure = tooLarge(maxBytes);
        file.terminate();
        return;
      }
      chunks.push(chunk);
    };
    try {
      file.start();
    } catch (error) {
      failure = unreadable((error as Error).message); // an unsupported compression method
    }
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < data.length && !failure; at += STEP) unzip.push(data.subarray(at, at + STEP), at + STEP >= data.length);
  } catch (error) {
    failure ??= unreadable((error as Error).message);
  }
  if (failure) throw failure;
  return new Map([...files].map(([name, chunks]) => [name, concat(chunks)]));
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
