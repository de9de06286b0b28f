// Admin API: relay subscriptions (with their moderation-log entries) and media-proxy bans, under
// both prefixes, admins only.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { isMediaProxyBanned } from "../../src/domain/media-proxy/media-proxy.ops.ts";
import { bearer, cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];

describe.each(suiteKinds(import.meta.url))("admin relays and media-proxy bans on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let token: Cast["token"];

  const call = (method: string, path: string, opts: { json?: unknown; who?: string | null; prefix?: string } = {}) =>
    server.fetch(`${opts.prefix ?? PREFIXES[0]}${path}`, {
      method,
      ...(opts.json !== undefined ? { json: opts.json } : {}),
      headers: opts.who === null ? {} : bearer(token[opts.who ?? "ada"]!),
    });
  const messages = async () => (await db.moderationLogEntry.findMany({ orderBy: { id: "asc" } })).map((e) => e.message);

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    ({ token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} }));
  });
  afterAll(() => server?.close());

  describe("relays", () => {
    const URL_A = "https://relay-a.example/actor";
    const URL_B = "http://relay-b.example/relay";

    test("POST /relay stores a pending subscription, answers it and logs it", async () => {
      const before = (await messages()).length;
      const res = await call("POST", "/relay", { json: { relay_url: URL_A } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ actor: URL_A, followed_back: false });
      expect(await db.relay.findUniqueOrThrow({ where: { actor: URL_A } })).toMatchObject({ state: "pending", followedBack: false });
      expect((await messages()).slice(before)).toEqual([`@ada followed relay: ${URL_A}`]);

      const legacy = await call("POST", "/relay", { json: { relay_url: URL_B }, prefix: PREFIXES[1] });
      expect(legacy.status).toBe(200);
      expect(await legacy.json()).toEqual({ actor: URL_B, followed_back: false });
    });

    test("following a relay again answers it again and keeps one record (the family re-sends the Follow)", async () => {
      await call("POST", "/relay", { json: { relay_url: "https://again.example/relay" } });
      const before = (await messages()).length;
      const res = await call("POST", "/relay", { json: { relay_url: "https://again.example/relay" } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ actor: "https://again.example/relay", followed_back: false });
      expect(await db.relay.count({ where: { actor: "https://again.example/relay" } })).toBe(1);
      expect((await messages()).slice(before)).toEqual(["@ada followed relay: https://again.example/relay"]);
    });

    test("POST /relay refuses a missing or non-http URL", async () => {
      const missing = await call("POST", "/relay", { json: {} });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toBe("Missing field: relay_url.");
      for (const relay_url of ["not a url", "ftp://relay.example/x"]) expect((await call("POST", "/relay", { json: { relay_url } })).status).toBe(400);
      expect(await db.relay.count({ where: { actor: { in: ["not a url", "ftp://relay.example/x"] } } })).toBe(0);
    });

    test("GET /relay lists {actor, followed_back}, the same under both prefixes", async () => {
      await db.relay.update({ where: { actor: URL_B }, data: { followedBack: true, state: "accepted" } });
      const [v1, legacy] = await Promise.all(PREFIXES.map((prefix) => call("GET", "/relay", { prefix }).then(async (r) => ({ status: r.status, body: await r.json() }))));
      expect(v1.status).toBe(200);
      expect(legacy).toEqual(v1);
      expect(v1.body).toEqual(expect.arrayContaining([{ actor: URL_A, followed_back: false }, { actor: URL_B, followed_back: true }]));
      expect(v1.body).toHaveLength(await db.relay.count());
    });

    test("DELETE /relay removes the subscription, answers the URL and logs it", async () => {
      const before = (await messages()).length;
      const res = await call("DELETE", "/relay", { json: { relay_url: URL_A } });
      expect(res.status).toBe(200);
      expect(await res.json()).toBe(URL_A);
      expect(await db.relay.findUnique({ where: { actor: URL_A } })).toBeNull();
      expect((await messages()).slice(before)).toEqual([`@ada unfollowed relay: ${URL_A}`]);
    });

    test("DELETE of a relay not followed answers 404 {error} (the family: 500, the URL) unless forced", async () => {
      const url = "https://never-followed.example/relay";
      const before = (await messages()).length;
      const res = await call("DELETE", "/relay", { json: { relay_url: url } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: `Not following relay ${url}` });
      expect((await messages()).slice(before)).toEqual([]);

      const forced = await call("DELETE", "/relay", { json: { relay_url: url, force: true }, prefix: PREFIXES[1] });
      expect(forced.status).toBe(200);
      expect(await forced.json()).toBe(url);
      expect((await messages()).slice(before)).toEqual([`@ada unfollowed relay: ${url}`]);
    });

    test("admins only: moderators, users and anonymous are refused", async () => {
      const count = await db.relay.count();
      for (const [method, json] of [["GET"], ["POST", { relay_url: "https://x.example/r" }], ["DELETE", { relay_url: URL_B }]] as const) {
        const mo = await call(method, "/relay", { json, who: "mo" });
        expect(mo.status).toBe(403);
        expect(await mo.json()).toEqual({ error: "User is not an admin." });
        const joe = await call(method, "/relay", { json, who: "joe" });
        expect(joe.status).toBe(403);
        expect((await joe.json()).error).toMatch(/^User is not (an admin|a staff member)\.$/);
        const anon = await call(method, "/relay", { json, who: null });
        expect(anon.status).toBe(403);
        expect(await anon.json()).toEqual({ error: "Invalid credentials." });
      }
      expect(await db.relay.count()).toBe(count);
    });
  });

  describe("media-proxy bans", () => {
    const urls = ["https://cdn.example/a.png", "https://cdn.example/B.png", "https://other.example/c.jpg"];

    test("purge with ban stores the bans; without ban it stores none; ban defaults to true", async () => {
      const res = await call("POST", "/media_proxy_caches/purge", { json: { urls: urls.slice(0, 2), ban: true } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect((await call("POST", "/media_proxy_caches/purge", { json: { urls: ["https://not-banned.example/x.png"], ban: false }, prefix: PREFIXES[1] })).status).toBe(200);
      expect((await call("POST", "/media_proxy_caches/purge", { json: { urls: [urls[2]] } })).status).toBe(200);
      expect((await db.mediaProxyBan.findMany({ orderBy: { url: "asc" } })).map((b) => b.url)).toEqual([...urls].sort());
      expect(await isMediaProxyBanned(server.services, urls[0]!)).toBe(true);
      expect(await isMediaProxyBanned(server.services, "https://not-banned.example/x.png")).toBe(false);
      // banning again is harmless
      expect((await call("POST", "/media_proxy_caches/purge", { json: { urls: [urls[0]], ban: "true" } })).status).toBe(200);
      expect(await db.mediaProxyBan.count()).toBe(3);
    });

    test("GET lists banned URLs with page_size 50 by default, the same under both prefixes", async () => {
      const [v1, legacy] = await Promise.all(PREFIXES.map((prefix) => call("GET", "/media_proxy_caches", { prefix }).then(async (r) => ({ status: r.status, body: await r.json() }))));
      expect(v1.status).toBe(200);
      expect(legacy).toEqual(v1);
      expect(v1.body.page_size).toBe(50);
      expect(v1.body.count).toBe(3);
      expect([...v1.body.urls].sort()).toEqual([...urls].sort());
    });

    test("GET filters by query (case-insensitive) and pages", async () => {
      const q = await (await call("GET", "/media_proxy_caches?query=CDN.example")).json();
      expect(q.count).toBe(2);
      expect([...q.urls].sort()).toEqual(urls.slice(0, 2).sort());
      const p1 = await (await call("GET", "/media_proxy_caches?page=1&page_size=2")).json();
      const p2 = await (await call("GET", "/media_proxy_caches?page=2&page_size=2")).json();
      expect(p1).toMatchObject({ page_size: 2, count: 3 });
      expect(p1.urls).toHaveLength(2);
      expect(p2.urls).toHaveLength(1);
      expect([...p1.urls, ...p2.urls].sort()).toEqual([...urls].sort());
      expect((await call("GET", "/media_proxy_caches?page=0")).status).toBe(400);
    });

    test("delete lifts the bans", async () => {
      const res = await call("POST", "/media_proxy_caches/delete", { json: { urls: [urls[0], "https://unknown.example/z"] } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(await isMediaProxyBanned(server.services, urls[0]!)).toBe(false);
      expect(await db.mediaProxyBan.count()).toBe(2);
      const missing = await call("POST", "/media_proxy_caches/delete", { json: {} });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toBe("Missing field: urls.");
    });

    test("admins only", async () => {
      for (const [method, path, json] of [
        ["GET", "/media_proxy_caches"],
        ["POST", "/media_proxy_caches/delete", { urls: [urls[1]] }],
        ["POST", "/media_proxy_caches/purge", { urls: ["https://x.example/y"] }],
      ] as const) {
        const mo = await call(method, path, { json, who: "mo" });
        expect(mo.status).toBe(403);
        expect(await mo.json()).toEqual({ error: "User is not an admin." });
        expect((await call(method, path, { json, who: "joe" })).status).toBe(403);
        const anon = await call(method, path, { json, who: null });
        expect(anon.status).toBe(403);
        expect(await anon.json()).toEqual({ error: "Invalid credentials." });
      }
      expect(await db.mediaProxyBan.count()).toBe(2);
    });
  });
});
