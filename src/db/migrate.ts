// Applies prisma/migrations through Prisma's WASM schema engine (same engine hash as prisma 7.10.0),
// because the native engine cannot be downloaded on every machine. The bookkeeping table is the
// ordinary `_prisma_migrations`, so `prisma migrate deploy` elsewhere sees the same history.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import { projectRoot } from "../project-root.ts";

const root = projectRoot;
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");
const filters = { externalTables: [], externalEnums: [] };

let wasmReady: Promise<void> | undefined;
/** Whether this process has loaded the schema engine (a start with nothing to migrate does not). */
export const schemaEngineLoaded = () => wasmReady !== undefined;
function loadWasm() {
  // The package entry imports the .wasm as a module (bundler-only); instantiate it by hand for Node.
  wasmReady ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg").replace(/\.js$/, ".wasm");
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": bg as any });
    (bg as any).__wbg_set_wasm(instance.exports);
    (instance.exports as any).__wbindgen_start?.();
  })();
  return wasmReady;
}

export function migrationsList() {
  fs.mkdirSync(migrationsDir, { recursive: true });
  const lock = path.join(migrationsDir, "migration_lock.toml");
  const dirs = fs.readdirSync(migrationsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lock) ? fs.readFileSync(lock, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((d) => {
      const p = path.join(migrationsDir, d, "migration.sql");
      return {
        path: d,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(p) ? { tag: "ok" as const, value: fs.readFileSync(p, "utf8") } : { tag: "error" as const, value: "missing" },
        },
      };
    }),
  };
}

export async function schemaEngine(adapter: SqlMigrationAwareDriverAdapterFactory, log?: (line: string) => void) {
  await loadWasm();
  const schema = fs.readFileSync(schemaPath, "utf8");
  return bg.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, (l: string) => log?.(l), bindMigrationAwareSqlAdapterFactory(adapter));
}

/** Applies pending migrations; returns the names applied. */
export async function applyMigrations(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  // The engine takes a PostgreSQL advisory lock on its own connection and keeps it until that
  // connection ends, so its connections are tracked and closed: the next start would wait otherwise.
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked = Object.create(adapter) as SqlMigrationAwareDriverAdapterFactory;
  tracked.connect = async () => {
    const connection = await adapter.connect();
    opened.push(connection);
    return connection;
  };
  try {
    const list = migrationsList();
    if (await allApplied(tracked, list)) return [];
    const engine = await schemaEngine(tracked);
    try {
      const r = await engine.applyMigrations({ migrationsList: list, filters });
      return r.appliedMigrationNames;
    } finally {
      engine.free();
    }
  } finally {
    await Promise.all(opened.map((c) => c.dispose()));
  }
}

/**
 * Whether `_prisma_migrations` records every committed migration as applied, unchanged (Prisma's
 * checksum is the SHA-256 of migration.sql) and none as failed. The usual start finds them so, and then
 * the schema engine is not loaded at all: it is a 5 MB WebAssembly module whose instance costs about half
 * a second of CPU and tens of MB that a WebAssembly memory never gives back (docs/performance.md,
 * "Start-up and idle memory"). Anything else (a new, edited or failed migration, no table yet) goes to
 * the engine, which applies or reports it as before.
 */
async function allApplied(adapter: SqlMigrationAwareDriverAdapterFactory, list: ReturnType<typeof migrationsList>): Promise<boolean> {
  const connection = await adapter.connect();
  let rows: unknown[][];
  try {
    ({ rows } = await connection.queryRaw({
      sql: "SELECT migration_name, checksum, finished_at IS NOT NULL AND rolled_back_at IS NULL FROM _prisma_migrations WHERE rolled_back_at IS NULL",
      args: [],
      argTypes: [],
    }));
  } catch {
    return false; // a new database: no bookkeeping table yet
  }
  const applied = new Map<string, string>();
  for (const [name, checksum, finished] of rows) {
    if (!finished) return false; // a failed migration: the engine says what to do
    applied.set(String(name), String(checksum));
  }
  return list.migrationDirectories.every(
    (d) => d.migrationFile.content.tag === "ok" && applied.get(d.path) === createHash("sha256").update(d.migrationFile.content.value).digest("hex"),
  );
}

/** SQL that turns the schema produced by the committed migrations into prisma/schema.prisma ("" when they agree). */
export async function pendingSchemaDiff(): Promise<string> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const scratch = new PGlite("memory://");
  try {
    const engine = await schemaEngine(new PrismaPGlite(scratch));
    await engine.applyMigrations({ migrationsList: migrationsList(), filters });
    const files = [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }];
    const d = await engine.diff({
      from: { tag: "schemaDatasource", files, configDir: root } as any,
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      filters,
    });
    const sql = d.stdout ?? "";
    return /^\s*[A-Z]/m.test(sql.replace(/^--.*$/gm, "")) ? sql : "";
  } finally {
    await scratch.close();
  }
}
