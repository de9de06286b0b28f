// The tests' databases (test/support/databases.ts): a fresh one is a copy of a migrated template
// (PostgreSQL) or a migrated PGlite snapshot, so the server's start finds nothing to migrate; an empty one
// is still migrated by the server itself, the production path. And which database each test file runs on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, test } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/client.ts";
import { migrationsList } from "../../src/db/migrate.ts";
import { startServer } from "../../src/server.ts";
import { ROOT } from "../support/built.ts";
import { BOTH_DATABASES, DB_KINDS, freshDatabase, suiteKinds } from "../support/databases.ts";

const committed = migrationsList().migrationDirectories.map((d) => d.path);
const recorded = (db: { $queryRawUnsafe<T>(sql: string): Promise<T> }) =>
  db.$queryRawUnsafe<{ migration_name: string }[]>("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name").then((rows) => rows.map((r) => r.migration_name));

// both, always: this file is about the two kinds of test database themselves
describe.each(DB_KINDS)("test databases on %s", (kind) => {
  test("a fresh database starts migrated: the server's migrate step applies nothing", async () => {
    const fresh = await freshDatabase(kind);
    const database = await openDatabase(fresh.url);
    try {
      expect(await recorded(database.prisma)).toEqual(committed);
      expect(await database.migrate()).toEqual([]);
      // and it is a working database of its own, not the template or the snapshot
      await database.prisma.$executeRawUnsafe("CREATE TABLE scratch (x int)");
      const second = await freshDatabase(kind);
      const other = await openDatabase(second.url);
      await expect(other.prisma.$queryRawUnsafe("SELECT * FROM scratch")).rejects.toThrow(/scratch/);
      await other.close();
      await second.drop();
    } finally {
      await database.close();
      await fresh.drop();
    }
  });

  test("an empty database is migrated by the server's own start (the production path)", async () => {
    const empty = await freshDatabase(kind, { migrated: false });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-empty-"));
    try {
      const probe = await openDatabase(empty.url);
      await expect(recorded(probe.prisma)).rejects.toThrow(/_prisma_migrations/);
      await probe.close();
      const server = await startServer(loadSettings({ PORT: "0", DATA_DIR: dataDir, DATABASE_URL: empty.url, BASE_URL: "http://localhost:4000", LOG_LEVEL: "error" }));
      try {
        expect(await recorded(server.services.db)).toEqual(committed);
        expect((await fetch(`${server.url}/api/v1/instance`)).status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      await empty.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the PostgreSQL template", () => {
  const dropped: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(dropped.splice(0).map((drop) => drop()));
  });

  test("several copies made at once all succeed, and nobody can connect to the template to block a copy", async () => {
    const copies = await Promise.all([1, 2, 3, 4].map(() => freshDatabase("postgres")));
    dropped.push(...copies.map((c) => c.drop));
    for (const copy of copies) {
      const client = new pg.Client({ connectionString: copy.url });
      await client.connect();
      expect((await client.query("SELECT count(*)::int AS n FROM _prisma_migrations")).rows[0].n).toBe(committed.length);
      await client.end();
    }
    const admin = new pg.Client({ connectionString: copies[0].url });
    await admin.connect();
    const templates = (await admin.query("SELECT datname FROM pg_database WHERE datistemplate AND datname LIKE 'test_template_%'")).rows.map((r) => r.datname as string);
    await admin.end();
    expect(templates.length).toBeGreaterThan(0);
    const intruder = new pg.Client({ connectionString: copies[0].url.replace(/\/[^/?]*(\?|$)/, `/${templates[0]}$1`) });
    await expect(intruder.connect()).rejects.toThrow(/not currently accepting connections/);
  });
});

describe("which databases a test file runs on", () => {
  const fileUrl = (file: string) => new URL(`file://${path.join(ROOT, file)}`).href;
  const testFiles = fs
    .readdirSync(path.join(ROOT, "test"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts") && fs.readFileSync(path.join(ROOT, "test", f), "utf8").includes("suiteKinds(import.meta.url)"))
    .map((f) => `test/${f.split(path.sep).join("/")}`);
  const saved = process.env.TEST_DB;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_DB;
    else process.env.TEST_DB = saved;
  });

  test("one database per file, the same on every run, the files split about evenly; the named set on both", () => {
    delete process.env.TEST_DB;
    const counts = { pglite: 0, postgres: 0 };
    for (const file of testFiles) {
      const kinds = suiteKinds(fileUrl(file));
      expect(suiteKinds(fileUrl(file))).toEqual(kinds);
      if (file in BOTH_DATABASES) expect(kinds).toEqual(DB_KINDS);
      else {
        expect(kinds).toHaveLength(1);
        counts[kinds[0]]++;
      }
    }
    const single = counts.pglite + counts.postgres;
    expect(single).toBeGreaterThan(50);
    expect(Math.min(counts.pglite, counts.postgres)).toBeGreaterThanOrEqual(single * 0.4);
    // every file of the named set exists and uses suiteKinds: a renamed file would silently fall out of it
    for (const file of Object.keys(BOTH_DATABASES)) expect(testFiles).toContain(file);
  });

  test("TEST_DB=both runs every file on both databases, TEST_DB=<kind> on that one, anything else is refused", () => {
    const one = testFiles.find((f) => !(f in BOTH_DATABASES))!;
    process.env.TEST_DB = "both";
    expect(suiteKinds(fileUrl(one))).toEqual(DB_KINDS);
    process.env.TEST_DB = "postgres";
    expect(suiteKinds(fileUrl(Object.keys(BOTH_DATABASES)[0]))).toEqual(["postgres"]);
    process.env.TEST_DB = "mysql";
    expect(() => suiteKinds(fileUrl(one))).toThrow(/TEST_DB=mysql/);
  });
});
