// Kill-and-restart of worker processes on one PGlite data directory (one process at a time).
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, afterEach, describe, vi } from "vitest";
import { databaseCrashCases } from "./crash-cases.ts";
import { killWorkers } from "./helpers.ts";

vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });
afterEach(killWorkers);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jobs-crash-pglite-"));
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("database queue across a crash on PGlite", () => {
  databaseCrashCases(() => `pglite:${path.join(tmp, "pglite")}`, () => tmp);
});
