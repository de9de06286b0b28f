// The write announcements the row caches follow (src/db/row-writes.ts): every model write to accounts,
// tokens, apps and follows names the rows it changed (a follow by the accounts at both ends), after the
// commit; a write that changed nothing is silent; one it cannot name drops every row of its kind only.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { onRowWrites, type RowWrites } from "../../src/db/row-writes.ts";
import { freshDatabase, suiteKinds } from "../support/databases.ts";

describe.each(suiteKinds(import.meta.url))("row write announcements on %s", (kind) => {
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
    await database.prisma.account.create({ data: { id: "A3", nickname: "a3", apId: "https://x.test/a3" } });
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
    expect(await hear(() => db.account.updateMany({ where: { nickname: { startsWith: "a" } }, data: { locked: false } }))).toEqual([{ all: "a" }]);
    expect(await hear(() => db.oAuthToken.deleteMany({ where: { accountId: "A1" } }))).toEqual([]); // no token: nothing changed
    expect(await hear(() => db.account.updateMany({ where: { id: "nobody" }, data: { locked: true } }))).toEqual([]);
    expect(await hear(() => db.account.findMany({}))).toEqual([]);
  });

  test("follow writes name both ends (f:<account id>): by where, by data, by the row returned; else every count, and only the counts", async () => {
    const db = database.prisma;
    const f = (ids: string[]) => [{ keys: ids.map((id) => `f:${id}`) }];
    // creates: a new follow changes two counts (a new account changes no cache)
    expect(await hear(() => db.follow.create({ data: { id: "F1", followerId: "A1", followingId: "A2" } }))).toEqual(f(["A1", "A2"]));
    expect(await hear(() => db.follow.createMany({ data: [{ id: "F2", followerId: "A2", followingId: "A3" }, { id: "F3", followerId: "A3", followingId: "A1" }] }))).toEqual(f(["A2", "A3", "A1"]));
    expect(await hear(() => db.account.create({ data: { id: "A4", nickname: "a4", apId: "https://x.test/a4" } }))).toEqual([]);
    // by the compound unique key, both columns, OR branches pinning both
    expect(await hear(() => db.follow.upsert({ where: { followerId_followingId: { followerId: "A1", followingId: "A2" } }, create: { id: "F1", followerId: "A1", followingId: "A2" }, update: { state: "accept" } }))).toEqual(f(["A1", "A2"]));
    expect(await hear(() => db.follow.updateMany({ where: { followerId: "A2", followingId: { in: ["A3", "A4"] } }, data: { state: "accept" } }))).toEqual(f(["A2", "A3", "A4"]));
    expect(await hear(() => db.follow.updateMany({ where: { state: "accept", OR: [{ followerId: "A1", followingId: "A2" }, { followerId: "A2", followingId: "A3" }] }, data: { state: "pending" } }))).toEqual(f(["A1", "A2", "A3"]));
    // by the row returned (update and delete by id)
    expect(await hear(() => db.follow.update({ where: { id: "F3" }, data: { state: "accept" } }))).toEqual(f(["A3", "A1"]));
    // what no count depends on: silent
    expect(await hear(() => db.follow.updateMany({ where: { id: "F3" }, data: { apId: "https://x.test/follows/3", notify: true } }))).toEqual([]);
    // rows it cannot name (by id without the row, one end only, OR of one column each): every count
    expect(await hear(() => db.follow.updateMany({ where: { id: "F2" }, data: { state: "pending" } }))).toEqual([{ all: "f" }]);
    expect(await hear(() => db.follow.updateMany({ where: { followerId: "A1" }, data: { state: "accept" } }))).toEqual([{ all: "f" }]);
    expect(await hear(() => db.follow.deleteMany({ where: { OR: [{ followerId: "A3" }, { followingId: "A3" }] } }))).toEqual([{ all: "f" }]);
    expect(await hear(() => db.follow.delete({ where: { id: "F1" } }))).toEqual(f(["A1", "A2"]));
    expect(await hear(() => db.follow.deleteMany({ where: { followerId: "A1", followingId: "A2" } }))).toEqual([]); // gone already
    // deleting an account deletes its follows (the database): every count
    expect(await hear(() => db.account.delete({ where: { id: "A4" } }))).toEqual([{ keys: ["a:A4"] }, { all: "f" }]);
  });

  test("what only an account's pages depend on (blocks and mutes on both sides, domain blocks, thread mutes, filters, lists) names those accounts (v:<id>)", async () => {
    const db = database.prisma;
    const v = (ids: string[]) => [{ keys: ids.map((id) => `v:${id}`) }];
    // a block names both ends: the blocked account's pages lose the blocker's statuses too
    expect(await hear(() => db.userRelationship.create({ data: { id: "R1", sourceId: "A1", targetId: "A2", type: "block" } }))).toEqual(v(["A1", "A2"]));
    expect(await hear(() => db.userRelationship.delete({ where: { sourceId_targetId_type: { sourceId: "A1", targetId: "A2", type: "block" } } }))).toEqual(v(["A1", "A2"]));
    expect(await hear(() => db.threadMute.create({ data: { id: "T1", accountId: "A3", context: "ctx" } }))).toEqual(v(["A3"]));
    expect(await hear(() => db.threadMute.updateMany({ where: { accountId: "A3" }, data: { expiresAt: new Date(0) } }))).toEqual(v(["A3"]));
    // by id: the row returned names its owner
    expect(await hear(() => db.filter.create({ data: { id: "FL1", accountId: "A2", title: "t", context: ["home"] } }))).toEqual(v(["A2"]));
    expect(await hear(() => db.filter.delete({ where: { id: "FL1" } }))).toEqual(v(["A2"]));
    expect(await hear(() => db.list.create({ data: { id: "L1", accountId: "A1", title: "l" } }))).toEqual(v(["A1"]));
    expect(await hear(() => db.domainBlock.create({ data: { id: "D1", accountId: "A1", domain: "y.test" } }))).toEqual(v(["A1"]));
    // rows named by something else (a prune of expired mutes): every page
    expect(await hear(() => db.threadMute.deleteMany({ where: { expiresAt: { lt: new Date() } } }))).toEqual([{ all: "v" }]);
    expect(await hear(() => db.domainBlock.deleteMany({ where: { domain: "nowhere.test" } }))).toEqual([]); // nothing changed
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
