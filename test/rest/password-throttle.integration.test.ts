// The password throttle (src/domain/auth/password-throttle.ts, docs/security.md "Password attempts"): every
// path that checks a password or a code, and the two that mail a link, count against the `authentication`
// limit per client address and per account. For each path: after the limit from one address the next
// attempt is 429; from a fresh address the right password (or code) on that account is refused too, so a
// guesser spread over many addresses is stopped; the address is refused for another account as well.
// Addresses are told apart by X-Forwarded-For (the server trusts it from loopback).
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateTOTP } from "@oslojs/otp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newTotpKey } from "../../src/domain/auth/totp.ts";
import { registerApp, startTestServer, type TestServer } from "../support/server.ts";

const LIMIT = 3;
const PASSWORD = "secret-password";
const OOB = "urn:ietf:wg:oauth:2.0:oob";

let lastAddress = 0;
/** A client address no other attempt of this file used. */
const freshAddress = () => `10.9.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

describe("password throttle", () => {
  let server: TestServer;
  let app: Awaited<ReturnType<typeof registerApp>>;

  beforeAll(async () => {
    server = await startTestServer("pglite", { RATE_LIMITS_ENABLED: "true", CONFIGURABLE_FROM_DATABASE: "true", ADMIN_TOKEN: "admin-secret" });
    const res = await server.fetch("/api/v1/ext/admin/config", {
      headers: { "x-admin-token": "admin-secret" },
      json: { configs: [{ group: ":pleroma", key: ":rate_limit", value: [{ tuple: [":authentication", { tuple: [60_000, LIMIT] }] }] }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    app = await registerApp(server, "read write");
  });
  afterAll(() => server?.close());

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const from = (ip: string, headers: Record<string, string> = {}) => ({ "x-forwarded-for": ip, ...headers });

  /** One attempt of a path: `user` with `secret` (a password, or a code), from `ip`. */
  type Attempt = (user: string, secret: string, ip: string) => Promise<Response>;

  /**
   * `limit` wrong attempts on `user` from one address answer `wrong`; the next is 429 {"error": "Throttled"}
   * with Retry-After; the right secret on `user` from a fresh address is 429; the first address is refused
   * for another account (`other`) with its right secret too.
   */
  async function expectThrottled(attempt: Attempt, user: string, right: () => string | Promise<string>, wrong: number, other: { user: string; right: () => string | Promise<string> }) {
    const guesser = freshAddress();
    for (let i = 0; i < LIMIT; i++) expect((await attempt(user, "wrong-guess", guesser)).status).toBe(wrong);
    const refused = await attempt(user, "wrong-guess", guesser);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Throttled" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await attempt(user, await right(), freshAddress())).status).toBe(429);
    expect((await attempt(other.user, await other.right(), guesser)).status).toBe(429);
  }

  test("Basic credentials: the right password is never throttled by its own use; guesses are, on private and public routes", async () => {
    await server.createUser("basic1");
    await server.createUser("basic2");
    const call: Attempt = (user, password, ip) => server.fetch("/api/v1/accounts/verify_credentials", { headers: from(ip, { authorization: basic(user, password) }) });
    const ip = freshAddress();
    for (let i = 0; i < LIMIT * 3; i++) expect((await call("basic1", PASSWORD, ip)).status).toBe(200);
    await expectThrottled(call, "basic1", () => PASSWORD, 401, { user: "basic2", right: () => PASSWORD });
    // a public route does not take throttled credentials for "anonymous"
    const publicRoute = await server.fetch("/api/v1/instance", { headers: from(freshAddress(), { authorization: basic("basic1", PASSWORD) }) });
    expect(publicRoute.status).toBe(429);
  });

  test("the password grant: nothing is issued while throttled", async () => {
    await server.createUser("grant1");
    await server.createUser("grant2");
    const grant: Attempt = (user, password, ip) =>
      server.fetch("/oauth/token", { headers: from(ip), form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: user, password } });
    const tokens = await server.services.db.oAuthToken.count();
    await expectThrottled(grant, "grant1", () => PASSWORD, 401, { user: "grant2", right: () => PASSWORD });
    expect(await server.services.db.oAuthToken.count()).toBe(tokens);
  });

  test("the admin UI's sign-in (tRPC): no session while throttled", async () => {
    await server.createUser("trpc1", { admin: true });
    await server.createUser("trpc2", { admin: true });
    const signIn: Attempt = (user, password, ip) => server.fetch("/trpc/session.signIn", { headers: from(ip), json: { username: user, password, staffOnly: true } });
    const sessions = await server.services.db.session.count();
    await expectThrottled(signIn, "trpc1", () => PASSWORD, 401, { user: "trpc2", right: () => PASSWORD });
    expect(await server.services.db.session.count()).toBe(sessions);
  });

  test("the OAuth authorization form: 429 instead of the form page, no code", async () => {
    await server.createUser("form1");
    await server.createUser("form2");
    const submit: Attempt = (user, password, ip) =>
      server.fetch("/oauth/authorize", { headers: from(ip), form: { client_id: app.client_id, redirect_uri: OOB, scope: "read", name: user, password } });
    const codes = await server.services.db.oAuthAuthorization.count();
    await expectThrottled(submit, "form1", () => PASSWORD, 401, { user: "form2", right: () => PASSWORD });
    expect(await server.services.db.oAuthAuthorization.count()).toBe(codes);
  });

  test("MFA codes at /oauth/mfa/challenge: the right code is refused once the account's counter is full", async () => {
    const keys: Record<string, string> = {};
    for (const nickname of ["mfa1", "mfa2"]) {
      const account = await server.createUser(nickname);
      keys[nickname] = newTotpKey();
      await server.services.db.account.update({ where: { id: account.id }, data: { mfaEnabled: true, mfaTotpSecret: keys[nickname] } });
    }
    const codeFor = (nickname: string) => generateTOTP(decodeBase32IgnorePadding(keys[nickname]), 30, 6);
    // each attempt on a pending sign-in of its own, all started before the counters fill (the password
    // grant is throttled too): the password passed and gave its count back, the code is what counts
    const pending = async (user: string) => {
      const grant = await server.fetch("/oauth/token", { headers: from(freshAddress()), form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: user, password: PASSWORD } });
      expect(grant.status).toBe(403);
      return (await grant.json()).mfa_token as string;
    };
    const tokens: Record<string, string[]> = { mfa1: [], mfa2: [await pending("mfa2")] };
    for (let i = 0; i < LIMIT + 2; i++) tokens.mfa1.push(await pending("mfa1"));
    const challenge: Attempt = (user, code, ip) =>
      server.fetch("/oauth/mfa/challenge", { headers: from(ip), form: { mfa_token: tokens[user].shift()!, challenge_type: "totp", code: code === "wrong-guess" ? "000000" : code, client_id: app.client_id, client_secret: app.client_secret } });
    await expectThrottled(challenge, "mfa1", () => codeFor("mfa1"), 400, { user: "mfa2", right: () => codeFor("mfa2") });
  });

  test("password reset and confirmation resend count per address and per account, and share the counters with sign-in", async () => {
    await server.createUser("reset1");
    await server.createUser("reset2");
    const reset: Attempt = (user, _secret, ip) => server.fetch("/auth/password", { headers: from(ip), json: { email: `${user}@example.test` } });
    const resetTokens = () => server.services.db.accountToken.count({ where: { kind: "password_reset" } });
    const before = await resetTokens();
    const ip = freshAddress();
    for (let i = 0; i < LIMIT; i++) expect((await reset("reset1", "", ip)).status).toBe(204);
    expect((await reset("reset1", "", ip)).status).toBe(429);
    expect((await reset("reset1", "", freshAddress())).status).toBe(429);
    expect((await reset("reset2", "", ip)).status).toBe(429);
    expect(await resetTokens()).toBe(before + LIMIT);
    // the same account counter: its right password is refused now too
    const signIn = await server.fetch("/api/v1/accounts/verify_credentials", { headers: from(freshAddress(), { authorization: basic("reset1", PASSWORD) }) });
    expect(signIn.status).toBe(429);

    await server.createUser("resend1");
    await server.createUser("resend2");
    const resend = (user: string, ip: string) => server.fetch("/api/v1/ext/accounts/confirmation_resend", { headers: from(ip), json: { email: `${user}@example.test` } });
    const other = freshAddress();
    for (let i = 0; i < LIMIT; i++) expect((await resend("resend1", other)).status).toBe(204);
    const refused = await resend("resend1", other);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Throttled" });
    expect((await resend("resend1", freshAddress())).status).toBe(429);
    expect((await resend("resend2", other)).status).toBe(429);
  });

  test("an unknown name is throttled exactly like a known one (the 429 tells nothing)", async () => {
    const call: Attempt = (user, password, ip) => server.fetch("/api/v1/accounts/verify_credentials", { headers: from(ip, { authorization: basic(user, password) }) });
    for (let i = 0; i < LIMIT; i++) expect((await call("nobody-here", "x", freshAddress())).status).toBe(401);
    expect((await call("nobody-here", "x", freshAddress())).status).toBe(429);
  });
});
