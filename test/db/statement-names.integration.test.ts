// Named prepared statements on PostgreSQL (src/db/statement-names.ts): a statement whose text repeats
// becomes a prepared statement on its connection after a few runs, answers the same rows with other
// parameters, and one-off texts and transaction control stay unnamed.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { statementNameGenerator } from "../../src/db/statement-names.ts";
import { freshDatabase } from "../support/databases.ts";

describe("named statements on postgres", () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshDatabase("postgres");
    drop = fresh.drop;
    // one connection: what the pool prepared is what pg_prepared_statements shows
    const url = new URL(fresh.url);
    url.searchParams.set("connection_limit", "1");
    database = await openDatabase(url.toString());
    await database.migrate();
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const prepared = async () =>
    (await database.prisma.$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements`).map((r) => r.statement);

  test("a repeated statement is prepared after its third run and keeps answering with each run's parameters", async () => {
    const answers: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const [row] = await database.prisma.$queryRaw<{ n: number }[]>`SELECT ${i}::int * 7 AS n /* repeated */`;
      answers.push(row.n);
    }
    expect(answers).toEqual([7, 14, 21, 28, 35, 42]);
    expect((await prepared()).filter((s) => s.includes("/* repeated */"))).toHaveLength(1);
  });

  test("a statement seen twice is not prepared; Prisma's own queries and transactions still work", async () => {
    for (let i = 0; i < 2; i++) await database.prisma.$queryRaw`SELECT ${i}::int AS n /* twice */`;
    expect((await prepared()).some((s) => s.includes("/* twice */"))).toBe(false);
    for (let i = 0; i < 5; i++) {
      await database.prisma.$transaction(async (tx) => {
        await tx.federationKv.create({ data: { key: `k${i}`, value: { i } } });
      });
    }
    expect(await database.prisma.federationKv.count()).toBe(5);
    expect((await prepared()).some((s) => /^\s*(BEGIN|COMMIT)/i.test(s))).toBe(false);
  });
});

describe("statementNameGenerator", () => {
  test("names only data statements, from the third sighting, the same name for the same text", () => {
    const name = statementNameGenerator();
    const q = (sql: string) => name({ sql });
    expect([q("SELECT 1"), q("SELECT 1")]).toEqual([undefined, undefined]);
    const third = q("SELECT 1");
    expect(third).toMatch(/^s_/);
    expect(q("SELECT 1")).toBe(third);
    expect(q("SELECT 2")).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(q("BEGIN")).toBeUndefined();
    for (let i = 0; i < 2; i++) q("WITH x AS (SELECT 1) SELECT * FROM x");
    expect(q("WITH x AS (SELECT 1) SELECT * FROM x")).not.toBe(third);
  });
});
