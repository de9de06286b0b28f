// The authorization-code flow: /oauth/authorize page and form, the session cookie it sets,
// code exchange at /oauth/token, and PKCE, against a real server.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const OOB = "urn:ietf:wg:oauth:2.0:oob";
const REDIRECT = "https://client.example/callback";
const PASSWORD = "secret-password";
const sha256hex = (s: string) => createHash("sha256").update(s).digest("hex");

interface App {
  id: string;
  client_id: string;
  client_secret: string;
}

describe.each(suiteKinds(import.meta.url))("OAuth authorization-code flow on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let app: App; // registered with both the out-of-band and an https redirect URI

  async function registerApp(redirects: string[], scopes = "read write"): Promise<App> {
    const res = await server.fetch("/api/v1/apps", { method: "POST", json: { client_name: "Web <Client>", redirect_uris: redirects, scopes } });
    expect(res.status).toBe(200);
    return res.json();
  }

  /** The sign-in/consent form as the page posts it. */
  const authorizeForm = (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const form: Record<string, string> = {};
    for (const [k, v] of Object.entries({ client_id: app.client_id, redirect_uri: OOB, scope: "read", ...fields })) form[`authorization[${k}]`] = v;
    return server.fetch("/oauth/authorize", { method: "POST", form, headers });
  };
  const signIn = (fields: Record<string, string> = {}) => authorizeForm({ name: "alice", password: PASSWORD, ...fields });
  const codeFromPage = (html: string) => html.match(/<code id="code">([^<]+)<\/code>/)?.[1];
  const codeFromRedirect = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("code")!;
  const exchange = (fields: Record<string, string>) =>
    server.fetch("/oauth/token", { method: "POST", form: { grant_type: "authorization_code", client_id: app.client_id, client_secret: app.client_secret, redirect_uri: OOB, ...fields } });
  const sessionCookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("_ext_key="));

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    await server.createUser("alice");
    app = await registerApp([OOB, REDIRECT]);
  });
  afterAll(() => server?.close());

  test("GET /oauth/authorize shows the sign-in form with the request carried along", async () => {
    const res = await server.fetch(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(OOB)}&scope=read&state=s%22t`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('name="authorization[name]"');
    expect(html).toContain('name="authorization[password]"');
    expect(html).toContain(`name="authorization[client_id]" value="${app.client_id}"`);
    expect(html).toContain('name="authorization[scope]" value="read"');
    expect(html).toContain('name="authorization[state]" value="s&#34;t"'); // escaped
    expect(html).toContain("Web &#60;Client&#62;"); // the app name is escaped too
    expect(html).not.toContain("Signed in as");
  });

  test("GET /oauth/authorize refuses an unregistered redirect URI, an unknown client and a too-wide scope", async () => {
    const bad = await server.fetch(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent("https://evil.example/")}&scope=read`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("redirect_uri is not registered for this app");
    const unknown = await server.fetch(`/oauth/authorize?response_type=code&client_id=nope&redirect_uri=${encodeURIComponent(OOB)}`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Invalid client");
    const wide = await server.fetch(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(OOB)}&scope=admin`);
    expect(wide.status).toBe(400);
    expect(await wide.text()).toContain("This action is outside the authorized scopes");
  });

  test("out-of-band: the code is shown on the page, a session cookie is set, and the code is single-use", async () => {
    const sessionsBefore = await db.session.count();
    const res = await signIn({ state: "abc" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const code = codeFromPage(await res.text());
    expect(code).toMatch(/^[a-z0-9]{20,}$/);

    const cookie = sessionCookieOf(res);
    expect(cookie).toMatch(/^_ext_key=[a-z0-9]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const secret = cookie!.split(";")[0].slice("_ext_key=".length);
    const session = await db.session.findUnique({ where: { id: sha256hex(secret) }, include: { account: true } });
    expect(session?.account.nickname).toBe("alice");
    expect(await db.session.count()).toBe(sessionsBefore + 1);

    const auth = await db.oAuthAuthorization.findUnique({ where: { codeHash: sha256hex(code!) } });
    expect(auth).toMatchObject({ used: false, scopes: ["read"], redirectUri: OOB, codeChallenge: null });

    const tokenRes = await exchange({ code: code! });
    expect(tokenRes.status).toBe(200);
    const tok = await tokenRes.json();
    expect(tok).toMatchObject({ token_type: "Bearer", scope: "read", me: "http://localhost:4000/users/alice" });
    expect(tok.refresh_token).toBeDefined();
    const row = await db.oAuthToken.findUnique({ where: { id: tok.id }, include: { account: true } });
    expect(row?.account?.nickname).toBe("alice");
    expect(row?.scopes).toEqual(["read"]);
    expect((await db.oAuthAuthorization.findUnique({ where: { id: auth!.id } }))?.used).toBe(true);

    const tokensBefore = await db.oAuthToken.count();
    const again = await exchange({ code: code! });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ error: "Invalid code" });
    expect(await db.oAuthToken.count()).toBe(tokensBefore);
  });

  test("registered https redirect URI: 302 to it with code and state; the code exchanges once", async () => {
    const res = await signIn({ redirect_uri: REDIRECT, state: "st8 &x" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe("st8 &x");
    const code = location.searchParams.get("code")!;
    expect(code).toMatch(/^[a-z0-9]{20,}$/);
    expect(sessionCookieOf(res)).toBeDefined();

    const wrongUri = await exchange({ code, redirect_uri: "https://client.example/other" });
    expect(wrongUri.status).toBe(401);
    expect(await wrongUri.json()).toEqual({ error: "Invalid redirect_uri" });

    const ok = await exchange({ code, redirect_uri: REDIRECT });
    expect(ok.status).toBe(200);
    expect((await ok.json()).me).toBe("http://localhost:4000/users/alice");
    expect((await exchange({ code, redirect_uri: REDIRECT })).status).toBe(401);
  });

  test("a code is bound to its app and needs the app's secret", async () => {
    const other = await registerApp([OOB]);
    const code = codeFromPage(await (await signIn()).text())!;
    const foreign = await server.fetch("/oauth/token", {
      method: "POST",
      form: { grant_type: "authorization_code", client_id: other.client_id, client_secret: other.client_secret, code, redirect_uri: OOB },
    });
    expect(foreign.status).toBe(401);
    expect(await foreign.json()).toEqual({ error: "Invalid code" });
    const noSecret = await server.fetch("/oauth/token", { method: "POST", form: { grant_type: "authorization_code", client_id: app.client_id, code, redirect_uri: OOB } });
    expect(noSecret.status).toBe(401);
    expect(await noSecret.json()).toEqual({ error: "Invalid client" });
    // neither attempt used the code up
    expect((await exchange({ code })).status).toBe(200);
  });

  test("a wrong password re-renders the form with 401 and an error, without a cookie, session or code", async () => {
    const sessionsBefore = await db.session.count();
    const codesBefore = await db.oAuthAuthorization.count();
    const res = await signIn({ password: "wrong-password", state: "keep-me" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain("Invalid username or password");
    expect(html).toContain('name="authorization[name]"');
    expect(html).toContain('name="authorization[state]" value="keep-me"');
    expect(html).not.toContain('id="code"');
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(res.headers.get("location")).toBeNull();
    expect(await db.session.count()).toBe(sessionsBefore);
    expect(await db.oAuthAuthorization.count()).toBe(codesBefore);
  });

  test("a right password with an unregistered redirect URI signs nobody in (no cookie, no session)", async () => {
    const sessionsBefore = await db.session.count();
    const res = await signIn({ redirect_uri: "https://evil.test/cb" });
    expect(res.status).toBe(400);
    expect(sessionCookieOf(res)).toBeUndefined();
    expect(await db.session.count()).toBe(sessionsBefore);
  });

  test("a deactivated account cannot sign in on the form (403, no cookie)", async () => {
    await server.createUser("gone");
    await db.account.update({ where: { nickname: "gone" }, data: { deactivated: true } });
    const res = await authorizeForm({ name: "gone", password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Your account is currently disabled");
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  test("the form without credentials and without a cookie is refused", async () => {
    const codesBefore = await db.oAuthAuthorization.count();
    const res = await authorizeForm({});
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Invalid credentials.");
    expect(await db.oAuthAuthorization.count()).toBe(codesBefore);
  });

  test("with the session cookie: the page says who is signed in and the form needs no password", async () => {
    const cookie = sessionCookieOf(await signIn())!.split(";")[0];

    const page = await server.fetch(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=read`, {
      headers: { cookie },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/Signed in as <strong>alice<\/strong>/);
    expect(html).not.toContain('name="authorization[password]"');

    const sessionsBefore = await db.session.count();
    const res = await authorizeForm({ redirect_uri: REDIRECT, state: "again" }, { cookie });
    expect(res.status).toBe(302);
    expect(sessionCookieOf(res)).toBeUndefined(); // the existing session is reused
    expect(await db.session.count()).toBe(sessionsBefore);
    const location = new URL(res.headers.get("location")!);
    expect(location.searchParams.get("state")).toBe("again");
    const tok = await exchange({ code: codeFromRedirect(res), redirect_uri: REDIRECT });
    expect(tok.status).toBe(200);
    expect((await tok.json()).me).toBe("http://localhost:4000/users/alice");
  });

  test("a bogus or expired cookie is not signed in", async () => {
    const bogus = await server.fetch(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(OOB)}`, {
      headers: { cookie: "_ext_key=not-a-session" },
    });
    expect(bogus.status).toBe(200);
    expect(await bogus.text()).not.toContain("Signed in as");

    const cookie = sessionCookieOf(await signIn())!.split(";")[0];
    const id = sha256hex(cookie.slice("_ext_key=".length));
    await db.session.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await authorizeForm({}, { cookie });
    expect(res.status).toBe(403);
    expect(await db.session.findUnique({ where: { id } })).toBeNull(); // the stale session is cleaned up
  });

  describe("PKCE", () => {
    const verifier = "pkce-verifier-".padEnd(64, "x");
    const challenge = createHash("sha256").update(verifier).digest("base64url");

    async function pkceCode() {
      const res = await signIn({ redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256" });
      expect(res.status).toBe(302);
      const code = codeFromRedirect(res);
      expect(await db.oAuthAuthorization.findUnique({ where: { codeHash: sha256hex(code) } })).toMatchObject({ codeChallenge: challenge, codeChallengeMethod: "S256" });
      return code;
    }
    const pkceExchange = (code: string, fields: Record<string, string>) =>
      server.fetch("/oauth/token", { method: "POST", form: { grant_type: "authorization_code", client_id: app.client_id, code, redirect_uri: REDIRECT, ...fields } });

    test("a wrong password re-renders the form without losing the challenge", async () => {
      const res = await signIn({ password: "wrong-password", redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256" });
      expect(res.status).toBe(401);
      const html = await res.text();
      expect(html).toContain(`name="authorization[code_challenge]" value="${challenge}"`);
      expect(html).toContain('name="authorization[code_challenge_method]" value="S256"');
    });

    test("the authorize page carries the challenge into the form", async () => {
      const res = await server.fetch(
        `/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${challenge}&code_challenge_method=S256`,
      );
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`name="authorization[code_challenge]" value="${challenge}"`);
      expect(html).toContain('name="authorization[code_challenge_method]" value="S256"');
    });

    test("the right verifier exchanges the code without the client secret", async () => {
      const code = await pkceCode();
      const res = await pkceExchange(code, { code_verifier: verifier });
      expect(res.status).toBe(200);
      const tok = await res.json();
      expect(tok).toMatchObject({ scope: "read", me: "http://localhost:4000/users/alice" });
      expect(await db.oAuthToken.findUnique({ where: { id: tok.id } })).not.toBeNull();
    });

    test("a wrong or missing verifier is 401 even with the secret, and does not use up the code", async () => {
      const code = await pkceCode();
      const wrong = await pkceExchange(code, { code_verifier: "not-the-verifier" });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ error: "Invalid code_verifier" });
      const missing = await pkceExchange(code, { client_secret: app.client_secret });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual({ error: "Invalid code_verifier" });
      expect((await pkceExchange(code, { code_verifier: verifier })).status).toBe(200);
    });

    test("a code issued without PKCE cannot be exchanged without the secret by adding any code_verifier", async () => {
      const res = await signIn({ redirect_uri: REDIRECT });
      const code = codeFromRedirect(res);
      const attempt = await pkceExchange(code, { code_verifier: "anything-at-all" });
      expect(attempt.status).toBe(401);
    });
  });
});
