// The driver fast path (src/db/sql.ts) reads and writes like Prisma on both databases: timestamp(3)
// columns hold UTC wall times whatever the process's time zone, jsonb comes back parsed, int8 as bigint,
// and statements are seen by onQuery (the tests' statement counts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { sqlFor } from "../../src/db/sql.ts";
import { DB_KINDS, freshDatabase } from "../support/databases.ts";

describe.each(DB_KINDS)("sqlFor on %s", (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  const zone = process.env.TZ;
  beforeAll(async () => {
    process.env.TZ = "America/Los_Angeles"; // Node applies it at once: local-time handling would show
    const fresh = await freshDatabase(kind);
    drop = fresh.drop;
    database = await openDatabase(fresh.url);
    await database.migrate();
  }, 120_000);
  afterAll(async () => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    await database?.close();
    await drop?.();
  });

  test("a Date written through it reads back the same through Prisma, and the other way round", async () => {
    const sql = sqlFor(database.prisma);
    const at = new Date("2026-11-25T23:30:00.123Z"); // late in the day: a local-time write would move the date
    await sql.execute(`INSERT INTO federation_kv (key, value, expires_at) VALUES ($1, $2::jsonb, $3)`, ["k1", JSON.stringify({ a: [1, "x"] }), at]);
    const viaPrisma = await database.prisma.federationKv.findUniqueOrThrow({ where: { key: "k1" } });
    expect(viaPrisma.expiresAt?.toISOString()).toBe(at.toISOString());
    expect(viaPrisma.value).toEqual({ a: [1, "x"] });

    await database.prisma.federationKv.create({ data: { key: "k2", value: { b: true }, expiresAt: at } });
    const [row] = await sql.query<{ value: unknown; expiresAt: Date; n: bigint }>(`SELECT value, expires_at AS "expiresAt", 5::int8 AS n FROM federation_kv WHERE key = $1`, ["k2"]);
    expect(row.expiresAt).toBeInstanceOf(Date);
    expect(row.expiresAt.toISOString()).toBe(at.toISOString());
    expect(row.value).toEqual({ b: true });
    expect(row.n).toBe(5n);
    expect(await sql.execute(`DELETE FROM federation_kv WHERE key = ANY($1::text[])`, [["k1", "k2"]])).toBe(2);
  });

  test("its statements reach onQuery", async () => {
    const seen: string[] = [];
    const stop = database.onQuery((s) => seen.push(s));
    await sqlFor(database.prisma).query(`SELECT 1 AS one WHERE $1::text = 'x'`, ["x"]);
    stop();
    expect(seen.some((s) => s.includes("SELECT 1 AS one"))).toBe(true);
  });
});
