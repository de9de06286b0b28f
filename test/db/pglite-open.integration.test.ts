// src/db/pglite-open.ts: `npm start` starts PGlite before the server's modules load; the server's open then takes
// that instance (one PGlite, not two), any other URL gets its own, and a start that fails is reported by the open.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPglite, startEmbeddedDatabase } from "../../src/db/pglite-open.ts";
import { waitFor } from "../support/wait.ts";

describe("the embedded database started early", () => {
  it("is the instance the open of the same URL gets, once; other URLs and later opens get their own", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-pglite-open-"));
    const url = `pglite:${path.join(dir, "db")}`;
    try {
      expect(startEmbeddedDatabase("postgresql://postgres@127.0.0.1:5432/none")).toBeUndefined(); // PostgreSQL: nothing to start
      const started = startEmbeddedDatabase(url)!;
      expect(startEmbeddedDatabase(url)).toBeUndefined(); // one early start
      // it runs by itself: the database directory is made before anything opens it
      const dbDir = path.join(dir, "db");
      await waitFor(() => fs.existsSync(path.join(dbDir, "PG_VERSION")), `${dbDir}/PG_VERSION to be made`, { timeoutMs: 10_000, intervalMs: 50 });
      const other = await openPglite("pglite:memory://other");
      const early = await openPglite(url);
      expect(early).toBe(await started);
      expect(other).not.toBe(early);
      expect((await early.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await other.close();
      await early.close();
      // taken once: the next open of the same URL is a new instance (the first is closed)
      const again = await openPglite(url);
      expect(again).not.toBe(early);
      expect((await again.query<{ two: number }>("SELECT 2 AS two")).rows).toEqual([{ two: 2 }]);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // three PGlite starts: several seconds each on a loaded 2-core machine

  it("a start that fails is reported by the open, not as an unhandled rejection before it", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ext-pglite-open-")), "a-file");
    fs.writeFileSync(file, "not a directory");
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      startEmbeddedDatabase(`pglite:${file}/db`);
      // time is the behaviour: the failing start is left unobserved a while (awaiting it would observe it)
      await new Promise((r) => setTimeout(r, 300));
      await expect(openPglite(`pglite:${file}/db`)).rejects.toThrow();
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
