// The later family's synced frontend settings profiles, served under the family word: with
// API_NAMESPACE=pleroma API_FAMILY=akkoma (that family's own set-up) at /api/v1/akkoma/frontend_settings.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const BASE = "/api/v1/akkoma/frontend_settings";

describe("frontend settings profiles (API_FAMILY=akkoma)", () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const call = async (who: string, method: string, path: string, json?: unknown) => {
    const res = await server.fetch(path, { method, ...(json !== undefined ? { json } : {}), headers: { authorization: `Bearer ${tokens[who]}` } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", API_FAMILY: "akkoma" });
    for (const nick of ["ann", "bob"]) {
      await server.createUser(nick);
      tokens[nick] = (await passwordToken(server, nick, "read write")).access_token;
    }
    tokens.annRead = (await passwordToken(server, "ann", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("create, read, list, update with a greater version only, delete", async () => {
    expect(await call("ann", "GET", `${BASE}/pleroma-fe`)).toEqual({ status: 200, body: [] });
    expect((await call("ann", "GET", `${BASE}/pleroma-fe/default`)).status).toBe(404);

    const created = await call("ann", "PUT", `${BASE}/pleroma-fe/default`, { settings: { theme: "dark", collapse: true }, version: 1 });
    expect(created).toEqual({ status: 200, body: { theme: "dark", collapse: true } });
    await call("ann", "PUT", `${BASE}/pleroma-fe/phone`, { settings: { theme: "light" }, version: 5 });
    expect((await call("ann", "GET", `${BASE}/pleroma-fe`)).body).toEqual([{ name: "default", version: 1 }, { name: "phone", version: 5 }]);
    expect((await call("ann", "GET", `${BASE}/pleroma-fe/default`)).body).toEqual({ theme: "dark", collapse: true });
    // another user and another frontend see nothing of it
    expect((await call("bob", "GET", `${BASE}/pleroma-fe`)).body).toEqual([]);
    expect((await call("ann", "GET", `${BASE}/other-fe`)).body).toEqual([]);

    const stale = await call("ann", "PUT", `${BASE}/pleroma-fe/default`, { settings: { theme: "stale" }, version: 1 });
    expect(stale).toEqual({ status: 422, body: { error: "version must be greater than the current version" } });
    expect((await call("ann", "PUT", `${BASE}/pleroma-fe/default`, { settings: { theme: "new" }, version: 2 })).body).toEqual({ theme: "new" });
    expect((await call("ann", "GET", `${BASE}/pleroma-fe/default`)).body).toEqual({ theme: "new" });

    const huge = await call("ann", "PUT", `${BASE}/pleroma-fe/big`, { settings: { blob: "x".repeat(100_001) }, version: 1 });
    expect(huge).toEqual({ status: 422, body: { error: "settings too large" } });
    expect((await call("ann", "PUT", `${BASE}/pleroma-fe/bad%20name`, { settings: {}, version: 1 })).status).toBe(400);
    expect((await call("annRead", "PUT", `${BASE}/pleroma-fe/default`, { settings: {}, version: 9 })).status).toBe(403);

    expect(await call("ann", "DELETE", `${BASE}/pleroma-fe/phone`)).toEqual({ status: 200, body: { deleted: "ok" } });
    expect((await call("ann", "DELETE", `${BASE}/pleroma-fe/phone`)).status).toBe(404);
    expect((await call("ann", "GET", `${BASE}/pleroma-fe`)).body).toEqual([{ name: "default", version: 2 }]);
  });

  test("the routes follow the family word, not the namespace", async () => {
    expect((await call("ann", "GET", "/api/v1/pleroma/frontend_settings/pleroma-fe")).status).toBe(404);
  });
});
