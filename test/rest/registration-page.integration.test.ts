// The open sign-up page `/registration` (issue 18, criterion 6), as a browser without JavaScript uses it:
// plain HTTP form posts. It calls the same registration rules as `POST /api/v1/accounts`: open
// registrations (closed: refused, invite-only: pointed to the invitation), the approval reason, e-mail
// confirmation; the landing page links to it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mailsTo } from "../support/mailbox.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const HTML = { accept: "text/html" };
let server: TestServer;

const set = async (key: string, value: unknown) => {
  await server.services.db.configEntry.upsert({ where: { group_key: { group: "instance", key } }, create: { group: "instance", key, value: value as never }, update: { value: value as never } });
  await server.services.config.reload();
};
const form = (fields: Record<string, string>) => server.fetch("/registration", { form: fields, headers: HTML }).then(async (r) => ({ status: r.status, text: await r.text() }));
const fields = (username: string, extra: Record<string, string> = {}) => ({
  username,
  email: `${username}@example.test`,
  password: "a good password",
  password_confirmation: "a good password",
  agreement: "true",
  ...extra,
});
const account = (nickname: string) => server.services.db.account.findFirst({ where: { nickname } });

describe("the open sign-up page", () => {
  beforeAll(async () => {
    server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true" });
    await set("registrations_open", true);
    await set("account_activation_required", false);
    await set("account_approval_required", false);
  });
  afterAll(() => server?.close());

  test("the landing page links it; it is a form posting to itself", async () => {
    expect(await (await server.fetch("/", { headers: HTML })).text()).toContain('href="http://localhost:4000/registration"');
    const res = await server.fetch("/registration", { headers: HTML });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/registration">');
    expect(html).toContain('name="password_confirmation"');
    expect(html).not.toContain('name="reason"');
  });

  test("a posted form registers an active account that can sign in", async () => {
    const res = await form(fields("newbie", { fullname: "New Bie" }));
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain("Welcome, @newbie!");
    expect(res.text).toContain("Your account is ready");
    expect(await account("newbie")).toMatchObject({ displayName: "New Bie", email: "newbie@example.test", approvalPending: false, confirmationPending: false });
  });

  test("problems come back on the form, the values kept: mismatched passwords, a taken name, no agreement", async () => {
    const mismatch = await form(fields("typo", { password_confirmation: "another password" }));
    expect([mismatch.status, mismatch.text.includes("The passwords do not match.")]).toEqual([422, true]);
    expect(mismatch.text).toContain('value="typo"');
    const taken = await form(fields("newbie", { email: "other@example.test" }));
    expect(taken.status).toBe(422);
    expect(taken.text).toContain("username");
    const { agreement: _, ...disagreeing } = fields("disagree");
    expect((await form(disagreeing)).status).toBe(422);
    expect(await account("typo")).toBeNull();
    expect(await account("disagree")).toBeNull();
  });

  test("approval: the form asks why, requires it, and the account waits for approval", async () => {
    await set("account_approval_required", true);
    try {
      expect(await (await server.fetch("/registration", { headers: HTML })).text()).toContain('name="reason"');
      expect((await form(fields("reasonless"))).status).toBe(422);
      const res = await form(fields("patient", { reason: "I like cats" }));
      expect(res.text).toContain("once your account is approved");
      expect(await account("patient")).toMatchObject({ approvalPending: true, registrationReason: "I like cats" });
    } finally {
      await set("account_approval_required", false);
    }
  });

  test("confirmation: the account waits for its e-mail confirmation, which is sent", async () => {
    await set("account_activation_required", true);
    try {
      const res = await form(fields("mailer"));
      expect(res.text).toContain("Please check your email");
      expect(await account("mailer")).toMatchObject({ confirmationPending: true });
      expect(mailsTo(server.dataDir, "mailer@example.test")).toHaveLength(1);
    } finally {
      await set("account_activation_required", false);
    }
  });

  test("closed or invite-only registrations: the page says so and a posted form is refused", async () => {
    await set("registrations_open", false);
    await set("invites_enabled", true);
    const invited = await server.fetch("/registration", { headers: HTML });
    expect(invited.status).toBe(403);
    expect(await invited.text()).toContain("by invitation only");
    await set("invites_enabled", false);
    const closed = await server.fetch("/registration", { headers: HTML });
    expect([closed.status, (await closed.text()).includes("Registrations are closed.")]).toEqual([403, true]);
    const posted = await form(fields("latecomer"));
    expect(posted.status).toBe(403);
    expect(await account("latecomer")).toBeNull();
    await set("registrations_open", true);
  });
});
