// Multi-factor sign-in end to end: TOTP setup and confirmation with a code computed here from the key,
// the password grant's mfa_required, the challenge (TOTP and single-use backup codes), the sign-in
// page's code form, the other password sign-ins (Basic, tRPC), scopes, and disabling.
import { createHash } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP, generateTOTP } from "@oslojs/otp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { digest } from "../../src/domain/auth/secrets.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";

const PASSWORD = "secret-password";
const REDIRECT = "https://client.example/callback";
const MFA = "/api/ext/accounts/mfa";

/** The authenticator's current code for a base32 key. */
const codeFor = (key: string) => generateTOTP(decodeBase32IgnorePadding(key), 30, 6);
/** A six-digit code that is none of the codes the server's drift window accepts now. */
function wrongCodeFor(key: string) {
  const now = BigInt(Math.floor(Date.now() / 30_000));
  const accepted = [-2n, -1n, 0n, 1n, 2n].map((d) => generateHOTP(decodeBase32IgnorePadding(key), now + d, 6));
  return ["000000", "111111", "222222", "333333", "444444", "555555"].find((c) => !accepted.includes(c))!;
}

describe.each(suiteKinds(import.meta.url))("multi-factor sign-in on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let token: string; // read write: covers read:security and write:security
  let readOnly: string;
  let app: Awaited<ReturnType<typeof registerApp>>;
  let key: string;
  let backupCodes: string[];

  const call = (path: string, init: Parameters<TestServer["fetch"]>[1] = {}, bearer = token) =>
    server.fetch(path, { ...init, headers: { authorization: `Bearer ${bearer}`, ...(init.headers as Record<string, string>) } });
  const grant = (a = app, password = PASSWORD) =>
    server.fetch("/oauth/token", { form: { grant_type: "password", client_id: a.client_id, client_secret: a.client_secret, username: "mia", password, scope: "read write" } });
  const challenge = (mfaToken: string, challengeType: string, code: string, a = app) =>
    server.fetch("/oauth/mfa/challenge", { form: { mfa_token: mfaToken, challenge_type: challengeType, code, client_id: a.client_id, client_secret: a.client_secret } });
  const mfaTokenOf = async (res: Response) => {
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body).toEqual({ error: "mfa_required", mfa_token: expect.any(String), supported_challenge_types: "totp" });
    return body.mfa_token as string;
  };
  const account = () => db.account.findFirstOrThrow({ where: { nickname: "mia" } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    await server.createUser("mia");
    app = await registerApp(server, "read write");
    token = (await passwordToken(server, "mia", "read write")).access_token;
    readOnly = (await passwordToken(server, "mia", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("status starts off; setup answers a key and its otpauth:// URI, pending until confirmed", async () => {
    expect(await (await call(MFA)).json()).toEqual({ settings: { enabled: false, totp: false } });

    const res = await call(`${MFA}/setup/totp`);
    expect(res.status).toBe(200);
    const body = await res.json();
    key = body.key;
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(body.provisioning_uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(body.provisioning_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri.searchParams.get("secret")).toBe(key);
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
    expect(decodeURIComponent(uri.pathname)).toContain("mia@example.test");
    expect(await account()).toMatchObject({ mfaTotpSecret: key, mfaEnabled: false });

    const unknown = await call(`${MFA}/setup/sms`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "undefined method" });
  });

  test("confirming needs the password and a code from the pending key (422 {error})", async () => {
    const wrongPassword = await call(`${MFA}/confirm/totp`, { json: { password: "nope", code: codeFor(key) } });
    expect(wrongPassword.status).toBe(422);
    expect(await wrongPassword.json()).toEqual({ error: "Invalid password." });
    const wrongCode = await call(`${MFA}/confirm/totp`, { json: { password: PASSWORD, code: wrongCodeFor(key) } });
    expect(wrongCode.status).toBe(422);
    expect(await wrongCode.json()).toEqual({ error: "invalid_token" });
    expect((await account()).mfaEnabled).toBe(false);

    const ok = await call(`${MFA}/confirm/totp`, { json: { password: PASSWORD, code: codeFor(key) } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({});
    expect((await account()).mfaEnabled).toBe(true);
    expect(await (await call(MFA)).json()).toEqual({ settings: { enabled: true, totp: true } });

    // a second setup would silently replace the key in use
    const again = await call(`${MFA}/setup/totp`);
    expect(again.status).toBe(422);
    expect((await again.json()).error).toBeTruthy();
    expect((await account()).mfaTotpSecret).toBe(key);
  });

  test("backup codes are shown once and stored only as digests; regenerating replaces them", async () => {
    const first = (await (await call(`${MFA}/backup_codes`)).json()).codes as string[];
    expect(first).toHaveLength(5);
    const res = await call(`${MFA}/backup_codes`);
    expect(res.status).toBe(200);
    backupCodes = (await res.json()).codes;
    expect(backupCodes).toHaveLength(5);
    expect(new Set(backupCodes).size).toBe(5);
    const stored = (await account()).mfaBackupCodes;
    expect(stored).toEqual(backupCodes.map((c) => digest(c)));
    expect(stored.some((h) => first.includes(h) || backupCodes.includes(h))).toBe(false);
  });

  test("the password grant answers mfa_required without issuing a token", async () => {
    const tokensBefore = await db.oAuthToken.count();
    const mfaToken = await mfaTokenOf(await grant());
    expect(await db.oAuthToken.count()).toBe(tokensBefore);
    const row = await db.mfaToken.findFirstOrThrow({ where: { account: { nickname: "mia" } } });
    expect(row.tokenHash).toBe(digest(mfaToken)); // only the digest is stored
    expect(row).toMatchObject({ purpose: "token", scopes: ["read", "write"] });
    // a wrong password still says nothing about MFA
    const wrong = await grant(app, "nope");
    expect(wrong.status).toBe(401);
  });

  test("the challenge refuses a wrong code and another app, then a TOTP code gets a working token, once", async () => {
    const mfaToken = await mfaTokenOf(await grant());
    const tokensBefore = await db.oAuthToken.count();

    const wrong = await challenge(mfaToken, "totp", wrongCodeFor(key));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "Invalid code" });
    const otherApp = await registerApp(server, "read write");
    expect((await challenge(mfaToken, "totp", codeFor(key), otherApp)).status).toBe(400);
    expect(await db.oAuthToken.count()).toBe(tokensBefore);

    const ok = await challenge(mfaToken, "totp", codeFor(key));
    expect(ok.status).toBe(200);
    const issued = await ok.json();
    expect(issued).toMatchObject({ token_type: "Bearer", scope: "read write", access_token: expect.any(String), refresh_token: expect.any(String) });
    const me = await call("/api/v1/accounts/verify_credentials", {}, issued.access_token);
    expect(me.status).toBe(200);
    expect((await me.json()).username).toBe("mia");
    expect(await db.oAuthToken.count()).toBe(tokensBefore + 1);

    // the mfa_token is single use
    expect((await challenge(mfaToken, "totp", codeFor(key))).status).toBe(400);
    expect(await db.mfaToken.count({ where: { tokenHash: digest(mfaToken) } })).toBe(0);
    // and so is the code: a fresh sign-in cannot replay it within its 30 seconds
    const replay = await challenge(await mfaTokenOf(await grant()), "totp", codeFor(key));
    expect([replay.status, await replay.json()]).toEqual([400, { error: "Invalid code" }]);
  });

  test("one mfa_token allows only a handful of attempts", async () => {
    const mfaToken = await mfaTokenOf(await grant());
    for (let i = 0; i < 5; i++) expect((await challenge(mfaToken, "totp", wrongCodeFor(key))).status).toBe(400);
    expect((await challenge(mfaToken, "totp", codeFor(key))).status).toBe(400);
  });

  test("a backup code works once", async () => {
    const first = await challenge(await mfaTokenOf(await grant()), "recovery", backupCodes[0]);
    expect(first.status).toBe(200);
    const me = await call("/api/v1/accounts/verify_credentials", {}, (await first.json()).access_token);
    expect(me.status).toBe(200);
    expect((await account()).mfaBackupCodes).toHaveLength(4);

    const again = await challenge(await mfaTokenOf(await grant()), "recovery", backupCodes[0]);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: "Invalid code" });
    // copied with capitals and spaces, another code still passes
    const spaced = backupCodes[1].toUpperCase().replace(/(.{4})/g, "$1 ");
    expect((await challenge(await mfaTokenOf(await grant()), "recovery", spaced)).status).toBe(200);
    expect((await account()).mfaBackupCodes).toHaveLength(3);
  });

  test("the sign-in page asks for the code after the password and only then redirects with ?code=", async () => {
    // an earlier test used this period's code, which passes only once: start as in a new period
    await db.account.updateMany({ data: { mfaTotpLastCounter: null } });
    const web = await server.fetch("/api/v1/apps", { json: { client_name: "web", redirect_uris: REDIRECT, scopes: "read write" } }).then((r) => r.json());
    const verifier = "a-long-enough-pkce-code-verifier-of-forty-three-chars";
    const challengeS256 = createHash("sha256").update(verifier).digest("base64url");
    const form = { client_id: web.client_id, redirect_uri: REDIRECT, scope: "read", state: "xyz", code_challenge: challengeS256, code_challenge_method: "S256", name: "mia", password: PASSWORD };
    const sessionsBefore = await db.session.count();

    const page = await server.fetch("/oauth/authorize", { form: Object.fromEntries(Object.entries(form).map(([k, v]) => [`authorization[${k}]`, v])) });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]); // no session before the second factor
    const html = await page.text();
    expect(html).toContain('action="/oauth/mfa/verify"');
    expect(html).toContain('name="mfa[code]"');
    const mfaToken = html.match(/name="mfa\[mfa_token\]" value="([^"]+)"/)![1];
    expect(await db.oAuthAuthorization.count({ where: { appId: Number(web.id) } })).toBe(0);
    expect(await db.session.count()).toBe(sessionsBefore);
    // the page's mfa_token does not work at the API challenge
    expect((await challenge(mfaToken, "totp", codeFor(key), web)).status).toBe(400);

    const recovery = await server.fetch(`/oauth/mfa?mfa_token=${mfaToken}&challenge_type=recovery`);
    expect(recovery.status).toBe(200);
    expect(await recovery.text()).toContain("Recovery code");
    expect((await server.fetch("/oauth/mfa?mfa_token=unknown")).status).toBe(400);

    const verify = (code: string) =>
      server.fetch("/oauth/mfa/verify", {
        form: { "mfa[mfa_token]": mfaToken, "mfa[challenge_type]": "totp", "mfa[code]": code, "mfa[code_challenge]": challengeS256, "mfa[code_challenge_method]": "S256" },
      });
    const wrong = await verify(wrongCodeFor(key));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Two-factor authentication failed.");
    expect(await db.oAuthAuthorization.count({ where: { appId: Number(web.id) } })).toBe(0);

    const ok = await verify(codeFor(key));
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe("xyz");
    const code = location.searchParams.get("code")!;
    expect(code).toBeTruthy();
    expect(ok.headers.getSetCookie().some((c) => c.startsWith("_ext_key="))).toBe(true);
    expect(await db.session.count()).toBe(sessionsBefore + 1);

    const exchanged = await server.fetch("/oauth/token", {
      form: { grant_type: "authorization_code", client_id: web.client_id, redirect_uri: REDIRECT, code, code_verifier: verifier },
    });
    expect(exchanged.status).toBe(200);
    const issued = await exchanged.json();
    expect(issued.scope).toBe("read");
    expect((await call("/api/v1/accounts/verify_credentials", {}, issued.access_token)).status).toBe(200);
  });

  test("Basic credentials and the tRPC session sign-in need the second factor too", async () => {
    // an earlier test used this period's code, which passes only once: start as in a new period
    await db.account.updateMany({ data: { mfaTotpLastCounter: null } });
    const basic = await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Basic ${Buffer.from(`mia:${PASSWORD}`).toString("base64")}` } });
    expect(basic.status).toBe(401);
    expect(await basic.json()).toEqual({ error: "mfa_required" });

    const signIn = (body: Record<string, string>) => fetch(`${server.url}/trpc/session.signIn`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const sessionsBefore = await db.session.count();
    const missing = await signIn({ username: "mia", password: PASSWORD });
    expect(missing.status).toBe(401);
    expect((await missing.json()).error.message).toBe("mfa_required");
    expect((await signIn({ username: "mia", password: PASSWORD, code: wrongCodeFor(key) })).status).toBe(401);
    expect(await db.session.count()).toBe(sessionsBefore);
    const ok = await signIn({ username: "mia", password: PASSWORD, code: codeFor(key) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).toMatch(/^_ext_key=/);
    expect(await db.session.count()).toBe(sessionsBefore + 1);
  });

  test("the settings need their scopes: read:security for status, write:security for the rest", async () => {
    expect((await call(MFA, {}, readOnly)).status).toBe(200);
    for (const [method, path] of [
      ["GET", `${MFA}/setup/totp`],
      ["GET", `${MFA}/backup_codes`],
      ["POST", `${MFA}/confirm/totp`],
      ["DELETE", `${MFA}/totp`],
    ]) {
      const res = await call(path, method === "GET" ? {} : { method, json: { password: PASSWORD, code: codeFor(key) } }, readOnly);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ error: "Insufficient permissions: write:security." });
    }
    expect((await server.fetch(MFA)).status).toBe(403);
    expect(await account()).toMatchObject({ mfaEnabled: true, mfaTotpSecret: key });
  });

  test("disabling needs the password; afterwards the password grant issues tokens again", async () => {
    const pending = await mfaTokenOf(await grant());
    const wrong = await call(`${MFA}/totp`, { method: "DELETE", json: { password: "nope" } });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({ error: "Invalid password." });
    expect((await account()).mfaEnabled).toBe(true);

    const ok = await call(`${MFA}/totp`, { method: "DELETE", json: { password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({});
    expect(await account()).toMatchObject({ mfaEnabled: false, mfaTotpSecret: null, mfaBackupCodes: [] });
    expect(await (await call(MFA)).json()).toEqual({ settings: { enabled: false, totp: false } });
    // pending sign-ins die with it
    expect(await db.mfaToken.count({ where: { tokenHash: digest(pending) } })).toBe(0);

    const tokensBefore = await db.oAuthToken.count();
    const granted = await grant();
    expect(granted.status).toBe(200);
    expect((await granted.json()).access_token).toEqual(expect.any(String));
    expect(await db.oAuthToken.count()).toBe(tokensBefore + 1);
  });
});
