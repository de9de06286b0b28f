// Named prepared statements on PGlite (src/db/pglite-sql.ts): a text the fast path or Prisma sees a third time is
// prepared under its name and answers every later run with that run's parameters; an error in a prepared
// statement leaves the database usable; a statement sent while a Prisma transaction is open waits for it
// instead of running inside it; a table changed under a kept plan falls back to an unnamed statement.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { isUniqueViolation } from "../../src/db/model-rows.ts";
import { sqlFor } from "../../src/db/sql.ts";
import { waitFor } from "../support/wait.ts";

describe("named statements on pglite", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase("pglite:memory://");
    await database.migrate();
  }, 120_000);
  afterAll(() => database?.close());

  const prepared = async () =>
    (await database.prisma.$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements`).map((r) => r.statement);

  test("a repeated statement is prepared after its third run and keeps answering with each run's parameters and types", async () => {
    const sql = sqlFor(database.prisma);
    const answers: unknown[] = [];
    const at = new Date("2026-11-25T23:30:00.123Z");
    for (let i = 1; i <= 6; i++) {
      const [row] = await sql.query<{ n: number; big: bigint; at: Date; list: string[]; doc: unknown; none: null }>(
        `SELECT $1::int * 7 AS n, $1::int8 AS big, $2::timestamp(3) AS at, $3::text[] AS list, $4::jsonb AS doc, $5::text AS none /* repeated */`,
        [i, at, ["a", `b${i}`], JSON.stringify({ i }), null],
      );
      answers.push(row);
    }
    expect(answers.map((r: any) => r.n)).toEqual([7, 14, 21, 28, 35, 42]);
    expect(answers[5]).toEqual({ n: 42, big: 6n, at, list: ["a", "b6"], doc: { i: 6 }, none: null });
    expect((await prepared()).filter((s) => s.includes("/* repeated */"))).toHaveLength(1);
    // a text seen twice is not
    for (let i = 0; i < 2; i++) await sql.query(`SELECT $1::int AS n /* twice */`, [i]);
    expect((await prepared()).some((s) => s.includes("/* twice */"))).toBe(false);
  });

  test("Prisma's statements are prepared too, in and out of transactions, and answer as before", async () => {
    const db = database.prisma;
    for (let i = 0; i < 4; i++) {
      await db.$transaction(async (tx) => {
        await tx.federationKv.create({ data: { key: `p${i}`, value: { i }, expiresAt: new Date(Date.UTC(2026, 10, 25, 23, 0, i)) } });
        expect(await tx.federationKv.count({ where: { key: { startsWith: "p" } } })).toBe(i + 1);
      });
    }
    const rows = await db.federationKv.findMany({ where: { key: { startsWith: "p" } }, orderBy: { key: "asc" } });
    expect(rows.map((r) => [r.key, r.value, r.expiresAt?.toISOString()])).toEqual([0, 1, 2, 3].map((i) => [`p${i}`, { i }, `2026-11-25T23:00:0${i}.000Z`]));
    const texts = await prepared();
    expect(texts.some((s) => /INSERT INTO "public"\."federation_kv"/.test(s)), texts.join("\n")).toBe(true);
    expect(texts.some((s) => /SELECT COUNT\(\*\)/i.test(s) && s.includes("federation_kv"))).toBe(true);
    // a failed transaction rolls back what it wrote
    await expect(db.$transaction(async (tx) => {
      await tx.federationKv.create({ data: { key: "p9", value: {} } });
      await tx.federationKv.create({ data: { key: "p9", value: {} } });
    })).rejects.toThrow();
    expect(await db.federationKv.count({ where: { key: "p9" } })).toBe(0);
    await db.federationKv.deleteMany({ where: { key: { startsWith: "p" } } });
  });

  test("a unique violation in a prepared statement is a unique violation, and the next statements run", async () => {
    const sql = sqlFor(database.prisma);
    const insert = `INSERT INTO federation_kv (key, value) VALUES ($1, $2::jsonb) /* kv insert */`;
    for (let i = 0; i < 3; i++) await sql.execute(insert, [`k${i}`, "{}"]);
    expect((await prepared()).some((s) => s.includes("/* kv insert */"))).toBe(true);
    const again = await sql.execute(insert, ["k1", "{}"]).catch((e: unknown) => e);
    expect(isUniqueViolation(again)).toBe(true);
    expect(await sql.execute(insert, ["k9", "{}"])).toBe(1);
    expect(await database.prisma.federationKv.count()).toBe(4);
  });

  test("a text PostgreSQL cannot parse fails the same way every time, prepared or not", async () => {
    const sql = sqlFor(database.prisma);
    for (let i = 0; i < 5; i++) await expect(sql.query(`SELECT nope FROM nowhere_table /* broken */`)).rejects.toThrow(/nowhere_table/);
    expect(await sql.query(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  test("a statement sent while a Prisma transaction is open runs after it, not inside it", async () => {
    const sql = sqlFor(database.prisma);
    const count = `SELECT count(*)::int AS n FROM federation_kv WHERE key LIKE 'tx%' /* tx count */`;
    for (let i = 0; i < 3; i++) await sql.query(count);
    let seen: number | undefined;
    await database.prisma.$transaction(async (tx) => {
      await tx.federationKv.create({ data: { key: "tx1", value: {} } });
      // inside the transaction it would see the uncommitted row; queued behind it, it sees the committed one
      void sql.query<{ n: number }>(count).then(([r]) => (seen = r.n));
      // a sentinel: one PGlite answers in order, so had the count run inside, it would have answered before this
      await tx.federationKv.count();
      expect(seen).toBeUndefined();
      throw new Error("roll back");
    }).catch(() => undefined);
    await waitFor(() => seen !== undefined, "the queued count to answer", { timeoutMs: 5_000, intervalMs: 10 });
    expect(seen).toBe(0);
  });

  test("a table changed under a kept plan is answered unnamed", async () => {
    const sql = sqlFor(database.prisma);
    await database.prisma.$executeRawUnsafe(`CREATE TABLE shape_test (a int)`);
    await database.prisma.$executeRawUnsafe(`INSERT INTO shape_test VALUES (1)`);
    const select = `SELECT * FROM shape_test /* shape */`;
    for (let i = 0; i < 3; i++) expect(await sql.query(select)).toEqual([{ a: 1 }]);
    await database.prisma.$executeRawUnsafe(`ALTER TABLE shape_test ADD COLUMN b int DEFAULT 2`);
    expect(await sql.query(select)).toEqual([{ a: 1, b: 2 }]);
    expect(await sql.query(select)).toEqual([{ a: 1, b: 2 }]);
  });
});
