// Zip archives of packs (fflate). Archives are deterministic (fixed timestamps, sorted entries), so
// the sha256 a listing advertises matches the archive fetched later. Reading never trusts an entry
// name: only names the caller expects are extracted, and unsafe names refuse the whole archive.
import { unzipSync, zipSync, type Zippable } from "fflate";
import { Invalid } from "../errors.ts";

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

/**
 * The entries of `data` that `want` accepts, with their contents. Any entry with an unsafe name
 * (`../x`, `/etc/x`, `C:\x`) refuses the archive; directories are skipped. The declared sizes of what
 * is extracted may not exceed `maxBytes` in total.
 */
export function readZip(data: Uint8Array, want: (name: string) => boolean, maxBytes: number): Map<string, Uint8Array> {
  let total = 0;
  let unsafe: string | null = null;
  let files;
  try {
    files = unzipSync(data, {
      filter: (file) => {
        if (file.name.endsWith("/")) return false;
        if (!isSafeEntryName(file.name)) {
          unsafe ??= file.name;
          return false;
        }
        if (!want(file.name)) return false;
        total += file.originalSize;
        return total <= maxBytes;
      },
    });
  } catch (error) {
    throw Invalid(`Not a readable zip archive: ${(error as Error).message}`);
  }
  if (unsafe !== null) throw Invalid(`Refused archive: the entry ${JSON.stringify(unsafe)} would be written outside the pack folder`);
  if (total > maxBytes) throw Invalid(`Refused archive: its files exceed ${maxBytes} bytes`);
  return new Map(Object.entries(files));
}
