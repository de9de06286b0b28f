// Opens the embedded database (PGlite). `startEmbeddedDatabase` lets `npm start` begin that before the server's
// modules are loaded: PGlite's start is reading and compiling its WebAssembly (off the main thread) and
// booting PostgreSQL in it, and loading the server's ~1 s of modules has gaps (file reads) it can run in.
// The server's own open (`openPglite`, from openDatabase) then takes that instance instead of a second one
// (issue 17: PGlite ready in under 3 s; docs/performance.md, "Eleventh round").
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";

let early: { url: string; pglite: Promise<PGlite> } | undefined;

/** whether a database URL names PostgreSQL (else it is PGlite's: `pglite:<dir>`) */
export const isPostgres = (url: string) => /^postgres(ql)?:/.test(url);

/**
 * Starts PGlite for `url` now (nothing for PostgreSQL, or when one was started already); the next `openPglite(url)`
 * gets this instance. Returns the instance's start, for tests.
 */
export function startEmbeddedDatabase(url: string): Promise<PGlite> | undefined {
  if (isPostgres(url) || early) return undefined;
  const pglite = newPglite(url);
  // a failure is the open's to report, when openDatabase awaits it; until then it is not unhandled
  pglite.catch(() => {});
  early = { url, pglite };
  return pglite;
}

/**
 * PGlite for `url` (`pglite:<dir>` or `pglite:memory://…`): the instance started early for it, else a new one.
 * `pglite:memory://?loadDataDir=<file>` starts the in-memory database from a data directory PGlite dumped
 * (`dumpDataDir()`): the tests' already-migrated databases (test/support/databases.ts).
 */
export function openPglite(url: string): Promise<PGlite> {
  if (early?.url === url) {
    const { pglite } = early;
    early = undefined;
    return pglite;
  }
  return newPglite(url);
}

async function newPglite(url: string): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  let dir = url.replace(/^pglite:/, "");
  let loadDataDir: Blob | undefined;
  if (dir.startsWith("memory://")) {
    const query = dir.indexOf("?");
    const from = query < 0 ? null : new URLSearchParams(dir.slice(query + 1)).get("loadDataDir");
    if (from) loadDataDir = new Blob([fs.readFileSync(from)]);
    if (query >= 0) dir = dir.slice(0, query);
  } else fs.mkdirSync(dir, { recursive: true }); // PGlite does not create parents
  // PostgreSQL's default buffer pool (128 MB) is sized for a database server with the machine to itself;
  // inside this process it is WebAssembly memory that, once touched, is never given back. 16 MB holds
  // a small instance's hot pages (the rest comes from the OS's file cache) and cut the resident memory
  // by about 110 MB (docs/performance.md, "Start-up and idle memory").
  const pglite = new PGlite(dir, { loadDataDir, startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] });
  await pglite.waitReady;
  return pglite;
}
