// One place that turns a database URL into a Prisma client:
//   postgresql://…        → PostgreSQL through @prisma/adapter-pg
//   pglite:<dir>           → embedded PGlite persisted in <dir> (memory:// for throwaway databases)
import fs from "node:fs";
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "../generated/prisma/client.ts";
import { applyMigrations } from "./migrate.ts";

/** The client the app uses; the log option only enables the query events behind Database.onQuery. */
export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** Applies committed migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** connection pool figures for the healthcheck */
  poolStats(): { size: number; active: number; idle: number };
  /** calls `listener` for every SQL statement until the returned function is called (tests count N+1s) */
  onQuery(listener: (sql: string) => void): () => void;
  close(): Promise<void>;
}

const isPostgres = (url: string) => /^postgres(ql)?:/.test(url);

/** A migration-capable adapter factory with its own connections (used by the migration runner). */
export async function adapterFactory(url: string): Promise<{ factory: SqlMigrationAwareDriverAdapterFactory; close: () => Promise<void> }> {
  if (isPostgres(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return { factory: wholeScripts(new PrismaPg({ connectionString: url })), close: async () => {} };
  }
  const pglite = await openPglite(url);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  return { factory: new PrismaPGlite(pglite), close: () => pglite.close() };
}

/**
 * adapter-pg runs a migration script by splitting it on every ";", which breaks function bodies and
 * comments; PostgreSQL runs a multi-statement script itself (and atomically), so send it whole.
 */
function wholeScripts(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  type Patchable = { executeScript(script: string): Promise<void>; client: { query(sql: string): Promise<unknown> }; onError(e: unknown): never };
  const patch = <T>(adapter: T): T => {
    const a = adapter as unknown as Patchable;
    a.executeScript = async (script) => {
      try {
        await a.client.query(script);
      } catch (error) {
        a.onError(error);
      }
    };
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  const shadow = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => patch(await connect());
  factory.connectToShadowDb = async () => patch(await shadow());
  return factory;
}

async function openPglite(url: string) {
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = url.replace(/^pglite:/, "");
  if (!dir.startsWith("memory://")) fs.mkdirSync(dir, { recursive: true }); // PGlite does not create parents
  return new PGlite(dir);
}

function newClient(adapter: SqlDriverAdapterFactory) {
  const prisma = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] as const });
  const listeners = new Set<(sql: string) => void>();
  prisma.$on("query", (e) => listeners.forEach((l) => l(e.query)));
  const onQuery = (listener: (sql: string) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return { prisma, onQuery };
}

export async function openDatabase(url: string): Promise<Database> {
  if (isPostgres(url)) {
    const pg = (await import("pg")).default;
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const pool = new pg.Pool({ connectionString: url, max: Number(new URL(url).searchParams.get("connection_limit") ?? 10) });
    // an idle connection the server drops (restart, failover) must not crash the process; the pool replaces it
    pool.on("error", (error) => console.error(`database connection lost: ${error.message}`));
    const { prisma, onQuery } = newClient(new PrismaPg(pool));
    return {
      prisma,
      onQuery,
      kind: "postgres",
      // separate connections: the engine's advisory lock must not stay on a pooled connection
      migrate: async () => {
        const { factory } = await adapterFactory(url);
        return applyMigrations(factory);
      },
      poolStats: () => ({ size: pool.options.max ?? 10, active: pool.totalCount - pool.idleCount, idle: pool.idleCount }),
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const pglite = await openPglite(url);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const factory = new PrismaPGlite(pglite);
  const { prisma, onQuery } = newClient(factory);
  return {
    prisma,
    onQuery,
    kind: "pglite",
    migrate: () => applyMigrations(factory),
    poolStats: () => ({ size: 1, active: 0, idle: 1 }),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
