// How requests authenticate (Bearer scopes, Basic, session cookie, none) and the user's own token
// management (/api/oauth_tokens), against a real server.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const OOB = "urn:ietf:wg:oauth:2.0:oob";
const PASSWORD = "secret-password";
const sha256hex = (s: string) => createHash("sha256").update(s).digest("hex");
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });
const INVALID = { error: "Invalid credentials." };

interface Token {
  access_token: string;
  id: number;
  scope: string;
}

describe.each(suiteKinds(import.meta.url))("credentials and own tokens on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let app: { client_id: string; client_secret: string };

  async function userToken(username: string, scope: string): Promise<Token> {
    const res = await server.fetch("/oauth/token", {
      method: "POST",
      form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password: PASSWORD, scope },
    });
    expect(res.status).toBe(200);
    return res.json();
  }
  const list = (headers: Record<string, string>, path = "/api/oauth_tokens") => server.fetch(path, { headers });
  const remove = (id: number | string, headers: Record<string, string>) => server.fetch(`/api/oauth_tokens/${id}`, { method: "DELETE", headers });

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    await server.createUser("alice");
    await server.createUser("bob");
    const res = await server.fetch("/api/v1/apps", {
      method: "POST",
      json: { client_name: "Security settings", redirect_uris: OOB, scopes: "read write follow push" },
    });
    expect(res.status).toBe(200);
    app = await res.json();
  });
  afterAll(() => server?.close());

  describe("scopes of bearer tokens", () => {
    test("read covers read:security: GET /api/oauth_tokens lists the user's tokens", async () => {
      const tok = await userToken("alice", "read");
      const res = await list(bearer(tok.access_token));
      expect(res.status).toBe(200);
      const body = await res.json();
      const rows = await db.oAuthToken.findMany({ where: { account: { nickname: "alice" } }, orderBy: { id: "desc" } });
      expect(body).toEqual(rows.map((r) => ({ id: r.id, app_name: "Security settings", valid_until: r.expiresAt.toISOString() })));
      expect(body.map((t: { id: number }) => t.id)).toContain(tok.id);
    });

    test("the exact scope read:security works too", async () => {
      const tok = await userToken("alice", "read:security");
      expect((await list(bearer(tok.access_token))).status).toBe(200);
    });

    test("write alone, or a sibling scope, is 403 naming the missing scope", async () => {
      for (const scope of ["write", "read:accounts", "follow push"]) {
        const tok = await userToken("alice", scope);
        const res = await list(bearer(tok.access_token));
        expect(res.status, scope).toBe(403);
        expect(await res.json()).toEqual({ error: "Insufficient permissions: read:security." });
      }
    });

    test("DELETE needs write:security: write covers it, read does not", async () => {
      const victim = await userToken("alice", "read");
      const reader = await userToken("alice", "read");
      const denied = await remove(victim.id, bearer(reader.access_token));
      expect(denied.status).toBe(403);
      expect(await denied.json()).toEqual({ error: "Insufficient permissions: write:security." });
      expect(await db.oAuthToken.findUnique({ where: { id: victim.id } })).not.toBeNull();

      const writer = await userToken("alice", "write");
      const res = await remove(victim.id, bearer(writer.access_token));
      expect(res.status).toBe(201);
      expect(await res.text()).toBe("");
      expect(await db.oAuthToken.findUnique({ where: { id: victim.id } })).toBeNull();
      expect((await list(bearer(victim.access_token))).status).toBe(401);
    });

    test("the token may be given as the access_token query parameter", async () => {
      const tok = await userToken("alice", "read");
      expect((await server.fetch(`/api/oauth_tokens?access_token=${tok.access_token}`)).status).toBe(200);
    });
  });

  describe("Basic auth", () => {
    test("nickname:password lists exactly that user's tokens", async () => {
      const mine = await userToken("bob", "read");
      const theirs = await userToken("alice", "read");
      const res = await list(basic("bob", PASSWORD));
      expect(res.status).toBe(200);
      const body: { id: number; app_name: string; valid_until: string }[] = await res.json();
      const ids = body.map((t) => t.id);
      expect(ids).toContain(mine.id);
      expect(ids).not.toContain(theirs.id);
      expect(ids.sort((a, b) => a - b)).toEqual((await db.oAuthToken.findMany({ where: { account: { nickname: "bob" } } })).map((r) => r.id).sort((a, b) => a - b));
      const entry = body.find((t) => t.id === mine.id)!;
      expect(entry.app_name).toBe("Security settings");
      expect(new Date(entry.valid_until).getTime()).toBeGreaterThan(Date.now() + 300 * 86400_000);
    });

    test("the e-mail address works as the user name", async () => {
      expect((await list(basic("bob@example.test", PASSWORD))).status).toBe(200);
    });

    test("a wrong password is 401", async () => {
      const res = await list(basic("bob", "wrong-password"));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Invalid credentials" });
    });
  });

  describe("session cookie", () => {
    async function cookieFromAuthorizeForm(nickname: string) {
      const res = await server.fetch("/oauth/authorize", {
        method: "POST",
        form: {
          "authorization[name]": nickname,
          "authorization[password]": PASSWORD,
          "authorization[client_id]": app.client_id,
          "authorization[redirect_uri]": OOB,
          "authorization[scope]": "read",
        },
      });
      expect(res.status).toBe(200);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("_ext_key="));
      expect(cookie).toBeDefined();
      return cookie!.split(";")[0];
    }

    test("the _ext_key cookie from the authorize form authenticates REST calls as that user", async () => {
      const cookie = await cookieFromAuthorizeForm("bob");
      const res = await list({ cookie });
      expect(res.status).toBe(200);
      const ids = ((await res.json()) as { id: number }[]).map((t) => t.id).sort((a, b) => a - b);
      expect(ids).toEqual((await db.oAuthToken.findMany({ where: { account: { nickname: "bob" } } })).map((r) => r.id).sort((a, b) => a - b));
    });

    test("a deleted session cookie is anonymous again", async () => {
      const cookie = await cookieFromAuthorizeForm("bob");
      expect((await list({ cookie })).status).toBe(200);
      await db.session.delete({ where: { id: sha256hex(cookie.slice("_ext_key=".length)) } });
      const res = await list({ cookie });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(INVALID);
    });

    test("a bogus cookie is treated as anonymous: 403 Invalid credentials.", async () => {
      const res = await list({ cookie: "_ext_key=bogus-session-token" });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(INVALID);
    });

    test("no credentials at all: 403 Invalid credentials.", async () => {
      const res = await list({});
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(INVALID);
      const del = await remove(1, {});
      expect(del.status).toBe(403);
      expect(await del.json()).toEqual(INVALID);
    });

    test("a garbage bearer token is 401, not anonymous", async () => {
      const res = await list(bearer("garbage"));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(INVALID);
    });
  });

  describe("dead credentials on public routes", () => {
    test("a garbage bearer token on a public route is ignored, as the family's servers do", async () => {
      const res = await server.fetch("/api/v1/apps", { method: "POST", json: { client_name: "x", redirect_uris: "urn:ietf:wg:oauth:2.0:oob" }, headers: bearer("garbage") });
      expect(res.status).toBe(200);
      expect((await server.fetch("/api/v1/instance", { headers: bearer("garbage") })).status).toBe(200);
    });
  });

  describe("DELETE /api/oauth_tokens/:id", () => {
    test("own token: 201, the row is gone and the token is dead", async () => {
      const doomed = await userToken("bob", "read");
      const res = await remove(doomed.id, basic("bob", PASSWORD));
      expect(res.status).toBe(201);
      expect(await db.oAuthToken.findUnique({ where: { id: doomed.id } })).toBeNull();
      expect((await list(bearer(doomed.access_token))).status).toBe(401);
    });

    test("someone else's token: 404 and the row remains", async () => {
      const alices = await userToken("alice", "read");
      const res = await remove(alices.id, basic("bob", PASSWORD));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Not found" });
      expect(await db.oAuthToken.findUnique({ where: { id: alices.id } })).not.toBeNull();
      expect((await list(bearer(alices.access_token))).status).toBe(200);
    });

    test("an unknown id is 404", async () => {
      const res = await remove(987654, basic("bob", PASSWORD));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Not found" });
    });

    test("a token may revoke itself", async () => {
      const tok = await userToken("bob", "read write");
      const res = await remove(tok.id, bearer(tok.access_token));
      expect(res.status).toBe(201);
      expect(await db.oAuthToken.findUnique({ where: { id: tok.id } })).toBeNull();
      expect((await list(bearer(tok.access_token))).status).toBe(401);
    });
  });

  test("/api/oauth_tokens.json is an alias of /api/oauth_tokens", async () => {
    const tok = await userToken("alice", "read");
    const plain = await list(bearer(tok.access_token));
    const json = await list(bearer(tok.access_token), "/api/oauth_tokens.json");
    expect(plain.status).toBe(200);
    expect(json.status).toBe(200);
    const body = await json.json();
    expect(body).toEqual(await plain.json());
    expect(body.map((t: { id: number }) => t.id)).toContain(tok.id);
    // the alias applies the same scope check
    const writeOnly = await userToken("alice", "write");
    const denied = await list(bearer(writeOnly.access_token), "/api/oauth_tokens.json");
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: "Insufficient permissions: read:security." });
  });
});
