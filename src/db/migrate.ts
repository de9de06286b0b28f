// Applies prisma/migrations through Prisma's WASM schema engine (same engine hash as prisma 7.10.0),
// because the native engine cannot be downloaded on every machine. The bookkeeping table is the
// ordinary `_prisma_migrations`, so `prisma migrate deploy` elsewhere sees the same history.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");
const filters = { externalTables: [], externalEnums: [] };

let wasmReady: Promise<void> | undefined;
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
  const engine = await schemaEngine(tracked);
  try {
    const r = await engine.applyMigrations({ migrationsList: migrationsList(), filters });
    return r.appliedMigrationNames;
  } finally {
    engine.free();
    await Promise.all(opened.map((c) => c.dispose()));
  }
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
