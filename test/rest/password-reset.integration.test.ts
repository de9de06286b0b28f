// Password reset by e-mail: POST /auth/password → mail → GET the form → POST the new password.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSession } from "../../src/domain/auth/sessions.ts";
import { digest } from "../../src/domain/auth/secrets.ts";
import { makeCtx } from "../../src/domain/context.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";
import { linkIn, mailsTo, readMails } from "../support/mailbox.ts";

const BASE = "http://localhost:4000";
const PASSWORD = "secret-password";
const DAY = 24 * 60 * 60 * 1000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("password reset on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];

  const requestReset = (form: Record<string, string>) => server.fetch("/auth/password", { form });
  /** Requests a reset for the user and returns the link's path and token from the mail. */
  async function resetLink(nickname: string) {
    const before = mailsTo(server.dataDir, `${nickname}@example.test`).length;
    expect((await requestReset({ email: `${nickname}@example.test` })).status).toBe(204);
    const mails = mailsTo(server.dataDir, `${nickname}@example.test`);
    expect(mails).toHaveLength(before + 1);
    const path = linkIn(mails.at(-1)!, BASE, /^\/api\/v1\/ext\/password_reset\//);
    return { path, token: path.split("/").at(-1)! };
  }
  const submit = (form: Record<string, string>, headers: Record<string, string> = {}) => server.fetch("/api/v1/ext/password_reset", { form, headers });
  const grant = async (username: string, password: string) => {
    const app = await registerApp(server);
    return server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password } });
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
  });
  afterAll(() => server?.close());

  test("an unknown address or nickname: 204 all the same, and nothing is sent or stored", async () => {
    const before = readMails(server.dataDir).length;
    for (const form of [{ email: "nobody@example.test" }, { nickname: "nobody" }, {}] as Record<string, string>[]) {
      const res = await requestReset(form);
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
    }
    expect(readMails(server.dataDir)).toHaveLength(before);
    expect(await db.accountToken.count({ where: { kind: "password_reset" } })).toBe(0);
  });

  test("a deactivated account gets no mail", async () => {
    const account = await server.createUser("pr_gone");
    await db.account.update({ where: { id: account.id }, data: { deactivated: true } });
    expect((await requestReset({ email: "pr_gone@example.test" })).status).toBe(204);
    expect(mailsTo(server.dataDir, "pr_gone@example.test")).toHaveLength(0);
  });

  test("the whole flow: mail, form, new password; token used, sessions and tokens revoked", async () => {
    const account = await server.createUser("pr_alice");
    const session = await createSession(makeCtx(server.services), account.id);
    const { access_token } = await passwordToken(server, "pr_alice");
    // an admin forced a reset: the flag goes away with the new password
    await db.account.update({ where: { id: account.id }, data: { passwordResetPending: true } });

    const { path, token } = await resetLink("pr_alice");
    const [mail] = mailsTo(server.dataDir, "pr_alice@example.test");
    expect(mail!.subject).toBe("Password reset requested at ext");
    const row = await db.accountToken.findFirstOrThrow({ where: { accountId: account.id, kind: "password_reset" } });
    expect(row.tokenHash).toBe(digest(token));
    expect(row.usedAt).toBeNull();
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(DAY);

    const form = await server.fetch(path);
    expect(form.status).toBe(200);
    expect(form.headers.get("content-type")).toMatch(/text\/html/);
    expect(form.headers.get("cache-control")).toBe("no-store");
    expect(form.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await form.text();
    expect(html).toContain("@pr_alice");
    expect(html).toContain('action="/api/v1/ext/password_reset"');
    expect(html).toContain(`name="data[token]" value="${token}"`);
    expect(html).toContain('name="data[password]"');
    expect(html).toContain('name="data[password_confirmation]"');

    // confirmation mismatch: the form again, the token still good
    const mismatch = await submit({ "data[token]": token, "data[password]": "one", "data[password_confirmation]": "two" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Password does not match confirmation.");
    expect((await db.accountToken.findUniqueOrThrow({ where: { id: row.id } })).usedAt).toBeNull();

    const done = await submit({ "data[token]": token, "data[password]": "reset-pass", "data[password_confirmation]": "reset-pass" });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Password changed!");
    expect((await db.accountToken.findUniqueOrThrow({ where: { id: row.id } })).usedAt).toBeInstanceOf(Date);
    expect(await db.account.findUnique({ where: { id: account.id } })).toMatchObject({ passwordResetPending: false });
    expect(await db.oAuthToken.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.session.count({ where: { id: digest(session.token) } })).toBe(0);
    expect((await server.fetch("/api/oauth_tokens", { headers: bearer(access_token) })).status).toBe(401);
    expect((await grant("pr_alice", PASSWORD)).status).toBe(401);
    expect((await grant("pr_alice", "reset-pass")).status).toBe(200);

    // single use: the link and the form are dead now
    const reused = await submit({ "data[token]": token, "data[password]": "again", "data[password_confirmation]": "again" });
    expect(reused.status).toBe(404);
    expect(await reused.text()).toContain("Invalid Token");
    expect((await server.fetch(path)).status).toBe(404);
    expect((await grant("pr_alice", "reset-pass")).status).toBe(200);
  });

  test("by nickname, with flat JSON fields for a JSON client", async () => {
    await server.createUser("pr_bob");
    expect((await requestReset({ nickname: "PR_BOB" })).status).toBe(204);
    const mail = mailsTo(server.dataDir, "pr_bob@example.test").at(-1)!;
    const token = linkIn(mail, BASE, /password_reset/).split("/").at(-1)!;
    const json = { accept: "application/json" };
    const bad = await server.fetch("/api/v1/ext/password_reset", { json: { token, password: "x", password_confirmation: "y" }, headers: json });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Password does not match confirmation." });
    const ok = await server.fetch("/api/v1/ext/password_reset", { json: { token, password: "bob-new", password_confirmation: "bob-new" }, headers: json });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: "success" });
    const reused = await server.fetch("/api/v1/ext/password_reset", { json: { token, password: "bob-3", password_confirmation: "bob-3" }, headers: json });
    expect(reused.status).toBe(404);
    expect(await reused.json()).toEqual({ error: "Invalid or expired token" });
    expect((await grant("pr_bob", "bob-new")).status).toBe(200);
  });

  test("an expired token shows the invalid page and changes nothing", async () => {
    const account = await server.createUser("pr_late");
    const { path, token } = await resetLink("pr_late");
    await db.accountToken.updateMany({ where: { accountId: account.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await server.fetch(path)).status).toBe(404);
    const res = await submit({ "data[token]": token, "data[password]": "late-pass", "data[password_confirmation]": "late-pass" });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Invalid Token");
    expect((await grant("pr_late", PASSWORD)).status).toBe(200);
  });

  test("an unknown token and a confirmation token are not reset tokens", async () => {
    expect((await server.fetch("/api/v1/ext/password_reset/not-a-token")).status).toBe(404);
    const account = await server.createUser("pr_wrongkind");
    const { issueAccountToken } = await import("../../src/domain/accounts/account-tokens.ts");
    const { token } = await issueAccountToken(makeCtx(server.services), account.id, "confirm_email");
    expect((await server.fetch(`/api/v1/ext/password_reset/${token}`)).status).toBe(404);
    const res = await submit({ "data[token]": token, "data[password]": "p", "data[password_confirmation]": "p" });
    expect(res.status).toBe(404);
    expect((await grant("pr_wrongkind", PASSWORD)).status).toBe(200);
  });

  test("each request mails a new link; an older unused one still works", async () => {
    await server.createUser("pr_twice");
    const first = await resetLink("pr_twice");
    const second = await resetLink("pr_twice");
    expect(first.token).not.toBe(second.token);
    expect((await server.fetch(first.path)).status).toBe(200);
    expect((await server.fetch(second.path)).status).toBe(200);
  });
});
