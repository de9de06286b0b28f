// Announcements: the admin API's CRUD (every announcement, both prefixes, its privilege) and the
// reference API's active list, dismissal and reactions.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { cast } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const BASE = "http://localhost:4000";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];
const DAY = 24 * 60 * 60 * 1000;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const ANNOUNCEMENT_KEYS = ["all_day", "content", "emojis", "ends_at", "id", "mentions", "published", "published_at", "reactions", "starts_at", "statuses", "tags", "updated_at"];

describe.each(suiteKinds(import.meta.url))("announcements on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  const token: Record<string, string> = {};
  let bob: { id: string };

  const call = (method: string, path: string, opts: { json?: unknown; who?: string | null; prefix?: string } = {}) =>
    server.fetch(`${opts.prefix ?? PREFIXES[0]}${path}`, {
      method,
      ...(opts.json !== undefined ? { json: opts.json } : {}),
      headers: opts.who === null ? {} : auth(token[opts.who ?? "ada"]!),
    });
  const api = (method: string, path: string, who: string | null = "bob") => server.fetch(path, { method, headers: who ? auth(token[who]!) : {} });
  const create = async (json: Record<string, unknown>) => {
    const res = await call("POST", "/announcements", { json });
    expect(res.status).toBe(200);
    return res.json();
  };
  const nextEvent = () => {
    const iterator = server.services.bus.subscribe("announcement")[Symbol.asyncIterator]();
    const first = iterator.next();
    return async () => {
      const { value } = await first;
      await iterator.return?.();
      return value;
    };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    const people = await cast(server, { ada: { admin: true }, mo: { moderator: true }, bob: {}, cy: {} });
    Object.assign(token, people.token);
    bob = people.users.bob!;
    token.bobRead = (await passwordToken(server, "bob", "read")).access_token;
  });
  afterAll(() => server?.close());

  describe("admin API", () => {
    test("POST needs content; starts_at/ends_at default to null and all_day to false", async () => {
      const missing = await call("POST", "/announcements", { json: {} });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toBe("Missing field: content.");

      const published = nextEvent();
      const a = await create({ content: "Hello #News, see https://docs.example/x and @bob" });
      expect(Object.keys(a).sort()).toEqual([...ANNOUNCEMENT_KEYS, "ext"].sort());
      expect(a).toMatchObject({ starts_at: null, ends_at: null, all_day: false, statuses: [], emojis: [], reactions: [], ext: { raw_content: "Hello #News, see https://docs.example/x and @bob" } });
      expect(a.content).toContain(`<a class="hashtag" href="${BASE}/tag/news"`);
      expect(a.content).toContain('<a href="https://docs.example/x"');
      expect(a.content).toContain('class="u-url mention"');
      expect(a.mentions).toEqual([{ id: bob.id, username: "bob", acct: "bob", url: `${BASE}/users/bob` }]);
      expect(a.tags).toEqual([{ name: "news", url: `${BASE}/tag/news` }]);
      expect(await published()).toEqual({ id: a.id, change: "created" });
      const row = await db.announcement.findUniqueOrThrow({ where: { id: a.id } });
      expect(row).toMatchObject({ content: "Hello #News, see https://docs.example/x and @bob", startsAt: null, endsAt: null, allDay: false });
      expect(a.published_at).toBe(row.publishedAt.toISOString());

      const dated = await create({ content: "Maintenance", starts_at: "2030-01-01T10:00:00.000Z", ends_at: "2030-01-01T12:00:00+02:00", all_day: "true" });
      expect(dated).toMatchObject({ starts_at: "2030-01-01T10:00:00.000Z", ends_at: "2030-01-01T10:00:00.000Z", all_day: true });
      const badDate = await call("POST", "/announcements", { json: { content: "x", starts_at: "soon" } });
      expect(badDate.status).toBe(400);
    });

    test("GET lists every announcement (active or not) oldest first, limit 20 by default, the same under both prefixes", async () => {
      await db.announcement.deleteMany({});
      const now = Date.now();
      const rows = Array.from({ length: 22 }, (_, i) => ({
        id: `ann${String(i).padStart(3, "0")}`,
        content: `number ${i}`,
        startsAt: i % 2 ? new Date(now + DAY) : null,
        endsAt: i % 3 === 0 ? new Date(now - DAY) : null,
        publishedAt: new Date(now - (100 - i) * 1000),
      }));
      await db.announcement.createMany({ data: rows });
      const [v1, legacy] = await Promise.all(PREFIXES.map((prefix) => call("GET", "/announcements", { prefix }).then(async (r) => ({ status: r.status, body: await r.json() }))));
      expect(v1.status).toBe(200);
      expect(legacy).toEqual(v1);
      expect(v1.body.map((a: { id: string }) => a.id)).toEqual(rows.slice(0, 20).map((r) => r.id));
      expect(v1.body[0].ext).toEqual({ raw_content: "number 0" });
      const page = await (await call("GET", "/announcements?offset=20&limit=5")).json();
      expect(page.map((a: { id: string }) => a.id)).toEqual(["ann020", "ann021"]);
    });

    test("GET refuses limit 0 or -1 and offset -1", async () => {
      for (const q of ["limit=0", "limit=-1", "offset=-1"]) {
        const res = await call("GET", `/announcements?${q}`);
        expect(res.status, q).toBe(400);
        expect((await res.json()).error).toMatch(/^(limit|offset)/);
      }
    });

    test("GET /:id answers one announcement; unknown ids are 404", async () => {
      const a = await create({ content: "one" });
      for (const prefix of PREFIXES) {
        const res = await call("GET", `/announcements/${a.id}`, { prefix });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual(a);
      }
      const unknown = await call("GET", "/announcements/nope");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Not found" });
    });

    test("PATCH keeps missing parameters, clears dates given as null, and announces the change", async () => {
      const a = await create({ content: "draft", starts_at: "2031-05-01T00:00:00Z", ends_at: "2031-06-01T00:00:00Z", all_day: true });
      const changed = nextEvent();
      const res = await call("PATCH", `/announcements/${a.id}`, { json: { content: "final" } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ content: "final", starts_at: "2031-05-01T00:00:00.000Z", ends_at: "2031-06-01T00:00:00.000Z", all_day: true, ext: { raw_content: "final" } });
      expect(await changed()).toEqual({ id: a.id, change: "updated" });
      const cleared = await (await call("PATCH", `/announcements/${a.id}`, { json: { starts_at: null, all_day: false }, prefix: PREFIXES[1] })).json();
      expect(cleared).toMatchObject({ content: "final", starts_at: null, ends_at: "2031-06-01T00:00:00.000Z", all_day: false });
      expect(await db.announcement.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({ content: "final", startsAt: null, allDay: false });
      const unknown = await call("PATCH", "/announcements/nope", { json: { content: "x" } });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Not found" });
    });

    test("DELETE answers {} and removes it; unknown ids are 404", async () => {
      const a = await create({ content: "bye" });
      const deleted = nextEvent();
      const res = await call("DELETE", `/announcements/${a.id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(await deleted()).toEqual({ id: a.id, change: "deleted" });
      expect(await db.announcement.findUnique({ where: { id: a.id } })).toBeNull();
      const again = await call("DELETE", `/announcements/${a.id}`, { prefix: PREFIXES[1] });
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({ error: "Not found" });
    });

    test("moderators lack announcements_manage_announcements by default; users and anonymous are refused", async () => {
      const a = await create({ content: "guarded" });
      const requests = [
        ["GET", "/announcements"],
        ["GET", `/announcements/${a.id}`],
        ["POST", "/announcements", { content: "nope" }],
        ["PATCH", `/announcements/${a.id}`, { content: "changed" }],
        ["DELETE", `/announcements/${a.id}`],
      ] as const;
      for (const [method, path, json] of requests) {
        for (const [who, error] of [
          ["mo", "User isn't privileged."],
          ["bob", "User is not a staff member."],
          [null, "Invalid credentials."],
        ] as const) {
          const res = await call(method, path, { json, who });
          expect(res.status, `${method} ${path} as ${who}`).toBe(403);
          expect(await res.json()).toEqual({ error });
        }
      }
      expect(await db.announcement.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({ content: "guarded" });
      expect(await db.announcement.count({ where: { content: "nope" } })).toBe(0);
    });
  });

  describe("reference API", () => {
    let active: { id: string };
    let windowed: { id: string };

    beforeAll(async () => {
      await db.announcement.deleteMany({});
      const now = Date.now();
      active = await create({ content: "active" });
      windowed = await create({ content: "windowed", starts_at: new Date(now - DAY).toISOString(), ends_at: new Date(now + DAY).toISOString() });
      await create({ content: "future", starts_at: new Date(now + DAY).toISOString() });
      await create({ content: "past", ends_at: new Date(now - DAY).toISOString() });
    });

    test("GET /api/v1/announcements lists the active ones with read per viewer; anonymous is refused", async () => {
      const res = await api("GET", "/api/v1/announcements", "bobRead");
      expect(res.status).toBe(200);
      const list = await res.json();
      expect(list.map((a: { id: string }) => a.id)).toEqual([active.id, windowed.id]);
      expect(Object.keys(list[0]).sort()).toEqual([...ANNOUNCEMENT_KEYS, "read"].sort());
      expect(list[0]).toMatchObject({ content: "active", read: false, mentions: [], statuses: [], tags: [], emojis: [], reactions: [] });
      expect(list[0].ext).toBeUndefined();
      const anon = await api("GET", "/api/v1/announcements", null);
      expect(anon.status).toBe(403);
      expect(await anon.json()).toEqual({ error: "Invalid credentials." });
    });

    test("dismiss marks it read for that viewer only; unknown ids are 404", async () => {
      const res = await api("POST", `/api/v1/announcements/${active.id}/dismiss`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect((await api("POST", `/api/v1/announcements/${active.id}/dismiss`)).status).toBe(200);
      expect(await db.announcementRead.count({ where: { announcementId: active.id } })).toBe(1);
      const bobs = await (await api("GET", "/api/v1/announcements")).json();
      expect(bobs.find((a: { id: string }) => a.id === active.id).read).toBe(true);
      const cys = await (await api("GET", "/api/v1/announcements", "cy")).json();
      expect(cys.find((a: { id: string }) => a.id === active.id).read).toBe(false);
      const unknown = await api("POST", "/api/v1/announcements/nope/dismiss");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Record not found" });
      const readOnly = await api("POST", `/api/v1/announcements/${windowed.id}/dismiss`, "bobRead");
      expect(readOnly.status).toBe(403);
    });

    test("reactions: unicode emoji, counted per name with `me`, spellings unified, removable", async () => {
      const react = (method: string, name: string, who = "bob", id = windowed.id) => api(method, `/api/v1/announcements/${id}/reactions/${encodeURIComponent(name)}`, who);
      const put = await react("PUT", "👍");
      expect(put.status).toBe(200);
      expect(await put.json()).toEqual({});
      expect((await react("PUT", "👍")).status).toBe(200);
      expect((await react("PUT", "👍", "cy")).status).toBe(200);
      expect((await react("PUT", "❤", "cy")).status).toBe(200);
      const view = async (who: string) => (await (await api("GET", "/api/v1/announcements", who)).json()).find((a: { id: string }) => a.id === windowed.id).reactions;
      expect(await view("bob")).toEqual([
        { name: "👍", count: 2, me: true },
        { name: "❤️", count: 1, me: false },
      ]);
      expect(await view("cy")).toEqual([
        { name: "👍", count: 2, me: true },
        { name: "❤️", count: 1, me: true },
      ]);
      const removed = await react("DELETE", "❤️", "cy");
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({});
      expect((await react("DELETE", "🎉", "cy")).status).toBe(200); // never there: not an error
      expect(await view("cy")).toEqual([{ name: "👍", count: 2, me: true }]);
      const admin = await (await call("GET", `/announcements/${windowed.id}`)).json();
      expect(admin.reactions).toEqual([{ name: "👍", count: 2, me: false }]);
    });

    test("reactions refuse names that are not emoji (422) and unknown announcements (404)", async () => {
      for (const name of ["abc", ":blobcat:"]) {
        const res = await api("PUT", `/api/v1/announcements/${windowed.id}/reactions/${encodeURIComponent(name)}`);
        expect(res.status, name).toBe(422);
        expect((await res.json()).error).toBeTruthy();
      }
      const unknown = await api("PUT", `/api/v1/announcements/nope/reactions/${encodeURIComponent("👍")}`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Record not found" });
      expect((await api("PUT", `/api/v1/announcements/${windowed.id}/reactions/${encodeURIComponent("👍")}`, "bobRead")).status).toBe(403);
    });

    test("the list costs the same number of queries for 2 or 8 announcements", async () => {
      const two = await server.countQueries(() => api("GET", "/api/v1/announcements").then((r) => r.json()));
      for (let i = 0; i < 6; i++) await create({ content: `more ${i}` });
      const eight = await server.countQueries(() => api("GET", "/api/v1/announcements").then((r) => r.json()));
      expect(eight.result).toHaveLength(8);
      expect(eight.queries).toBe(two.queries);
    });
  });
});
