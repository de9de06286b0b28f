// The driver fast path (src/db/sql.ts) reads and writes like Prisma on both databases: timestamp(3)
// columns hold UTC wall times whatever the process's time zone, jsonb comes back parsed, int8 as bigint,
// and statements are seen by onQuery (the tests' statement counts). Rows inserted and found through it
// (model-rows.ts) are the rows Prisma returns.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../src/db/client.ts";
import { sqlFor } from "../../src/db/sql.ts";
import { findModelRow, insertModelRow, isUniqueViolation } from "../../src/db/model-rows.ts";
import { DbKvStore } from "../../src/federation/kv-store.ts";
import { freshDatabase, suiteKinds } from "../support/databases.ts";

describe.each(suiteKinds(import.meta.url))("sqlFor on %s", (kind) => {
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

  test("insertModelRow and findModelRow answer the rows Prisma returns; a second row with the same unique key is a unique violation", async () => {
    const db = database.prisma;
    const author = await db.account.create({ data: { id: `acc-${kind}`, nickname: `ann@${kind}.test`, apId: `https://${kind}.test/users/ann`, domain: `${kind}.test`, local: false, fields: [{ name: "a", value: "b" }] } });
    expect(await findModelRow(db, "Account", "apId", author.apId)).toEqual(await db.account.findUnique({ where: { id: author.id } }));
    expect(await findModelRow(db, "Account", "apId", "https://nowhere.test/x")).toBeNull();

    const createdAt = new Date("2026-11-25T23:59:58.250Z");
    const inserted = await insertModelRow(db, "Status", {
      id: `st-${kind}`, uri: `https://${kind}.test/notes/1`, url: null, accountId: author.id, local: false, content: "<p>hi</p>", visibility: "unlisted",
      context: "ctx", recipientIds: ["x", "y"], emojis: [{ shortcode: "blob", url: "https://e.test/b.png" }], editedAt: null, createdAt, updatedAt: createdAt,
    });
    const viaPrisma = await db.status.findUniqueOrThrow({ where: { id: `st-${kind}` } });
    expect(inserted).toEqual(viaPrisma);
    expect(viaPrisma).toMatchObject({ visibility: "unlisted", recipientIds: ["x", "y"], sensitive: false, contentType: "text/plain", createdAt, emojis: [{ shortcode: "blob", url: "https://e.test/b.png" }] });

    const again = await insertModelRow(db, "Status", { id: `st2-${kind}`, uri: `https://${kind}.test/notes/1`, accountId: author.id, context: "ctx", updatedAt: createdAt }).catch((e: unknown) => e);
    expect(isUniqueViolation(again)).toBe(true);
  });

  test("the KV store answers Fedify's accept-time idempotence key without a statement until that key form is written", async () => {
    const kv = new DbKvStore(database.prisma);
    const seen: string[] = [];
    const stop = database.onQuery((s) => seen.push(s));
    expect(await kv.get(["_fedify", "activityIdempotence", "https://x.test/a/1"])).toBeUndefined();
    expect(seen).toEqual([]);
    // the queued task's form is read from the table
    await kv.set(["_fedify", "activityIdempotence", "https://local.test", "https://x.test/a/1"], true);
    expect(await kv.get(["_fedify", "activityIdempotence", "https://local.test", "https://x.test/a/1"])).toBe(true);
    // once the accept-time form is written (another Fedify version), it is read like any key
    await kv.set(["_fedify", "activityIdempotence", "https://x.test/a/2"], true);
    expect(await kv.get(["_fedify", "activityIdempotence", "https://x.test/a/2"])).toBe(true);
    stop();
  });
});
