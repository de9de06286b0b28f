// A start with every migration applied does not load Prisma's schema engine (its WebAssembly stays in
// memory for the life of the process: docs/performance.md, "Start-up and idle memory"); anything the
// bookkeeping table does not record as applied and unchanged still goes to the engine.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { schemaEngineLoaded } from "../../src/db/migrate.ts";
import { ctlEntry } from "../support/built.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-migrated-"));
const url = `pglite:${path.join(dataDir, "pglite")}`;

beforeAll(async () => {
  // another process creates and migrates the database, so this one starts with the engine unloaded
  const { BASE_URL: _vite, ...env } = process.env;
  await promisify(execFile)(process.execPath, [ctlEntry, "user", "new", "root", "root@example.test", "--password", "pw-root-1"], { env: { ...env, DATA_DIR: dataDir, LOG_LEVEL: "error" } });
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test("nothing to apply: migrate() answers from _prisma_migrations without the engine; a failed row still reaches it", async () => {
  const database = await openDatabase(url);
  try {
    expect(schemaEngineLoaded()).toBe(false);
    expect(await database.migrate()).toEqual([]);
    expect(schemaEngineLoaded()).toBe(false);
    expect(await database.prisma.account.count({ where: { nickname: "root" } })).toBe(1);

    // a migration recorded as started and never finished: the engine refuses, as it always did
    await database.prisma.$executeRawUnsafe(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ('failed-one', 'x', '20990101000000_failed', now(), 0)`,
    );
    await expect(database.migrate()).rejects.toThrow(/failed migrations/);
    expect(schemaEngineLoaded()).toBe(true);
  } finally {
    await database.close();
  }
});
