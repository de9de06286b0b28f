// Database engine on a real PostgreSQL server (a fresh database per run).
import { afterAll, beforeAll, describe, vi } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { queueBehaviour } from "./behaviour.ts";
import { databaseBehaviour, databaseEngine } from "./db-behaviour.ts";
import { createPgDatabase } from "./helpers.ts";

vi.setConfig({ testTimeout: 20_000, hookTimeout: 60_000 });

let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
let db: Database;
beforeAll(async () => {
  pgDb = await createPgDatabase();
  db = await openDatabase(pgDb.url);
  await db.migrate();
});
afterAll(async () => {
  await db?.close();
  await pgDb?.drop();
});

describe("database queue on PostgreSQL", () => {
  queueBehaviour(() => databaseEngine(() => db.prisma));
  databaseBehaviour(() => db.prisma);
});
