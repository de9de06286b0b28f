// The write announcements the token cache follows (src/db/row-writes.ts): every model write to accounts,
// tokens and apps names the rows it changed, after the commit; a write that changed nothing is silent.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { onRowWrites, type RowWrites } from "../../src/db/row-writes.ts";
import { DB_KINDS, freshDatabase } from "../support/databases.ts";

describe.each(DB_KINDS)("row write announcements on %s", (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let heard: RowWrites[] = [];
  beforeAll(async () => {
    const fresh = await freshDatabase(kind);
    drop = fresh.drop;
    database = await openDatabase(fresh.url);
    await database.migrate();
    onRowWrites(database.prisma, (w) => heard.push(w));
    await database.prisma.account.create({ data: { id: "A1", nickname: "a1", apId: "https://x.test/a1" } });
    await database.prisma.account.create({ data: { id: "A2", nickname: "a2", apId: "https://x.test/a2" } });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
  const hear = async (fn: () => Promise<unknown>) => {
    heard = [];
    await fn();
    return heard;
  };

  test("model writes name their rows: by id, by a list of ids, by the row returned; anything else is everything", async () => {
    const db = database.prisma;
    expect(await hear(() => db.account.update({ where: { id: "A1" }, data: { displayName: "x" } }))).toEqual([{ keys: ["a:A1"] }]);
    expect(await hear(() => db.account.updateMany({ where: { id: { in: ["A1", "A2"] } }, data: { locked: true } }))).toEqual([{ keys: ["a:A1", "a:A2"] }]);
    expect(await hear(() => db.account.update({ where: { apId: "https://x.test/a2" }, data: { locked: false } }))).toEqual([{ keys: ["a:A2"] }]);
    expect(await hear(() => db.account.updateMany({ where: { nickname: { startsWith: "a" } }, data: { locked: false } }))).toEqual([{ all: true }]);
    expect(await hear(() => db.oAuthToken.deleteMany({ where: { accountId: "A1" } }))).toEqual([]); // no token: nothing changed
    expect(await hear(() => db.account.updateMany({ where: { id: "nobody" }, data: { locked: true } }))).toEqual([]);
    expect(await hear(() => db.account.findMany({}))).toEqual([]);
  });

  test("a transaction's writes are announced once it has committed", async () => {
    const db = database.prisma;
    const during: RowWrites[][] = [];
    const after = await hear(() =>
      db.$transaction(async (tx) => {
        await tx.account.update({ where: { id: "A1" }, data: { note: "in a transaction" } });
        during.push([...heard]);
      }),
    );
    expect(during).toEqual([[]]);
    expect(after).toEqual([{ keys: ["a:A1"] }]);
    expect(await hear(() => db.$transaction([db.account.update({ where: { id: "A2" }, data: { note: "batch" } })]))).toEqual([{ keys: ["a:A2"] }]);
  });
});
