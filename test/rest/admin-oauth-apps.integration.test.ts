// Admin API: OAuth apps (list with filters, create, change, delete) under both prefixes, admins only.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { bearer, cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];
const APP_KEYS = ["client_id", "client_secret", "id", "name", "redirect_uri", "trusted", "website"];

describe.each(suiteKinds(import.meta.url))("admin OAuth apps on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let token: Cast["token"];

  const call = (method: string, path: string, opts: { json?: unknown; who?: string | null; prefix?: string } = {}) =>
    server.fetch(`${opts.prefix ?? PREFIXES[0]}${path}`, {
      method,
      ...(opts.json !== undefined ? { json: opts.json } : {}),
      headers: opts.who === null ? {} : bearer(token[opts.who ?? "ada"]!),
    });
  const create = async (json: Record<string, unknown>, prefix?: string) => {
    const res = await call("POST", "/oauth_app", { json, prefix });
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    ({ token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} }));
    token.adaRead = (await passwordToken(server, "ada", "read admin:read")).access_token;
  });
  afterAll(() => server?.close());

  test("POST without name and redirect_uris: 400 with the family's message and the field map", async () => {
    for (const json of [{}, { name: "", redirect_uris: "" }, { name: "  ", redirect_uris: " " }]) {
      const res = await call("POST", "/oauth_app", { json });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ error: "Missing field: name. Missing field: redirect_uris.", name: "can't be blank", redirect_uris: "can't be blank" });
      expect(body.errors).toHaveLength(2);
    }
    const onlyUris = await call("POST", "/oauth_app", { json: { name: "x" } });
    expect(await onlyUris.json()).toMatchObject({ error: "Missing field: redirect_uris.", redirect_uris: "can't be blank" });
    const badScope = await call("POST", "/oauth_app", { json: { name: "x", redirect_uris: "https://x.example/cb", scopes: ["read", "root"] } });
    expect(badScope.status).toBe(400);
    expect(await badScope.json()).toMatchObject({ error: "scopes - Unknown scope: root.", scopes: "Unknown scope: root" });
    const badUri = await call("POST", "/oauth_app", { json: { name: "x", redirect_uris: "not a uri" } });
    expect(badUri.status).toBe(400);
    expect(await db.oAuthApp.count({ where: { name: "x" } })).toBe(0);
  });

  test("POST creates an app (untrusted by default) with its secrets, under both prefixes", async () => {
    const app = await create({ name: "Trusted app", redirect_uris: "https://app.example/cb", scopes: ["read", "write"], website: "https://app.example", trusted: true });
    expect(Object.keys(app).sort()).toEqual(APP_KEYS);
    expect(app).toMatchObject({ name: "Trusted app", redirect_uri: "https://app.example/cb", website: "https://app.example", trusted: true });
    expect(typeof app.id).toBe("number");
    const row = await db.oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(row).toMatchObject({ clientId: app.client_id, clientSecret: app.client_secret, scopes: ["read", "write"], trusted: true, ownerId: null });

    const plain = await create({ name: "Plain app", redirect_uris: "urn:ietf:wg:oauth:2.0:oob" }, PREFIXES[1]);
    expect(plain).toMatchObject({ name: "Plain app", redirect_uri: "urn:ietf:wg:oauth:2.0:oob", website: null, trusted: false });
    expect(plain.client_id).not.toBe(app.client_id);
    expect((await db.oAuthApp.findUniqueOrThrow({ where: { id: plain.id } })).scopes).toEqual(["read"]);
  });

  test("GET lists apps with count and page_size 50, filtered by name, client_id and trusted", async () => {
    const a = await create({ name: "Filter me", redirect_uris: "https://f.example/cb", trusted: true });
    await create({ name: "Filter me too", redirect_uris: "https://f.example/cb" });
    const [v1, legacy] = await Promise.all(PREFIXES.map((prefix) => call("GET", "/oauth_app", { prefix }).then(async (r) => ({ status: r.status, body: await r.json() }))));
    expect(v1.status).toBe(200);
    expect(legacy).toEqual(v1);
    expect(v1.body.page_size).toBe(50);
    expect(v1.body.count).toBe(await db.oAuthApp.count());
    expect(v1.body.apps).toHaveLength(v1.body.count);
    expect(Object.keys(v1.body.apps[0]).sort()).toEqual(APP_KEYS);

    const byName = await (await call("GET", "/oauth_app?name=Filter%20me")).json();
    expect(byName).toMatchObject({ count: 1, apps: [{ id: a.id, client_id: a.client_id }] });
    const byClient = await (await call("GET", `/oauth_app?client_id=${a.client_id}`)).json();
    expect(byClient.apps.map((x: { id: number }) => x.id)).toEqual([a.id]);
    const trusted = await (await call("GET", "/oauth_app?trusted=true")).json();
    expect(trusted.apps.every((x: { trusted: boolean }) => x.trusted)).toBe(true);
    expect(trusted.count).toBe(await db.oAuthApp.count({ where: { trusted: true } }));
    const untrusted = await (await call("GET", "/oauth_app?trusted=false")).json();
    expect(untrusted.count).toBe(await db.oAuthApp.count({ where: { trusted: false } }));

    const page1 = await (await call("GET", "/oauth_app?page_size=1")).json();
    const page2 = await (await call("GET", "/oauth_app?page_size=1&page=2")).json();
    expect(page1).toMatchObject({ page_size: 1, count: v1.body.count });
    expect(page1.apps).toHaveLength(1);
    expect(page2.apps[0].id).not.toBe(page1.apps[0].id);
  });

  test("PATCH changes what is given and keeps the rest", async () => {
    const app = await create({ name: "Before", redirect_uris: "https://before.example/cb", website: "https://before.example" });
    for (const prefix of PREFIXES) {
      const res = await call("PATCH", `/oauth_app/${app.id}`, { json: { name: "After", trusted: true, scopes: ["admin"] }, prefix });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ...app, name: "After", trusted: true });
    }
    const row = await db.oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(row).toMatchObject({ name: "After", trusted: true, scopes: ["admin"], redirectUris: "https://before.example/cb", website: "https://before.example" });
    const uris = await call("PATCH", `/oauth_app/${app.id}`, { json: { redirect_uris: "https://after.example/cb", website: "" } });
    expect(await uris.json()).toMatchObject({ redirect_uri: "https://after.example/cb", website: null, name: "After" });
    const blank = await call("PATCH", `/oauth_app/${app.id}`, { json: { name: " " } });
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({ error: "Missing field: name.", name: "can't be blank" });
  });

  test("PATCH of an unknown or malformed id: 400 Invalid parameters", async () => {
    for (const id of ["999999", "abc"]) {
      const res = await call("PATCH", `/oauth_app/${id}`, { json: { name: "x" } });
      expect(res.status).toBe(400);
      expect(await res.json()).toBe("Invalid parameters");
    }
  });

  test("DELETE removes the app with its tokens: 204; an unknown id is 400 Invalid parameters", async () => {
    const t = await passwordToken(server, "joe", "read");
    const tokenRow = await db.oAuthToken.findFirstOrThrow({ where: { id: t.id } });
    const res = await call("DELETE", `/oauth_app/${tokenRow.appId}`, { prefix: PREFIXES[1] });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await db.oAuthApp.findUnique({ where: { id: tokenRow.appId } })).toBeNull();
    expect(await db.oAuthToken.findUnique({ where: { id: t.id } })).toBeNull();
    expect((await server.fetch("/api/v1/accounts/verify_credentials", { headers: bearer(t.access_token) })).status).toBe(401);

    for (const id of [String(tokenRow.appId), "0", "abc"]) {
      const again = await call("DELETE", `/oauth_app/${id}`);
      expect(again.status).toBe(400);
      expect(await again.json()).toBe("Invalid parameters");
    }
  });

  test("admins with admin:write only", async () => {
    const app = await create({ name: "Guarded", redirect_uris: "https://g.example/cb" });
    const requests = [
      ["GET", "/oauth_app"],
      ["POST", "/oauth_app", { name: "n", redirect_uris: "https://n.example/cb" }],
      ["PATCH", `/oauth_app/${app.id}`, { name: "changed" }],
      ["DELETE", `/oauth_app/${app.id}`],
    ] as const;
    for (const [method, path, json] of requests) {
      const mo = await call(method, path, { json, who: "mo" });
      expect(mo.status).toBe(403);
      expect(await mo.json()).toEqual({ error: "User is not an admin." });
      expect((await call(method, path, { json, who: "joe" })).status).toBe(403);
      const anon = await call(method, path, { json, who: null });
      expect(anon.status).toBe(403);
      expect(await anon.json()).toEqual({ error: "Invalid credentials." });
      const readOnly = await call(method, path, { json, who: "adaRead" });
      expect(readOnly.status).toBe(403);
      expect(await readOnly.json()).toEqual({ error: "Insufficient permissions: admin:write." });
    }
    expect(await db.oAuthApp.findUniqueOrThrow({ where: { id: app.id } })).toMatchObject({ name: "Guarded" });
    expect(await db.oAuthApp.count({ where: { name: "n" } })).toBe(0);
  });
});
