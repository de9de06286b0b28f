// Upserts that lose a race to create their row (src/db/upsert-retry.ts): outside a transaction the
// loser's P2002 is retried once and takes the update branch; inside one it is not retried (PostgreSQL has
// aborted the transaction) and goes up as P2002. The race is made deterministic: another connection
// inserts the row and holds it uncommitted, so the upsert's SELECT misses it and its INSERT waits on the
// unique index; that connection commits once the INSERT has been sent, and the INSERT fails.
// PostgreSQL only: PGlite has one connection, so nothing there runs beside an upsert.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { freshDatabase } from "../support/databases.ts";

describe("upserts racing a first insert on postgres", () => {
  let database: Database;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase("postgres"));
    database = await openDatabase(url);
    await database.prisma.account.create({ data: { id: "A1", nickname: "a1", apId: "https://x.test/a1" } });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  /** Runs `upsert` while another connection inserts the same domain block, committed once the upsert's INSERT is on its way. */
  async function racing<T>(domain: string, upsert: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; statements: string[] }> {
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("INSERT INTO domain_blocks (id, account_id, domain) VALUES ($1, 'A1', $2)", [`other-${domain}`, domain]);
      const statements: string[] = [];
      let inserting!: () => void;
      const inserted = new Promise<void>((resolve) => (inserting = resolve));
      const stop = database.onQuery((sql) => {
        statements.push(sql);
        if (/^INSERT INTO "public"."domain_blocks"/.test(sql)) inserting();
      });
      // a Prisma query starts when awaited: allSettled sets it going now, and observes its failure at once
      // (settled only after the COMMIT below, it was an unhandled rejection meanwhile)
      const running = Promise.allSettled([upsert()]);
      await inserted;
      await other.query("COMMIT");
      const [result] = await running;
      stop();
      return { result, statements };
    } finally {
      await other.end();
    }
  }

  const block = (domain: string) => ({ where: { accountId_domain: { accountId: "A1", domain } }, create: { id: `mine-${domain}`, accountId: "A1", domain }, update: {} });

  test("outside a transaction the loser is retried and answers the winner's row", async () => {
    const { result, statements } = await racing("retried.example", () => database.prisma.domainBlock.upsert(block("retried.example")));
    expect(result).toEqual({ status: "fulfilled", value: expect.objectContaining({ id: "other-retried.example", domain: "retried.example" }) });
    expect(statements.filter((s) => s.startsWith("INSERT"))).toHaveLength(1); // the retry found the row
    expect(await database.prisma.domainBlock.count({ where: { accountId: "A1", domain: "retried.example" } })).toBe(1);
  });

  test("inside a transaction the P2002 goes up unretried", async () => {
    const { result } = await racing("in-transaction.example", () => database.prisma.$transaction((tx) => tx.domainBlock.upsert(block("in-transaction.example"))));
    expect(result.status).toBe("rejected");
    // a retry in the aborted transaction would fail otherwise ("current transaction is aborted")
    expect((result as PromiseRejectedResult).reason).toMatchObject({ code: "P2002" });
    expect(await database.prisma.domainBlock.findMany({ where: { domain: "in-transaction.example" }, select: { id: true } })).toEqual([{ id: "other-in-transaction.example" }]);
  });
});
