// One place that turns a database URL into a Prisma client:
//   postgresql://…        → PostgreSQL through @prisma/adapter-pg
//   pglite:<dir>           → embedded PGlite persisted in <dir> (memory:// for throwaway databases)
import fs from "node:fs";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "../generated/prisma/client.ts";
import { applyMigrations } from "./migrate.ts";

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** Applies committed migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export async function adapterFactory(url: string): Promise<{ factory: SqlMigrationAwareDriverAdapterFactory; kind: Database["kind"]; close: () => Promise<void> }> {
  if (/^postgres(ql)?:/.test(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return { factory: new PrismaPg({ connectionString: url }), kind: "postgres", close: async () => {} };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const dir = url.replace(/^pglite:/, "");
  if (!dir.startsWith("memory://")) fs.mkdirSync(dir, { recursive: true }); // PGlite does not create parents
  const pglite = new PGlite(dir);
  return { factory: new PrismaPGlite(pglite), kind: "pglite", close: () => pglite.close() };
}

export async function openDatabase(url: string): Promise<Database> {
  const { factory, kind, close } = await adapterFactory(url);
  const prisma = new PrismaClient({ adapter: factory });
  return {
    prisma,
    kind,
    migrate: () => applyMigrations(factory),
    async close() {
      await prisma.$disconnect();
      await close();
    },
  };
}
