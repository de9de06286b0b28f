// Databases for tests, and which of the two each test file runs on.
//
// A test database starts already migrated: PostgreSQL ones are copies of a migrated template database
// (CREATE DATABASE … TEMPLATE), PGlite ones load a migrated data directory dumped once. Migrating from zero
// took 10–24 s per database on a loaded 2-core machine; a copy takes a fraction of that. Both are named by
// a hash of prisma/migrations (and PGlite's version), so they are rebuilt only when a migration changes.
// The server still runs its migrate step on start and finds nothing to apply; `{ migrated: false }` gives
// an empty database, for the tests of migrating from zero.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { adapterFactory } from "../../src/db/client.ts";
import { applyMigrations, migrationsList } from "../../src/db/migrate.ts";
import { ROOT } from "./built.ts";
import { StopWaiting, waitFor } from "./wait.ts";

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const DB_KINDS = ["pglite", "postgres"] as const;
export type DbKind = (typeof DB_KINDS)[number];

/**
 * The files that run every case on both databases, each for code that differs between them; every other
 * file runs on one (`suiteKinds`). TEST_DB=both runs every file on both, TEST_DB=pglite|postgres on that one.
 */
export const BOTH_DATABASES: Record<string, string> = {
  "test/db/sql.integration.test.ts": "raw statements go through pg's pool (src/db/sql.ts) or PGlite's own path (pglite-sql.ts)",
  "test/db/row-writes.integration.test.ts": "which rows a write touched is read from each driver's results (row-writes.ts)",
  "test/db/closed-transactions.integration.test.ts": "each driver adapter closes and refuses late transaction statements its own way",
  "test/rest/instance.integration.test.ts": "checks the migrations recorded on each database the way prisma migrate records them",
  "test/rest/account-names.integration.test.ts": "account names are matched by raw SQL on lower() with expression indexes (src/db/account-names.ts)",
  "test/rest/races-odd-keys.integration.test.ts": "rows made on first use are INSERT … ON CONFLICT statements, and only PostgreSQL runs them concurrently",
  "test/rest/search.integration.test.ts": "search's SQL (text matching, ranking) runs in each engine",
  "test/rest/query-budget.integration.test.ts": "the statements per page are counted per driver (prepared statements differ)",
  "test/rest/statuses.integration.test.ts": "the status statements (status-data, viewer flags) in each engine",
  "test/rest/timelines.integration.test.ts": "the timeline page statements in each engine",
  "test/rest/visibility-matrix.integration.test.ts": "visibility is decided in SQL (src/domain/statuses/visibility.ts)",
  "test/domain/visibility-scenarios.integration.test.ts": "the same visibility SQL across timelines and streams",
  "test/rest/scheduled-statuses.integration.test.ts": "jobs on the database (src/jobs/db-queue.ts: row locking, a restart picking a job up)",
};

/**
 * The databases a test file's suites run on: `describe.each(suiteKinds(import.meta.url))`. A file in
 * BOTH_DATABASES gets both; any other gets one, picked from its path's hash: stable across runs and machines,
 * and about half the files on each.
 */
export function suiteKinds(fileUrl: string): readonly DbKind[] {
  const chosen = process.env.TEST_DB;
  if (chosen === "both") return DB_KINDS;
  if (chosen === "pglite" || chosen === "postgres") return [chosen];
  if (chosen) throw new Error(`TEST_DB=${chosen}: expected both, pglite or postgres`);
  const file = path.relative(ROOT, fileURLToPath(fileUrl)).split(path.sep).join("/");
  if (file in BOTH_DATABASES) return DB_KINDS;
  return [DB_KINDS[createHash("sha256").update(file).digest()[0] % 2]];
}

/** Creates a database (migrated unless `migrated: false`) and returns its URL with a function that drops it. */
export async function freshDatabase(kind: DbKind, options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const migrated = options.migrated ?? true;
  if (kind === "pglite") return { url: migrated ? `pglite:memory://?loadDataDir=${encodeURIComponent(await migratedSnapshot())}` : "pglite:memory://", drop: async () => {} };
  const template = migrated ? await migratedTemplate() : undefined;
  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await withAdmin((admin) => createDatabase(admin, name, template));
  return {
    url: databaseUrl(name),
    drop: () => withAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}

/** Builds the migrated template and snapshot if missing: vitest's globalSetup, so the test files find them made. */
export async function prepareTestDatabases(): Promise<void> {
  await Promise.all([migratedTemplate(), migratedSnapshot()]);
}

const databaseUrl = (name: string) => PG_ADMIN_URL.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

async function createDatabase(admin: pg.Client, name: string, template: string | undefined) {
  // A copy needs the template to have no session; ours refuses connections, so one appears only while a
  // build is being finished. Wait it out rather than fail.
  const created = async () => {
    try {
      await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === "55006") return false; // object_in_use: the template has a session
      throw Object.assign(new StopWaiting((error as Error).message), { cause: error });
    }
  };
  await waitFor(created, `template ${template} free of sessions to copy it to ${name}`, { timeoutMs: 5_000 });
}

/** The committed migrations' hash: what the template and the snapshot are named by. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const d of migrationsList().migrationDirectories) hash.update(`${d.path}\0${d.migrationFile.content.value}\0`);
  return hash.digest("hex").slice(0, 16);
}

let template: Promise<string> | undefined;
/** The migrated template database on the test PostgreSQL (built now when missing). */
function migratedTemplate(): Promise<string> {
  template ??= withAdmin(async (admin) => {
    const name = `test_template_${migrationsHash()}`;
    // Builders (vitest's workers, or two test runs on one server) queue here; the lock goes with the session.
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    // A template is complete once marked one; anything else under its name is a build that was cut short.
    const found = await admin.query("SELECT datistemplate FROM pg_database WHERE datname = $1", [name]);
    if (found.rows[0]?.datistemplate) return name;
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    // the server's own migration path (it closes the connections it opened)
    await applyMigrations((await adapterFactory(databaseUrl(name))).factory);
    await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
    return name;
  });
  return template;
}

let snapshot: Promise<string> | undefined;
/** A file holding a migrated PGlite data directory (`dumpDataDir`), for `pglite:memory://?loadDataDir=<file>`. */
function migratedSnapshot(): Promise<string> {
  snapshot ??= (async () => {
    const pgliteVersion = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")).version;
    const dir = path.join(ROOT, ".tmp/test-databases");
    const file = path.join(dir, `pglite-${pgliteVersion}-${migrationsHash()}.tar`);
    if (fs.existsSync(file)) return file;
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    const pglite = new PGlite("memory://");
    try {
      await applyMigrations(new PrismaPGlite(pglite));
      // uncompressed: loading it is then only a copy (gzip would cost every test database its inflation)
      const dump = await pglite.dumpDataDir("none");
      fs.mkdirSync(dir, { recursive: true });
      // written aside and renamed: a reader never sees half a file, and two builders just both rename
      const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(partial, file);
    } finally {
      await pglite.close();
    }
    return file;
  })();
  return snapshot;
}
