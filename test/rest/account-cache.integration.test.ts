// Issue 17: the account cache (src/domain/accounts/account-cache.ts). A page of statuses takes the
// account rows it shows from the cache once they were read; every write to an account must show on the
// very next page, in this process and, over Redis, in the others; a warm page is the same JSON as a cold
// one; a warm page's statement reads no account row the cache holds.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accountCache } from "../../src/domain/accounts/account-cache.ts";
import type { RunningServer } from "../../src/server.ts";
import { admin, bearer, user, type User } from "../support/actors.ts";
import { serversSharingRedis, signInOn, type SharedServers } from "../support/redis-servers.ts";
import { pageCacheOf } from "../../src/http/routes/page-cache.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

const ADMIN = "/api/v1/ext/admin";

describe("account cache on postgres", () => {
  let server: TestServer;
  let ana: User; // the author
  let ben: User; // a reader who follows ana
  let root: User; // an administrator

  const ok = async (r: Promise<{ status: number; body: any }>) => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const home = async () => (await ok(call(server, ben, "GET", "/api/v1/timelines/home?limit=40"))) as any[];
  const anaOnHome = async () => (await home()).find((s) => s.account.id === ana.id)!.account;

  beforeAll(async () => {
    server = await startTestServer("postgres");
    [ana, ben, root] = [await user(server, "ana"), await user(server, "ben"), await admin(server, "root")];
    await ok(call(server, ben, "POST", `/api/v1/accounts/${ana.id}/follow`));
    await ok(server.fetch("/api/v1/statuses", { json: { status: "hello @ben" }, headers: ana.auth }).then(async (r) => ({ status: r.status, body: await r.json() })));
  }, 120_000);
  afterAll(() => server?.close());

  test("a page read once keeps its accounts; the next reads none of their rows and renders the same", async () => {
    // the account cache is set by hand below, behind the events' back: the kept page is dropped by hand too
    const renderAgain = () => pageCacheOf(server.services)!.clear();
    accountCache(server.services).invalidate({ all: "a" });
    renderAgain();
    const cold = await home();
    expect(accountCache(server.services).get(ana.id)?.nickname).toBe("ana");
    expect(accountCache(server.services).get(ben.id), "the mentioned account too").toBeDefined();
    expect(await home()).toEqual(cold);
    // the warm page takes ana's row from the cache, not from the database: a row put there shows
    const cache = accountCache(server.services);
    cache.store(cache.begin(), { ...cache.get(ana.id)!, displayName: "From the cache" });
    renderAgain();
    expect((await anaOnHome()).display_name).toBe("From the cache");
    cache.invalidate({ keys: [`a:${ana.id}`] });
    renderAgain();
    expect((await anaOnHome()).display_name).toBe("ana");
  });

  test("a profile edit shows on the next page", async () => {
    await anaOnHome();
    await ok(server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json: { display_name: "Ana Edited", locked: true }, headers: ana.auth }).then(async (r) => ({ status: r.status, body: await r.json() })));
    expect(await anaOnHome()).toMatchObject({ display_name: "Ana Edited", locked: true });
  });

  test("an administrator's change (tags on many accounts at once, a role) shows on the next page", async () => {
    await ok(server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json: { show_role: true }, headers: ana.auth }).then(async (r) => ({ status: r.status, body: await r.json() })));
    expect((await anaOnHome()).ext.is_moderator).toBe(false);
    const tagged = await server.fetch(`${ADMIN}/users/tag`, { method: "PUT", json: { nicknames: ["ana"], tags: ["mrf_tag:media-force-nsfw"] }, headers: root.auth });
    expect(tagged.status).toBe(204);
    expect((await anaOnHome()).ext.tags).toEqual(["mrf_tag:media-force-nsfw"]);
    const promoted = await server.fetch(`${ADMIN}/users/ana/permission_group/moderator`, { method: "POST", headers: root.auth });
    expect(promoted.status).toBe(200);
    expect((await anaOnHome()).ext.is_moderator).toBe(true);
  });

  test("notifications: their accounts come from the cache too, and an edit shows on the next page", async () => {
    const cat = await user(server, "cat");
    await ok(call(server, cat, "POST", `/api/v1/accounts/${ben.id}/follow`));
    const catOnNotifications = async () => ((await ok(call(server, ben, "GET", "/api/v1/notifications"))) as any[]).find((n) => n.type === "follow" && n.account.id === cat.id)!.account;
    expect((await catOnNotifications()).display_name).toBe("cat");
    const cache = accountCache(server.services);
    cache.store(cache.begin(), { ...cache.get(cat.id)!, displayName: "From the cache" });
    expect((await catOnNotifications()).display_name).toBe("From the cache");
    await ok(server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json: { display_name: "Cat Edited" }, headers: cat.auth }).then(async (r) => ({ status: r.status, body: await r.json() })));
    expect((await catOnNotifications()).display_name).toBe("Cat Edited");
  });

  test("an account's own pages find the account in the cache; a deactivation shows on the next one", async () => {
    const dan = await user(server, "dan");
    const page = `/api/v1/accounts/${dan.id}/statuses`;
    await ok(call(server, ben, "GET", page));
    // the account named by the path comes from the cache, not from the database: a row put there shows
    const cache = accountCache(server.services);
    expect(cache.get(dan.id)?.nickname).toBe("dan");
    cache.store(cache.begin(), { ...cache.get(dan.id)!, displayName: "From the cache" });
    expect((await ok(call(server, ben, "GET", `/api/v1/accounts/${dan.id}`))).display_name).toBe("From the cache");
    const off = await server.fetch(`${ADMIN}/users/deactivate`, { method: "PATCH", json: { nicknames: ["dan"] }, headers: root.auth });
    expect(off.status).toBe(200);
    expect((await call(server, ben, "GET", `/api/v1/accounts/${dan.id}`)).status).toBe(404);
    expect((await call(server, root, "GET", `/api/v1/accounts/${dan.id}`)).body).toMatchObject({ display_name: "dan" });
  });

  test("ACCOUNT_CACHE_ENTRIES=0 keeps nothing", async () => {
    const off = await startTestServer("postgres", { ACCOUNT_CACHE_ENTRIES: "0" });
    try {
      const [a, b] = [await user(off, "ana"), await user(off, "ben")];
      await call(off, b, "POST", `/api/v1/accounts/${a.id}/follow`);
      await off.fetch("/api/v1/statuses", { json: { status: "hi" }, headers: a.auth });
      expect((await call(off, b, "GET", "/api/v1/timelines/home")).body).toHaveLength(1);
      expect(accountCache(off.services).size).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe("account cache across two servers sharing Redis", () => {
  let a: RunningServer;
  let b: RunningServer;
  let shared: SharedServers;

  beforeAll(async () => {
    shared = await serversSharingRedis(2);
    [a, b] = shared.servers;
  }, 120_000);
  afterAll(() => shared?.close());

  test("a profile edit through A reaches B's next page", async () => {
    const [ana, ben] = [await signInOn(a, "ana"), await signInOn(a, "ben")];
    const send = (server: RunningServer, who: { token: string }, method: string, p: string, body?: unknown) =>
      fetch(server.url + p, { method, headers: { ...bearer(who.token), "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    expect((await send(a, ben, "POST", `/api/v1/accounts/${ana.id}/follow`)).status).toBe(200);
    expect((await send(a, ana, "POST", "/api/v1/statuses", { status: "hello" })).status).toBe(200);
    const anaOn = async (server: RunningServer) => ((await (await send(server, ben, "GET", "/api/v1/timelines/home")).json()) as any[])[0].account;
    expect((await anaOn(b)).display_name).toBe("ana");
    expect(accountCache(b.services).get(ana.id)).toBeDefined();
    expect((await send(a, ana, "PATCH", "/api/v1/accounts/update_credentials", { display_name: "Ana Edited" })).status).toBe(200);
    // the event crosses Redis within a second or two; the cache would hold the row for a minute
    await waitFor(async () => (await anaOn(b)).display_name === "Ana Edited", "B to show the edited row", { timeoutMs: 3_000, intervalMs: 50 });
  });
});
