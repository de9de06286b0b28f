// Kill-and-restart of worker processes sharing a real PostgreSQL database (fresh per run).
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, vi } from "vitest";
import { databaseCrashCases } from "./crash-cases.ts";
import { createPgDatabase, killWorkers } from "./helpers.ts";

vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });
afterEach(killWorkers);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jobs-crash-pg-"));
let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
beforeAll(async () => {
  pgDb = await createPgDatabase();
});
afterAll(async () => {
  await pgDb?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("database queue across a crash on PostgreSQL", () => {
  databaseCrashCases(() => pgDb.url, () => tmp);
});
