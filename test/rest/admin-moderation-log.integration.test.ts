// Admin API moderation log: `{items, total}` newest first, page / page_size (default 50), date range,
// actor and message search (LIKE wildcards taken literally); privileges (moderators are refused).
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { bearer, cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const ADMIN_TOKEN = "admin-token-for-log-tests";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];

describe.each(suiteKinds(import.meta.url))("admin moderation log on %s", (kind) => {
  let server: TestServer;
  let id: Cast["id"];
  let token: Cast["token"];
  const log = (who: string | null, query = "", prefix = PREFIXES[0]) => server.fetch(`${prefix}/moderation_log${query}`, { headers: who ? bearer(token[who]) : {} });
  const body = async (res: Response) => {
    expect(res.status).toBe(200);
    return (await res.json()) as { total: number; items: { id: number; data: any; time: number; message: string }[] };
  };
  const db = () => server.services.db;
  const entry = (actorId: string | null, message: string, createdAt: Date) => db().moderationLogEntry.create({ data: { actorId, action: "test", message, createdAt, data: { action: "test", message } } });

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN });
    ({ id, token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, tom: {} }));
  });
  afterAll(() => server?.close());

  test("entries written by admin actions are listed newest first as {items: [{id, data, time, message}], total}; both prefixes", async () => {
    const post = await server.fetch("/api/v1/statuses", { json: { status: "to be hidden" }, headers: bearer(token.tom) });
    const statusId = (await post.json()).id;
    expect((await server.fetch(`${PREFIXES[0]}/statuses/${statusId}`, { method: "PUT", json: { sensitive: true }, headers: bearer(token.ada) })).status).toBe(200);
    expect((await server.fetch(`${PREFIXES[0]}/statuses/${statusId}`, { method: "DELETE", headers: bearer(token.mo) })).status).toBe(200);

    const [a, b] = await Promise.all(PREFIXES.map((p) => log("ada", "", p).then(body)));
    expect(b).toEqual(a);
    expect(a.total).toBe(2);
    const row = await db().moderationLogEntry.findFirstOrThrow({ where: { action: "status_delete" } });
    expect(a.items).toEqual([
      { id: row.id, data: expect.objectContaining({ action: "status_delete", actor: { id: id.mo, nickname: "mo", type: "user" }, subject: { type: "status", id: statusId } }), time: Math.floor(row.createdAt.getTime() / 1000), message: `@mo deleted status #${statusId}` },
      { id: expect.any(Number), data: expect.objectContaining({ action: "status_update", actor: { id: id.ada, nickname: "ada", type: "user" } }), time: expect.any(Number), message: `@ada updated status #${statusId}, set sensitive: 'true'` },
    ]);
  });

  test("page and page_size (default 50)", async () => {
    const base = new Date("2020-01-01T00:00:00Z").getTime();
    for (let i = 0; i < 55; i++) await entry(id.ada, `@ada bulk entry ${i}`, new Date(base + i * 1000));
    const total = await db().moderationLogEntry.count();
    const first = await body(await log("ada"));
    expect(first.total).toBe(total);
    expect(first.items).toHaveLength(50);
    const last = await body(await log("ada", "?page=2"));
    expect(last.items).toHaveLength(total - 50);
    expect(last.items.at(-1)!.message).toBe("@ada bulk entry 0");
    const small = await body(await log("ada", "?page=3&page_size=5"));
    expect(small.items.map((e) => e.id)).toEqual(first.items.slice(10, 15).map((e) => e.id));
  });

  test("start_date / end_date, user_id and search filter; they combine", async () => {
    await entry(id.ada, "@ada early filter-me", new Date("2021-03-01T10:00:00Z"));
    await entry(id.mo, "@mo middle FILTER-me", new Date("2021-03-02T10:00:00Z"));
    await entry(id.ada, "@ada late filter-me", new Date("2021-03-03T10:00:00Z"));
    const messages = async (query: string) => (await body(await log("ada", query))).items.map((e) => e.message);

    expect(await messages("?start_date=2021-03-01T12:00:00&end_date=2021-03-03T00:00:00")).toEqual(["@mo middle FILTER-me"]);
    expect(await messages("?search=filter-me&start_date=2021-03-02T00:00:00Z")).toEqual(["@ada late filter-me", "@mo middle FILTER-me"]);
    expect(await messages(`?search=filter-me&user_id=${id.ada}`)).toEqual(["@ada late filter-me", "@ada early filter-me"]);
    expect(await messages("?search=Filter-Me&end_date=2021-03-01T23:59:59")).toEqual(["@ada early filter-me"]);
    const counted = await body(await log("ada", "?search=filter-me&page_size=1"));
    expect(counted).toMatchObject({ total: 3, items: [{ message: "@ada late filter-me" }] });
  });

  test("search takes LIKE wildcards literally", async () => {
    await entry(id.ada, "@ada done 100% of it", new Date("2022-01-01T00:00:00Z"));
    await entry(id.ada, "@ada done 1000 of it", new Date("2022-01-02T00:00:00Z"));
    await entry(id.ada, "@ada tag a_b", new Date("2022-01-03T00:00:00Z"));
    await entry(id.ada, "@ada tag axb", new Date("2022-01-04T00:00:00Z"));
    const messages = async (search: string) => (await body(await log("ada", `?search=${encodeURIComponent(search)}`))).items.map((e) => e.message);
    expect(await messages("100%")).toEqual(["@ada done 100% of it"]);
    expect(await messages("a_b")).toEqual(["@ada tag a_b"]);
  });

  test("a date that is not a date-time answers 400", async () => {
    const res = await log("ada", "?start_date=yesterday");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/start_date/);
  });

  test("moderators lack moderation_log_read; users, anonymous and tokens without admin:read are refused; the admin token reads", async () => {
    const mo = await log("mo");
    expect(mo.status).toBe(403);
    expect(await mo.json()).toEqual({ error: "User isn't privileged." });
    const user = await log("tom");
    expect(user.status).toBe(403);
    expect(await user.json()).toEqual({ error: "User is not a staff member." });
    const anon = await log(null);
    expect(anon.status).toBe(403);
    expect(await anon.json()).toEqual({ error: "Invalid credentials." });
    const plain = (await passwordToken(server, "ada", "read write")).access_token;
    const scoped = await server.fetch(`${PREFIXES[0]}/moderation_log`, { headers: bearer(plain) });
    expect(scoped.status).toBe(403);
    expect(await scoped.json()).toEqual({ error: "Insufficient permissions: admin:read." });
    expect((await server.fetch(`${PREFIXES[1]}/moderation_log?admin_token=${ADMIN_TOKEN}`)).status).toBe(200);
  });
});
