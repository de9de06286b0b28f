// Account names are matched exactly and case-insensitively (src/db/account-names.ts, docs/security.md
// "Account names"): `%` and `_` are not wildcards, a trailing `\` is not a database error, on every
// anonymous route that looks an account up by name, and in sign-in, registration and mentions.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { mailsTo } from "../support/mailbox.ts";
import { registerApp, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("account names on %s", (kind) => {
  let server: TestServer;
  let app: Awaited<ReturnType<typeof registerApp>>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("alice");
    await server.createUser("admin", { admin: true, password: "admin-password" });
    await server.createUser("jo_n", { password: "jo_n-password" });
    await server.createUser("joxn", { password: "joxn-password" });
    app = await registerApp(server, "read write");
  });
  afterAll(() => server?.close());

  const grant = (username: string, password: string) =>
    server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password } });
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });
  const resetTokens = () => server.services.db.accountToken.count({ where: { kind: "password_reset" } });

  test("lookup finds by exact name, any case; a pattern finds nobody", async () => {
    const found = await server.fetch("/api/v1/accounts/lookup?acct=ALICE");
    expect(found.status).toBe(200);
    expect((await found.json()).username).toBe("alice");
    for (const pattern of ["a%", "al_ce", "%", "_____"]) {
      const res = await server.fetch(`/api/v1/accounts/lookup?acct=${encodeURIComponent(pattern)}`);
      expect(res.status, pattern).toBe(404);
    }
    const jo = await server.fetch("/api/v1/accounts/lookup?acct=jo_n");
    expect((await jo.json()).username).toBe("jo_n");
  });

  test("no sign-in by pattern; the right name in any case signs in", async () => {
    expect((await grant("adm%", "admin-password")).status).toBe(401);
    expect((await grant("%@example.test", "admin-password")).status).toBe(401);
    expect((await server.fetch("/api/v1/accounts/verify_credentials", { headers: basic("adm%", "admin-password") })).status).toBe(401);
    const right = await grant("ADMIN", "admin-password");
    expect(right.status).toBe(200);
    const byEmail = await grant("Admin@Example.test", "admin-password");
    expect(byEmail.status).toBe(200);
  });

  test("jo_n is not locked out by joxn, and jo_n with joxn's password is not joxn", async () => {
    const own = await grant("jo_n", "jo_n-password");
    expect(own.status).toBe(200);
    const me = await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${(await own.json()).access_token}` } });
    expect((await me.json()).username).toBe("jo_n");
    expect((await grant("jo_n", "joxn-password")).status).toBe(401);
    const basicAsJoxn = await server.fetch("/api/v1/accounts/verify_credentials", { headers: basic("jo_n", "joxn-password") });
    expect(basicAsJoxn.status).toBe(401);
  });

  test("no password reset or confirmation mail by pattern", async () => {
    const before = await resetTokens();
    const aliceMails = mailsTo(server.dataDir, "alice@example.test").length;
    for (const email of ["%@example.test", "alic_@example.test", "%"]) expect((await server.fetch("/auth/password", { json: { email } })).status).toBe(204);
    expect((await server.fetch("/auth/password", { json: { nickname: "ali%" } })).status).toBe(204);
    expect(await resetTokens()).toBe(before);
    expect(mailsTo(server.dataDir, "alice@example.test")).toHaveLength(aliceMails);
    // the exact address, in another case, still gets its link
    expect((await server.fetch("/auth/password", { json: { email: "ALICE@example.test" } })).status).toBe(204);
    expect(await resetTokens()).toBe(before + 1);
  });

  test("remote follow and WebFinger find the exact account only", async () => {
    expect((await server.fetch("/ostatus_subscribe?acct=jo%25")).status).toBe(404);
    const page = await server.fetch("/ostatus_subscribe?acct=jo_n");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("jo_n");
    expect((await server.fetch("/.well-known/webfinger?resource=acct:al_ce@localhost:4000")).status).toBe(404);
    const wf = await server.fetch("/.well-known/webfinger?resource=acct:jo_n@localhost:4000");
    expect(wf.status).toBe(200);
    expect((await wf.json()).subject).toBe("acct:jo_n@localhost:4000");
  });

  test("a trailing backslash is a name like any other: no 500 on the anonymous routes", async () => {
    const answers = {
      lookup: await server.fetch(`/api/v1/accounts/lookup?acct=${encodeURIComponent("alice\\")}`),
      grant: await grant("alice\\", "secret-password"),
      basic: await server.fetch("/api/v1/accounts/verify_credentials", { headers: basic("alice\\", "secret-password") }),
      reset: await server.fetch("/auth/password", { json: { email: "alice\\" } }),
      resend: await server.fetch("/api/v1/ext/accounts/confirmation_resend", { json: { email: "alice\\" } }),
      remoteFollow: await server.fetch(`/ostatus_subscribe?acct=${encodeURIComponent("alice\\")}`),
      webfinger: await server.fetch(`/.well-known/webfinger?resource=${encodeURIComponent("acct:alice\\@localhost:4000")}`),
      authorizeForm: await server.fetch("/oauth/authorize", { form: { client_id: app.client_id, redirect_uri: "urn:ietf:wg:oauth:2.0:oob", scope: "read", name: "alice\\", password: "secret-password" } }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status]))).toEqual({
      lookup: 404,
      grant: 401,
      basic: 401,
      reset: 204,
      resend: 204,
      remoteFollow: 404,
      webfinger: 404,
      authorizeForm: 401,
    });
  });

  test("registration: jo_n and joxn do not take each other's name; the same name in another case is taken", async () => {
    const tokenRes = await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write" } });
    const appToken = (await tokenRes.json()).access_token;
    const register = (username: string) =>
      server.fetch("/api/v1/accounts", { headers: { authorization: `Bearer ${appToken}` }, json: { username, email: `${username}@other.test`, password: "a good password", agreement: true, locale: "en" } });
    // maxy exists: ma_y is free; pe_e exists: peye is free
    await server.createUser("maxy");
    await server.createUser("pe_e");
    expect((await register("ma_y")).status).toBe(200);
    expect((await register("peye")).status).toBe(200);
    const taken = await register("JO_N");
    expect(taken.status).toBe(422);
    expect(JSON.stringify(await taken.json())).toContain("taken");
    expect(await server.services.db.account.count({ where: { nickname: { in: ["ma_y", "peye"] } } })).toBe(2);
  });

  test("mentions and `to` name the exact account", async () => {
    const token = (await (await grant("alice", "secret-password")).json()).access_token;
    const post = await server.fetch("/api/v1/statuses", { headers: { authorization: `Bearer ${token}` }, json: { status: "hi @jo_n and @j_xn and @adm_n", visibility: "direct" } });
    expect(post.status).toBe(200);
    expect((await post.json()).mentions.map((m: { username: string }) => m.username)).toEqual(["jo_n"]);
    const to = await server.fetch("/api/v1/statuses", { headers: { authorization: `Bearer ${token}` }, json: { status: "to whom", visibility: "direct", to: ["j_xn", "JO_N"] } });
    expect(to.status).toBe(200);
    expect((await to.json()).mentions.map((m: { username: string }) => m.username)).toEqual(["jo_n"]);
  });

  test("the look-ups use the lower() indexes", async () => {
    const indexes = await server.services.db.$queryRaw<{ indexname: string }[]>`SELECT indexname FROM pg_indexes WHERE tablename = 'accounts' AND indexdef ILIKE '%lower(%'`;
    expect(indexes.map((i) => i.indexname).sort()).toEqual(["accounts_lower_email_idx", "accounts_lower_nickname_idx"]);
  });
});
