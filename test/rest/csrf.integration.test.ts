// Cross-site request forgery with the session cookie (`_ext_key`, set by the browser sign-in): an
// attacker's page makes the admin's browser post to the server. Cookie-authenticated unsafe requests
// from another origin are refused with 403 and write nothing, on REST (statuses, the admin API), the
// OAuth authorize form, tRPC and GraphQL; the server's own origin, non-browser clients (no Origin, no
// Sec-Fetch-Site) and bearer tokens of any origin keep working (src/http/csrf.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const OOB = "urn:ietf:wg:oauth:2.0:oob";
const PASSWORD = "secret-password";
const EVIL = { origin: "http://evil.example" };
const REFUSED = { error: "Cross-site request refused." };

describe.each(suiteKinds(import.meta.url))("CSRF on the session cookie on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let app: { client_id: string; client_secret: string };
  let cookie: string;
  let token: string;
  const own = () => ({ origin: server.url });

  const post = (text: string, headers: Record<string, string>) => server.fetch("/api/v1/statuses", { json: { status: text }, headers });
  const statusRows = (text: string) => db.status.count({ where: { content: { contains: text } } });
  const createUser = (nickname: string, headers: Record<string, string>) =>
    server.fetch("/api/v1/ext/admin/users", { json: { users: [{ nickname, email: `${nickname}@example.test`, password: PASSWORD }] }, headers });
  const accountRows = (nickname: string) => db.account.count({ where: { nickname } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    await server.createUser("admin", { admin: true });
    const res = await server.fetch("/api/v1/apps", { json: { client_name: "CSRF", redirect_uris: OOB, scopes: "read write follow push admin" } });
    app = await res.json();
    // the browser sign-in: the authorize form sets the session cookie
    const signIn = await server.fetch("/oauth/authorize", {
      form: { "authorization[name]": "admin", "authorization[password]": PASSWORD, "authorization[client_id]": app.client_id, "authorization[redirect_uri]": OOB, "authorization[scope]": "read" },
      headers: own(),
    });
    expect(signIn.status).toBe(200);
    cookie = signIn.headers.getSetCookie().find((c) => c.startsWith("_ext_key="))!.split(";")[0]!;
    const grant = await server.fetch("/oauth/token", {
      form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "admin", password: PASSWORD, scope: "read write admin" },
    });
    token = (await grant.json()).access_token;
  });
  afterAll(() => server?.close());

  describe("a status posted with the admin's cookie", () => {
    test("from another origin: 403 and no status", async () => {
      const res = await post("forged status", { cookie, ...EVIL });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(REFUSED);
      expect(await statusRows("forged status")).toBe(0);
    });

    test("from the server's own origin: posted", async () => {
      const res = await post("own-origin status", { cookie, ...own() });
      expect(res.status).toBe(200);
      expect((await res.json()).account.username).toBe("admin");
      expect(await statusRows("own-origin status")).toBe(1);
    });

    test("Origin: null (a sandboxed frame, a data: page): 403", async () => {
      const res = await post("null-origin status", { cookie, origin: "null" });
      expect(res.status).toBe(403);
      expect(await statusRows("null-origin status")).toBe(0);
    });

    test("without Origin, Sec-Fetch-Site decides: cross-site and same-site refused, same-origin and none (typed address) pass", async () => {
      for (const site of ["cross-site", "same-site"]) {
        const res = await post(`fetch-site ${site}`, { cookie, "sec-fetch-site": site });
        expect(res.status).toBe(403);
        expect(await statusRows(`fetch-site ${site}`)).toBe(0);
      }
      for (const site of ["same-origin", "none"]) {
        const res = await post(`fetch-site ${site}`, { cookie, "sec-fetch-site": site });
        expect(res.status).toBe(200);
        expect(await statusRows(`fetch-site ${site}`)).toBe(1);
      }
    });

    test("with neither Origin nor Sec-Fetch-Site (not a current browser): accepted, as the family does", async () => {
      const res = await post("header-less status", { cookie });
      expect(res.status).toBe(200);
      expect(await statusRows("header-less status")).toBe(1);
    });

    test("a bearer token works from any origin (other origins' clients use tokens)", async () => {
      const res = await post("token status", { authorization: `Bearer ${token}`, cookie, ...EVIL });
      expect(res.status).toBe(200);
      expect(await statusRows("token status")).toBe(1);
    });
  });

  describe("the admin API with the admin's cookie", () => {
    test("creating a user from another origin: 403 and no account", async () => {
      const res = await createUser("forged", { cookie, ...EVIL });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(REFUSED);
      expect(await accountRows("forged")).toBe(0);
    });

    test("deleting users from another origin (DELETE): 403, the account stays active", async () => {
      await server.createUser("victim");
      const res = await server.fetch("/api/v1/ext/admin/users", { method: "DELETE", json: { nicknames: ["victim"] }, headers: { cookie, ...EVIL } });
      expect(res.status).toBe(403);
      expect(await db.account.findFirst({ where: { nickname: "victim" }, select: { deactivated: true } })).toEqual({ deactivated: false });
    });

    test("creating a user from the server's own origin: created", async () => {
      const res = await createUser("invited", { cookie, ...own() });
      expect(res.status).toBe(200);
      expect(await accountRows("invited")).toBe(1);
    });
  });

  test("the OAuth authorize form with the cookie alone (consent) from another origin: 403, no authorization code", async () => {
    const before = await db.oAuthAuthorization.count();
    const res = await server.fetch("/oauth/authorize", {
      form: { "authorization[client_id]": app.client_id, "authorization[redirect_uri]": OOB, "authorization[scope]": "read" },
      headers: { cookie, ...EVIL },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(REFUSED);
    expect(await db.oAuthAuthorization.count()).toBe(before);
  });

  test("tRPC and GraphQL (the admin UI's APIs) refuse the cookie from another origin, even with the CSRF header", async () => {
    const headers = { cookie, "x-csrf-protection": "1", ...EVIL };
    const trpc = await server.fetch("/trpc/session.signOut", { method: "POST", json: {}, headers });
    expect(trpc.status).toBe(403);
    const graphql = await server.fetch("/graphql", { json: { query: "mutation { __typename }" }, headers });
    expect(graphql.status).toBe(403);
    // the session still works: the sign-out did not run
    const me = await server.fetch("/api/v1/accounts/verify_credentials", { headers: { cookie } });
    expect(me.status).toBe(200);
  });
});
