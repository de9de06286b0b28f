// Database engine on embedded PGlite (the default for small installs).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { createJobQueue } from "../../src/jobs/index.ts";
import { queueBehaviour } from "./behaviour.ts";
import { databaseBehaviour, databaseEngine } from "./db-behaviour.ts";
import { REDIS_URL, obliterateRedisQueue, randomSuffix } from "./helpers.ts";

vi.setConfig({ testTimeout: 20_000, hookTimeout: 60_000 });

let db: Database;
beforeAll(async () => {
  db = await openDatabase("pglite:memory://");
  await db.migrate();
});
afterAll(async () => {
  await db?.close();
});

describe("database queue on PGlite", () => {
  queueBehaviour(() => databaseEngine(() => db.prisma));
  databaseBehaviour(() => db.prisma);
});

describe("createJobQueue", () => {
  it("uses the database unless a Redis URL is configured", async () => {
    expect(createJobQueue({ prisma: db.prisma }).engine).toBe("database");
    expect(createJobQueue({ prisma: db.prisma, redisUrl: "" }).engine).toBe("database");
    const prefix = `jobs-test-${randomSuffix()}`;
    const redis = createJobQueue({ prisma: db.prisma, redisUrl: REDIS_URL, redis: { prefix } });
    expect(redis.engine).toBe("redis");
    await redis.stop();
    await obliterateRedisQueue(prefix, "jobs");
  });
});
