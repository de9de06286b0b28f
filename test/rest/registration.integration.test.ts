// POST /api/v1/accounts under each runtime setting (open, closed + invites, approval, activation),
// the confirmation e-mail and its link, and confirmation_resend.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { digest } from "../../src/domain/auth/secrets.ts";
import { suiteKinds } from "../support/databases.ts";
import { registerApp, startTestServer, type TestServer } from "../support/server.ts";
import { linkIn, mailsTo, readMails } from "../support/mailbox.ts";

const BASE = "http://localhost:4000";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const DAY = 24 * 60 * 60 * 1000;

describe.each(suiteKinds(import.meta.url))("registration on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let app: { id: string; client_id: string; client_secret: string };
  let appToken: string;

  async function setConfig(values: Record<string, unknown>) {
    for (const [key, value] of Object.entries(values)) {
      await db.configEntry.upsert({ where: { group_key: { group: "instance", key } }, create: { group: "instance", key, value: value as any }, update: { value: value as any } });
    }
    await server.services.config.reload();
  }

  const registerReq = (body: Record<string, unknown>, headers: Record<string, string> = bearer(appToken)) => server.fetch("/api/v1/accounts", { json: body, headers });
  const fields = (nickname: string, extra: Record<string, unknown> = {}) => ({
    username: nickname,
    email: `${nickname}@example.test`,
    password: "a good password",
    agreement: true,
    locale: "en",
    ...extra,
  });
  const passwordGrant = (username: string, password = "a good password") =>
    server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password } });
  const account = (nickname: string) => db.account.findUnique({ where: { nickname } });

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    db = server.services.db;
    app = await registerApp(server, "read write follow push");
    const res = await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write follow push" } });
    appToken = (await res.json()).access_token;
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await db.configEntry.deleteMany({});
    await server.services.config.reload();
  });

  describe("open registrations", () => {
    test("an app token registers a user and gets the user's token, like /oauth/token", async () => {
      const res = await registerReq(fields("newbie", { fullname: "New Bie", bio: "hello there", captcha_solution: "x", captcha_token: "y", captcha_answer_data: "z" }), {
        ...bearer(appToken),
        "accept-language": "de-DE,de;q=0.9,en;q=0.5",
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(["access_token", "created_at", "expires_in", "id", "me", "refresh_token", "scope", "token_type"]);
      expect(body).toMatchObject({ token_type: "Bearer", scope: "read write follow push", me: `${BASE}/users/newbie` });
      const row = await account("newbie");
      expect(row).toMatchObject({
        email: "newbie@example.test",
        displayName: "New Bie",
        note: "hello there",
        language: "de-DE",
        local: true,
        approvalPending: false,
        confirmationPending: false,
        deactivated: false,
        apId: `${BASE}/users/newbie`,
      });
      expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
      const token = await db.oAuthToken.findUnique({ where: { tokenHash: digest(body.access_token) } });
      expect(token).toMatchObject({ id: body.id, accountId: row!.id, appId: Number(app.id), scopes: ["read", "write", "follow", "push"] });
      // the token works, and so does the password
      expect((await server.fetch("/api/oauth_tokens", { headers: bearer(body.access_token) })).status).toBe(200);
      expect((await passwordGrant("newbie")).status).toBe(200);
      expect(readMails(server.dataDir).filter((m) => m.to === "newbie@example.test")).toEqual([]);
    });

    test("without an app token: 403 and no account (the family requires the app's token)", async () => {
      const res = await registerReq(fields("noapp"), {});
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid credentials" });
      const dead = await registerReq(fields("noapp"), bearer("not-a-token"));
      expect(dead.status).toBe(403);
      expect(await account("noapp")).toBeNull();
    });

    test("a user's token names its app too; the nickname defaults the display name", async () => {
      await registerReq(fields("firstuser"));
      const login = await (await passwordGrant("firstuser")).json();
      const res = await registerReq(fields("seconduser"), bearer(login.access_token));
      expect(res.status).toBe(200);
      expect(await account("seconduser")).toMatchObject({ displayName: "seconduser", note: "", language: null });
    });

    test("a form body works; pleroma-fe's nickname field names the user; language from cookie, then parameter", async () => {
      const form = { nickname: "formuser", email: "formuser@example.test", password: "pw", agreement: "true", locale: "en_US" };
      const res = await server.fetch("/api/v1/accounts", { form, headers: { ...bearer(appToken), cookie: "userLanguage=fr; other=1", "accept-language": "de" } });
      expect(res.status).toBe(200);
      expect(await account("formuser")).toMatchObject({ language: "fr", email: "formuser@example.test" });
      await registerReq(fields("languser", { language: "pt_BR" }), { ...bearer(appToken), cookie: "userLanguage=fr" });
      expect(await account("languser")).toMatchObject({ language: "pt_BR" });
    });

    test("missing fields: 422 naming each field, in the reference shape with the family's error string", async () => {
      const res = await registerReq({});
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        error: "Validation failed: Username can't be blank, Password can't be blank, Agreement must be accepted",
        details: {
          username: [{ error: "ERR_BLANK", description: "can't be blank" }],
          password: [{ error: "ERR_BLANK", description: "can't be blank" }],
          agreement: [{ error: "ERR_ACCEPTED", description: "must be accepted" }],
        },
      });
    });

    test("agreement false, a bad nickname and a bad e-mail are refused together", async () => {
      const res = await registerReq(fields("bad name!", { email: "not-an-email", agreement: false }));
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.error).toBe("Validation failed: Username is invalid, Email is invalid, Agreement must be accepted");
      expect(body.details).toEqual({
        username: [{ error: "ERR_INVALID", description: "is invalid" }],
        email: [{ error: "ERR_INVALID", description: "is invalid" }],
        agreement: [{ error: "ERR_ACCEPTED", description: "must be accepted" }],
      });
      const long = await registerReq(fields("x".repeat(65)));
      expect((await long.json()).details.username[0]).toEqual({ error: "ERR_TOO_LONG", description: "is too long (maximum is 64 characters)" });
      expect(await db.account.count({ where: { email: "not-an-email" } })).toBe(0);
    });

    test("a taken nickname or e-mail (any case) is 422 ERR_TAKEN", async () => {
      expect((await registerReq(fields("taken"))).status).toBe(200);
      const res = await registerReq(fields("TAKEN", { email: "Taken@Example.TEST" }));
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        error: "Validation failed: Username has already been taken, Email has already been taken",
        details: {
          username: [{ error: "ERR_TAKEN", description: "has already been taken" }],
          email: [{ error: "ERR_TAKEN", description: "has already been taken" }],
        },
      });
      expect(await db.account.count({ where: { nickname: { equals: "taken", mode: "insensitive" } } })).toBe(1);
    });

    test("an unreadable parameter is a 400 that still names the field", async () => {
      const res = await registerReq(fields("weird", { agreement: "maybe" }));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(typeof body.error).toBe("string");
      expect(Object.keys(body.details)).toEqual(["agreement"]);
      expect(await account("weird")).toBeNull();
    });

    test("an invite token is ignored while registrations are open", async () => {
      await db.invite.create({ data: { token: "open-invite", inviteType: "one_time" } });
      expect((await registerReq(fields("openinvitee", { token: "open-invite" }))).status).toBe(200);
      expect(await db.invite.findUnique({ where: { token: "open-invite" } })).toMatchObject({ used: false, uses: 0 });
    });
  });

  describe("closed registrations and invites", () => {
    beforeEach(() => setConfig({ registrations_open: false, invites_enabled: true }));

    test("without an invite: 403 Registrations are closed", async () => {
      const res = await registerReq(fields("closed1"));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Registrations are closed" });
      expect(await account("closed1")).toBeNull();
    });

    test("with invites disabled even a valid invite is refused", async () => {
      await setConfig({ invites_enabled: false });
      await db.invite.create({ data: { token: "disabled-invite", inviteType: "one_time" } });
      const res = await registerReq(fields("closed2", { token: "disabled-invite" }));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Registrations are closed" });
      expect(await db.invite.findUnique({ where: { token: "disabled-invite" } })).toMatchObject({ used: false });
    });

    test("an unknown invite: 400 naming the token field", async () => {
      const res = await registerReq(fields("closed3", { token: "nope" }));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Validation failed: Invite token is invalid", details: { token: [{ error: "ERR_INVALID", description: "is invalid" }] } });
    });

    test("a one_time invite admits one user and is then used", async () => {
      await db.invite.create({ data: { token: "once", inviteType: "one_time" } });
      expect((await registerReq(fields("invitee1", { token: "once" }))).status).toBe(200);
      expect(await db.invite.findUnique({ where: { token: "once" } })).toMatchObject({ used: true, uses: 0 });
      expect(await account("invitee1")).not.toBeNull();
      const again = await registerReq(fields("invitee2", { token: "once" }));
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ error: "Validation failed: Invite token has already been used", details: { token: [{ error: "ERR_INVALID", description: "has already been used" }] } });
      expect(await account("invitee2")).toBeNull();
    });

    test("a field error does not spend the invite", async () => {
      await db.invite.create({ data: { token: "keep", inviteType: "one_time" } });
      expect((await registerReq(fields("keeper", { token: "keep", agreement: false }))).status).toBe(422);
      expect(await db.invite.findUnique({ where: { token: "keep" } })).toMatchObject({ used: false });
    });

    test("a reusable invite counts uses up to max_use", async () => {
      await db.invite.create({ data: { token: "twice", inviteType: "reusable", maxUse: 2 } });
      expect((await registerReq(fields("reuse1", { token: "twice" }))).status).toBe(200);
      expect(await db.invite.findUnique({ where: { token: "twice" } })).toMatchObject({ used: false, uses: 1 });
      expect((await registerReq(fields("reuse2", { token: "twice" }))).status).toBe(200);
      expect(await db.invite.findUnique({ where: { token: "twice" } })).toMatchObject({ used: true, uses: 2 });
      expect((await registerReq(fields("reuse3", { token: "twice" }))).status).toBe(400);
    });

    test("concurrent registrations cannot over-use a reusable invite", async () => {
      await db.invite.create({ data: { token: "race", inviteType: "reusable", maxUse: 2 } });
      const results = await Promise.all(["race1", "race2", "race3", "race4"].map((n) => registerReq(fields(n, { token: "race" }))));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 400, 400]);
      expect(await db.invite.findUnique({ where: { token: "race" } })).toMatchObject({ used: true, uses: 2 });
      expect(await db.account.count({ where: { nickname: { startsWith: "race" } } })).toBe(2);
    });

    test("a date_limited invite works any number of times through its date, then not", async () => {
      const today = new Date(new Date().toISOString().slice(0, 10));
      await db.invite.create({ data: { token: "today", inviteType: "date_limited", expiresAt: today } });
      await db.invite.create({ data: { token: "yesterday", inviteType: "date_limited", expiresAt: new Date(today.getTime() - DAY) } });
      expect((await registerReq(fields("dated1", { token: "today" }))).status).toBe(200);
      expect((await registerReq(fields("dated2", { token: "today" }))).status).toBe(200);
      expect(await db.invite.findUnique({ where: { token: "today" } })).toMatchObject({ used: false, uses: 0 });
      const expired = await registerReq(fields("dated3", { token: "yesterday" }));
      expect(expired.status).toBe(400);
      expect(await expired.json()).toEqual({ error: "Validation failed: Invite token has expired", details: { token: [{ error: "ERR_INVALID", description: "has expired" }] } });
    });

    test("a reusable_date_limited invite checks both", async () => {
      const tomorrow = new Date(Date.now() + DAY);
      await db.invite.create({ data: { token: "both", inviteType: "reusable_date_limited", maxUse: 1, expiresAt: tomorrow } });
      await db.invite.create({ data: { token: "both-old", inviteType: "reusable_date_limited", maxUse: 5, expiresAt: new Date(Date.now() - 2 * DAY) } });
      expect((await registerReq(fields("rdl1", { token: "both" }))).status).toBe(200);
      expect(await db.invite.findUnique({ where: { token: "both" } })).toMatchObject({ used: true, uses: 1 });
      expect((await registerReq(fields("rdl2", { token: "both" }))).status).toBe(400);
      expect((await registerReq(fields("rdl3", { token: "both-old" }))).status).toBe(400);
    });
  });

  describe("approval required", () => {
    beforeEach(() => setConfig({ account_approval_required: true }));

    test("a reason is required", async () => {
      const res = await registerReq(fields("noreason"));
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: "Validation failed: Reason can't be blank", details: { reason: [{ error: "ERR_BLANK", description: "can't be blank" }] } });
    });

    test("the account waits for approval: no token, the reason kept, sign-in refused", async () => {
      const res = await registerReq(fields("waiting", { reason: "I like microblogs" }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ identifier: "awaiting_approval", message: "You have been registered. You'll be able to log in once your account is approved." });
      const row = await account("waiting");
      expect(row).toMatchObject({ approvalPending: true, confirmationPending: false, registrationReason: "I like microblogs" });
      expect(await db.oAuthToken.count({ where: { accountId: row!.id } })).toBe(0);
      const login = await passwordGrant("waiting");
      expect(login.status).toBe(403);
      expect(await login.json()).toEqual({ error: "Your account is awaiting approval." });
    });
  });

  describe("activation (e-mail confirmation) required", () => {
    beforeEach(() => setConfig({ account_activation_required: true }));

    test("an e-mail address is required", async () => {
      const res = await registerReq(fields("nomail", { email: undefined }));
      expect(res.status).toBe(422);
      expect((await res.json()).details).toEqual({ email: [{ error: "ERR_BLANK", description: "can't be blank" }] });
    });

    test("a confirmation mail is written; its link confirms the account and redirects to /", async () => {
      const res = await registerReq(fields("confirmme"));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ identifier: "missing_confirmed_email", message: "You have been registered. Please check your email for further instructions." });
      const row = await account("confirmme");
      expect(row).toMatchObject({ confirmationPending: true, approvalPending: false });
      expect((await passwordGrant("confirmme")).status).toBe(403);

      const [mail] = mailsTo(server.dataDir, "confirmme@example.test");
      expect(mail).toBeDefined();
      expect(mail!.subject).toBe("ext account confirmation");
      const link = linkIn(mail!, BASE, /^\/api\/account\/confirm_email\//);
      const [, , , , userId, token] = link.split("/");
      expect(userId).toBe(row!.id);
      const stored = await db.accountToken.findFirstOrThrow({ where: { accountId: row!.id, kind: "confirm_email" } });
      expect(stored.tokenHash).toBe(digest(token!)); // only the digest is stored
      expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(7 * DAY);

      // a wrong user id does not confirm
      const wrong = await server.fetch(`/api/account/confirm_email/${"0".repeat(26)}/${token}`);
      expect(wrong.status).toBe(400);
      expect(await account("confirmme")).toMatchObject({ confirmationPending: true });

      const follow = await server.fetch(link);
      expect(follow.status).toBe(302);
      expect(follow.headers.get("location")).toBe("/");
      expect(await account("confirmme")).toMatchObject({ confirmationPending: false });
      expect((await db.accountToken.findUniqueOrThrow({ where: { id: stored.id } })).usedAt).toBeInstanceOf(Date);
      expect((await passwordGrant("confirmme")).status).toBe(200);

      // single use
      const again = await server.fetch(link);
      expect(again.status).toBe(400);
      expect(again.headers.get("content-type")).toMatch(/text\/html/);
    });

    test("an expired confirmation link does nothing", async () => {
      await registerReq(fields("slowpoke"));
      const row = await account("slowpoke");
      const link = linkIn(mailsTo(server.dataDir, "slowpoke@example.test")[0]!, BASE, /confirm_email/);
      await db.accountToken.updateMany({ where: { accountId: row!.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await server.fetch(link)).status).toBe(400);
      expect(await account("slowpoke")).toMatchObject({ confirmationPending: true });
    });

    test("with approval too: awaiting approval comes first, and the mail is still sent", async () => {
      await setConfig({ account_approval_required: true });
      const res = await registerReq(fields("bothpending", { reason: "hi" }));
      expect(await res.json()).toMatchObject({ identifier: "awaiting_approval" });
      expect(await account("bothpending")).toMatchObject({ approvalPending: true, confirmationPending: true });
      expect(mailsTo(server.dataDir, "bothpending@example.test")).toHaveLength(1);
    });

    test("confirmation_resend: 204 always; a new mail only for an account still pending", async () => {
      await registerReq(fields("resender"));
      expect(mailsTo(server.dataDir, "resender@example.test")).toHaveLength(1);
      const resend = (body: Record<string, string>) => server.fetch("/api/v1/ext/accounts/confirmation_resend", { json: body });

      const byEmail = await resend({ email: "resender@example.test" });
      expect(byEmail.status).toBe(204);
      expect(await byEmail.text()).toBe("");
      expect(mailsTo(server.dataDir, "resender@example.test")).toHaveLength(2);
      expect((await resend({ nickname: "RESENDER" })).status).toBe(204);
      const mails = mailsTo(server.dataDir, "resender@example.test");
      expect(mails).toHaveLength(3);
      const row = await account("resender");
      expect(await db.accountToken.count({ where: { accountId: row!.id, kind: "confirm_email" } })).toBe(3);

      // the newest link works; afterwards the account is confirmed and nothing more is sent
      expect((await server.fetch(linkIn(mails[2]!, BASE, /confirm_email/))).status).toBe(302);
      expect((await resend({ email: "resender@example.test" })).status).toBe(204);
      expect(mailsTo(server.dataDir, "resender@example.test")).toHaveLength(3);

      // unknown or empty: still 204, nothing sent
      const before = readMails(server.dataDir).length;
      expect((await resend({ email: "nobody@example.test" })).status).toBe(204);
      expect((await server.fetch("/api/v1/ext/accounts/confirmation_resend", { method: "POST" })).status).toBe(204);
      expect(readMails(server.dataDir)).toHaveLength(before);
    });
  });
});
