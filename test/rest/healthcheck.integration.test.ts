// The own API healthcheck: the family's fields, 200 while the database answers, 503 when it cannot
// be reached (the database refuses connections and the pool's are cut).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { PG_ADMIN_URL } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe("healthcheck on postgres", () => {
  let server: TestServer;
  let dbName: string;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    server = await startTestServer("postgres");
    dbName = new URL(server.services.settings.databaseUrl).pathname.slice(1);
  });
  afterAll(async () => {
    await admin(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`).catch(() => {});
    await server?.close();
  });

  test("healthy, then 503 once the database cannot be reached", async () => {
    const ok = await server.fetch("/api/v1/ext/healthcheck");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      pool_size: expect.any(Number),
      active: expect.any(Number),
      idle: expect.any(Number),
      memory_used: expect.any(Number),
      healthy: true,
      job_queue_stats: expect.any(Object),
      database: "ok",
    });

    await admin(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName}'`);
    const down = await server.fetch("/api/v1/ext/healthcheck");
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ healthy: false, database: "unreachable" });

    await admin(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    await vi.waitFor(async () => expect((await server.fetch("/api/v1/ext/healthcheck")).status).toBe(200), { timeout: 20_000, interval: 200 });
  });
});
