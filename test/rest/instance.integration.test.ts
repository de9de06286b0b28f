import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DB_KINDS } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe.each(DB_KINDS)("instance and migrations on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  test("migrations were applied at start and recorded like prisma migrate does", async () => {
    const rows = await server.services.db.$queryRawUnsafe<{ migration_name: string; finished_at: Date | null }[]>(
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(await server.database.migrate()).toEqual([]); // idempotent: nothing pending on a second run
  });

  test("GET /api/v1/instance answers with the family marker and live counts", async () => {
    await server.createUser("alice");
    const res = await server.fetch("/api/v1/instance");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.uri).toBe("localhost:4000");
    expect(body.version).toMatch(/^2\.7\.2 \(compatible; Ext \d+\.\d+\.\d+\)$/);
    expect(body.stats.user_count).toBe(1);
    expect(body.ext.metadata).toBeDefined();
  });

  test("unknown paths get a JSON 404", async () => {
    const res = await server.fetch("/api/v1/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found" });
  });
});
