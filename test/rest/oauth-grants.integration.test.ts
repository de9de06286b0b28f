// App registration, /oauth/token (password, client_credentials, refresh_token), /oauth/revoke,
// and error bodies of the OAuth endpoints, against a real server.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const OOB = "urn:ietf:wg:oauth:2.0:oob";
const PASSWORD = "secret-password";
const sha256hex = (s: string) => createHash("sha256").update(s).digest("hex");
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface App {
  id: string;
  name: string;
  client_id: string;
  client_secret: string;
  redirect_uri: string;
  scopes: string[];
}
interface TokenBody {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  scope: string;
  created_at: number;
  expires_in: number;
  id: number;
  me?: string;
}

describe.each(suiteKinds(import.meta.url))("OAuth apps and token grants on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];

  async function registerApp(scopes = "read write", name = "grant app", redirect = OOB): Promise<App> {
    const res = await server.fetch("/api/v1/apps", { method: "POST", json: { client_name: name, redirect_uris: redirect, scopes } });
    expect(res.status).toBe(200);
    return res.json();
  }
  const token = (form: Record<string, string>) => server.fetch("/oauth/token", { method: "POST", form });
  const passwordGrant = (app: App, username: string, extra: Record<string, string> = {}) =>
    token({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password: PASSWORD, ...extra });
  /** GET /api/oauth_tokens: needs read:security and a user; 200 proves the token is alive. */
  const probe = (accessToken: string) => server.fetch("/api/oauth_tokens", { headers: bearer(accessToken) });

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    await server.createUser("alice");
    await server.createUser("bob");
  });
  afterAll(() => server?.close());

  describe("POST /api/v1/apps", () => {
    const expectApp = async (res: Response, name: string) => {
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ name, redirect_uri: OOB, scopes: ["read", "write"] });
      expect(body.id).toMatch(/^\d+$/);
      expect(body.client_id).toMatch(/^[a-z0-9]{20,}$/);
      expect(body.client_secret).toMatch(/^[a-z0-9]{20,}$/);
      const row = await db.oAuthApp.findUnique({ where: { clientId: body.client_id } });
      expect(row).toMatchObject({ id: Number(body.id), name, clientSecret: body.client_secret, redirectUris: OOB, scopes: ["read", "write"] });
      return body;
    };

    test("a JSON body registers an app", async () => {
      await expectApp(await server.fetch("/api/v1/apps", { method: "POST", json: { client_name: "json app", redirect_uris: OOB, scopes: "read write" } }), "json app");
    });

    test("an urlencoded body registers an app", async () => {
      await expectApp(await server.fetch("/api/v1/apps", { method: "POST", form: { client_name: "form app", redirect_uris: OOB, scopes: "read write" } }), "form app");
    });

    test("a multipart body registers an app", async () => {
      const fd = new FormData();
      fd.set("client_name", "multipart app");
      fd.set("redirect_uris", OOB);
      fd.set("scopes", "read write");
      await expectApp(await server.fetch("/api/v1/apps", { method: "POST", body: fd }), "multipart app");
    });

    test("every registration gets its own credentials", async () => {
      const a = await registerApp();
      const b = await registerApp();
      expect(a.client_id).not.toBe(b.client_id);
      expect(a.client_secret).not.toBe(b.client_secret);
    });

    test("a missing client_name is a 400 with the field named, and nothing is stored", async () => {
      const before = await db.oAuthApp.count();
      const res = await server.fetch("/api/v1/apps", { method: "POST", json: { redirect_uris: OOB, scopes: "read" } });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toBe("Missing field: client_name.");
      expect(body.errors).toEqual([expect.objectContaining({ source: { pointer: "/client_name" }, message: "Missing field: client_name." })]);
      expect(await db.oAuthApp.count()).toBe(before);
    });

    test("a present but wrong-typed client_name is not reported as missing", async () => {
      const res = await server.fetch("/api/v1/apps", { method: "POST", json: { client_name: 5, redirect_uris: OOB } });
      expect(res.status).toBe(400);
      expect((await res.json()).error).not.toMatch(/^Missing field/);
    });

    test("an unknown scope is refused", async () => {
      const res = await server.fetch("/api/v1/apps", { method: "POST", json: { client_name: "x", redirect_uris: OOB, scopes: "read bogus" } });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("scopes - Unknown scope: bogus.");
    });

    test("a malformed JSON body is a 400 {error} without a stack trace", async () => {
      const res = await server.fetch("/api/v1/apps", { method: "POST", headers: { "content-type": "application/json" }, body: '{"client_name": "x",' });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: "Invalid JSON body" });
      expect(text).not.toMatch(/SyntaxError|node_modules|\bat \S+ \(|\.ts:\d+/);
    });
  });

  describe("GET /api/v1/apps/verify_credentials", () => {
    test("a user token shows its app without the secret", async () => {
      const app = await registerApp("read write", "verify app");
      const tok: TokenBody = await (await passwordGrant(app, "alice")).json();
      const res = await server.fetch("/api/v1/apps/verify_credentials", { headers: bearer(tok.access_token) });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ id: app.id, name: "verify app", scopes: ["read", "write"] });
      expect(body).not.toHaveProperty("client_secret");
      expect(body).not.toHaveProperty("client_id");
    });

    test("an app token (client_credentials) shows its app", async () => {
      const app = await registerApp("read write", "app-only");
      const tok: TokenBody = await (await token({ grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret })).json();
      const res = await server.fetch("/api/v1/apps/verify_credentials", { headers: bearer(tok.access_token) });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.name).toBe("app-only");
      expect(body).not.toHaveProperty("client_secret");
    });

    test("without a token it is 403 {error}", async () => {
      const res = await server.fetch("/api/v1/apps/verify_credentials");
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid credentials." });
    });

    test("with a garbage bearer token it is 401 {error}", async () => {
      const res = await server.fetch("/api/v1/apps/verify_credentials", { headers: bearer("not-a-token") });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Invalid credentials." });
    });
  });

  describe("password grant", () => {
    test("by nickname: a user token with refresh token, row stored hashed", async () => {
      const app = await registerApp();
      const before = Math.floor(Date.now() / 1000);
      const res = await passwordGrant(app, "alice", { scope: "read" });
      expect(res.status).toBe(200);
      const body: TokenBody = await res.json();
      expect(body).toMatchObject({ token_type: "Bearer", scope: "read", me: "http://localhost:4000/users/alice" });
      expect(body.access_token).toMatch(/^[a-z0-9]{40,}$/);
      expect(body.refresh_token).toMatch(/^[a-z0-9]{40,}$/);
      expect(body.refresh_token).not.toBe(body.access_token);
      expect(typeof body.id).toBe("number");
      expect(Math.abs(body.created_at - before)).toBeLessThan(60);
      expect(body.expires_in).toBeGreaterThan(365 * 86400 - 60);
      expect(body.expires_in).toBeLessThanOrEqual(365 * 86400);

      const row = await db.oAuthToken.findUnique({ where: { id: body.id }, include: { account: true, app: true } });
      expect(row?.account?.nickname).toBe("alice");
      expect(row?.app.clientId).toBe(app.client_id);
      expect(row?.scopes).toEqual(["read"]);
      expect(row?.tokenHash).toBe(sha256hex(body.access_token)); // never the secret itself
      expect(row?.refreshTokenHash).toBe(sha256hex(body.refresh_token!));
      expect((await probe(body.access_token)).status).toBe(200);
    });

    test("by e-mail (any case) signs in the same account", async () => {
      const app = await registerApp();
      const res = await passwordGrant(app, "ALICE@example.test");
      expect(res.status).toBe(200);
      const body: TokenBody = await res.json();
      expect(body.me).toBe("http://localhost:4000/users/alice");
      expect(body.scope).toBe("read write"); // no scope asked: the app's scopes
    });

    test("a wrong password is 401 and creates no token", async () => {
      const app = await registerApp();
      const before = await db.oAuthToken.count();
      const res = await passwordGrant(app, "alice", { password: "wrong-password" });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Invalid credentials" });
      const unknown = await passwordGrant(app, "nobody-here");
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toEqual({ error: "Invalid credentials" }); // does not tell which part was wrong
      expect(await db.oAuthToken.count()).toBe(before);
    });

    test("an unknown client or a wrong client secret is 401", async () => {
      const app = await registerApp();
      const before = await db.oAuthToken.count();
      const unknown = await passwordGrant({ ...app, client_id: "no-such-client" }, "alice");
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toEqual({ error: "Invalid client" });
      const wrongSecret = await passwordGrant({ ...app, client_secret: "wrong" }, "alice");
      expect(wrongSecret.status).toBe(401);
      expect(await wrongSecret.json()).toEqual({ error: "Invalid client" });
      expect(await db.oAuthToken.count()).toBe(before);
    });

    test("a scope wider than the app's is 400 and creates no token", async () => {
      const app = await registerApp("read write");
      const before = await db.oAuthToken.count();
      const res = await passwordGrant(app, "alice", { scope: "read admin" });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("This action is outside the authorized scopes");
      expect(await db.oAuthToken.count()).toBe(before);
    });

    test("a deactivated account is 403, and its existing tokens stop working", async () => {
      await server.createUser("dora");
      const app = await registerApp();
      const earlier: TokenBody = await (await passwordGrant(app, "dora")).json();
      expect((await probe(earlier.access_token)).status).toBe(200);

      await db.account.update({ where: { nickname: "dora" }, data: { deactivated: true } });
      const before = await db.oAuthToken.count();
      const res = await passwordGrant(app, "dora");
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Your account is currently disabled" });
      expect(await db.oAuthToken.count()).toBe(before);
      expect((await probe(earlier.access_token)).status).toBe(401);
      const refresh = await token({ grant_type: "refresh_token", client_id: app.client_id, client_secret: app.client_secret, refresh_token: earlier.refresh_token! });
      expect(refresh.status).toBe(403);
    });

    test("an account with a pending password reset is 403", async () => {
      await server.createUser("reset");
      await db.account.update({ where: { nickname: "reset" }, data: { passwordResetPending: true } });
      const app = await registerApp();
      const res = await passwordGrant(app, "reset");
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Password reset is required" });
    });

    test("missing username is 400; an unknown grant_type is 400", async () => {
      const app = await registerApp();
      const res = await token({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, password: PASSWORD });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Missing field: username, password.");
      const implicit = await token({ grant_type: "implicit", client_id: app.client_id });
      expect(implicit.status).toBe(400);
      expect((await implicit.json()).error).toBe("grant_type - Invalid value for enum.");
    });

    test("the token endpoint also takes JSON", async () => {
      const app = await registerApp();
      const res = await server.fetch("/oauth/token", {
        method: "POST",
        json: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "bob", password: PASSWORD, scope: "write" },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ scope: "write", me: "http://localhost:4000/users/bob" });
    });

    test("a malformed JSON body to /oauth/token is a 400 {error} without a stack trace", async () => {
      const res = await server.fetch("/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body: "{grant_type:" });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: "Invalid JSON body" });
      expect(text).not.toMatch(/SyntaxError|node_modules|\.ts:\d+/);
    });
  });

  describe("client_credentials grant", () => {
    test("issues an app token: no me, no refresh token, no account on the row", async () => {
      const app = await registerApp("read write");
      const res = await token({ grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read" });
      expect(res.status).toBe(200);
      const body: TokenBody = await res.json();
      expect(body).toMatchObject({ token_type: "Bearer", scope: "read" });
      expect(body).not.toHaveProperty("me");
      expect(body).not.toHaveProperty("refresh_token");
      const row = await db.oAuthToken.findUnique({ where: { id: body.id } });
      expect(row).toMatchObject({ accountId: null, refreshTokenHash: null, scopes: ["read"], tokenHash: sha256hex(body.access_token) });
      // an app token is not a user: user routes refuse it
      const list = await probe(body.access_token);
      expect(list.status).toBe(403);
      expect(await list.json()).toEqual({ error: "Invalid credentials." });
    });

    test("needs the client secret", async () => {
      const app = await registerApp();
      const res = await token({ grant_type: "client_credentials", client_id: app.client_id });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Invalid client" });
    });
  });

  describe("refresh_token grant", () => {
    test("rotates: new access token works, the old access and refresh tokens do not", async () => {
      const app = await registerApp();
      const first: TokenBody = await (await passwordGrant(app, "alice", { scope: "read" })).json();
      const res = await token({ grant_type: "refresh_token", client_id: app.client_id, client_secret: app.client_secret, refresh_token: first.refresh_token! });
      expect(res.status).toBe(200);
      const second: TokenBody = await res.json();
      expect(second).toMatchObject({ scope: "read", me: "http://localhost:4000/users/alice" });
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.refresh_token).toBeDefined();
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.id).not.toBe(first.id);

      expect(await db.oAuthToken.findUnique({ where: { id: first.id } })).toBeNull();
      expect(await db.oAuthToken.findUnique({ where: { id: second.id } })).toMatchObject({ scopes: ["read"] });

      expect((await probe(second.access_token)).status).toBe(200);
      const old = await probe(first.access_token);
      expect(old.status).toBe(401);
      expect(await old.json()).toEqual({ error: "Invalid credentials." });

      const again = await token({ grant_type: "refresh_token", client_id: app.client_id, client_secret: app.client_secret, refresh_token: first.refresh_token! });
      expect(again.status).toBe(401);
      expect(await again.json()).toEqual({ error: "Invalid refresh token" });
      expect((await probe(second.access_token)).status).toBe(200); // the failed reuse did not hurt the new token
    });

    test("another app cannot use the refresh token, and the token survives", async () => {
      const app = await registerApp();
      const other = await registerApp();
      const tok: TokenBody = await (await passwordGrant(app, "alice")).json();
      const res = await token({ grant_type: "refresh_token", client_id: other.client_id, client_secret: other.client_secret, refresh_token: tok.refresh_token! });
      expect(res.status).toBe(401);
      expect(await db.oAuthToken.findUnique({ where: { id: tok.id } })).not.toBeNull();
      expect((await probe(tok.access_token)).status).toBe(200);
    });
  });

  describe("POST /oauth/revoke", () => {
    test("with the app's credentials: 200 {}, the row is gone and the token gets 401", async () => {
      const app = await registerApp();
      const tok: TokenBody = await (await passwordGrant(app, "bob")).json();
      expect((await probe(tok.access_token)).status).toBe(200);
      const res = await server.fetch("/oauth/revoke", { method: "POST", form: { token: tok.access_token, client_id: app.client_id, client_secret: app.client_secret } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(await db.oAuthToken.findUnique({ where: { id: tok.id } })).toBeNull();
      const after = await probe(tok.access_token);
      expect(after.status).toBe(401);
      expect(await after.json()).toEqual({ error: "Invalid credentials." });
    });

    test("revoking the refresh token revokes the access token with it", async () => {
      const app = await registerApp();
      const tok: TokenBody = await (await passwordGrant(app, "bob")).json();
      const res = await server.fetch("/oauth/revoke", { method: "POST", form: { token: tok.refresh_token!, client_id: app.client_id, client_secret: app.client_secret } });
      expect(res.status).toBe(200);
      expect(await db.oAuthToken.findUnique({ where: { id: tok.id } })).toBeNull();
      expect((await probe(tok.access_token)).status).toBe(401);
    });

    test("with another app's credentials: 403 and the token still works", async () => {
      const app = await registerApp();
      const other = await registerApp();
      const tok: TokenBody = await (await passwordGrant(app, "bob")).json();
      const res = await server.fetch("/oauth/revoke", { method: "POST", form: { token: tok.access_token, client_id: other.client_id, client_secret: other.client_secret } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "You are not authorized to revoke this token" });
      expect(await db.oAuthToken.findUnique({ where: { id: tok.id } })).not.toBeNull();
      expect((await probe(tok.access_token)).status).toBe(200);
    });

    test("with a wrong client secret: 401 and the token still works", async () => {
      const app = await registerApp();
      const tok: TokenBody = await (await passwordGrant(app, "bob")).json();
      const res = await server.fetch("/oauth/revoke", { method: "POST", form: { token: tok.access_token, client_id: app.client_id, client_secret: "wrong" } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Invalid client" });
      expect((await probe(tok.access_token)).status).toBe(200);
    });

    test("an unknown token is not an error (RFC 7009) and deletes nothing", async () => {
      const before = await db.oAuthToken.count();
      const res = await server.fetch("/oauth/revoke", { method: "POST", form: { token: "no-such-token" } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(await db.oAuthToken.count()).toBe(before);
    });
  });
});
