// The family's remote-follow pages over HTTP with plain form posts: /ostatus_subscribe (show, sign in with
// password and second factor, follow with the REST follow's effects), /main/ostatus (the visitor's handle
// form) and /authorize_interaction (redirect). The WebFinger redirect to another server needs federation:
// here the refusal of a handle whose server answers nothing is checked.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { digest } from "../../src/domain/auth/secrets.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("remote-follow pages on %s", (kind) => {
  let server: TestServer;
  let ann: string;
  let bob: string;
  let mia: string;
  const follows = (followerId: string, followingId: string) => server.services.db.follow.count({ where: { followerId, followingId } });
  const follow = (form: Record<string, string>, headers: Record<string, string> = {}) => server.fetch("/ostatus_subscribe", { form, headers });

  beforeAll(async () => {
    server = await startTestServer(kind);
    ann = (await server.createUser("ann")).id;
    bob = (await server.createUser("bob")).id;
    mia = (await server.createUser("mia")).id;
    await server.services.db.account.update({ where: { id: bob }, data: { displayName: "Bob <script>x</script>" } });
    await server.services.db.account.update({ where: { id: mia }, data: { mfaEnabled: true, mfaBackupCodes: [digest("0123456789abcdef")] } });
  });
  afterAll(() => server?.close());

  test("GET /ostatus_subscribe shows the account (by handle, nickname or URL) with an escaped sign-in-and-follow form; unknown: 404 page", async () => {
    const domain = server.services.settings.domain;
    for (const acct of [`bob@${domain}`, "bob", `@bob@${domain}`]) {
      const res = await server.fetch(`/ostatus_subscribe?acct=${encodeURIComponent(acct)}`);
      expect(res.status, acct).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/text\/html/);
      const html = await res.text();
      expect(html).toContain(`name="authorization[id]" value="${bob}"`);
      expect(html).toContain('action="/ostatus_subscribe"');
      expect(html).toContain("Bob &#60;script&#62;x&#60;/script&#62;");
      expect(html).not.toContain("<script>");
    }
    const apId = (await server.services.db.account.findUniqueOrThrow({ where: { id: bob } })).apId!;
    expect((await server.fetch(`/ostatus_subscribe?acct=${encodeURIComponent(apId)}`)).status).toBe(200);
    const missing = await server.fetch("/ostatus_subscribe?acct=nobody");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Error fetching user");
  });

  test("a status URL goes to its page; /authorize_interaction redirects to the follow page", async () => {
    const token = (await passwordToken(server, "bob")).access_token;
    const status = await (await server.fetch("/api/v1/statuses", { json: { status: "hello" }, headers: { authorization: `Bearer ${token}` } })).json();
    const res = await server.fetch(`/ostatus_subscribe?acct=${encodeURIComponent(status.uri)}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/notice/${status.id}`);
    const redirect = await server.fetch(`/authorize_interaction?uri=${encodeURIComponent(status.uri)}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe(`/ostatus_subscribe?acct=${encodeURIComponent(status.uri)}`);
  });

  test("POST /ostatus_subscribe: wrong password 401 with the form again; right one follows (as the REST follow) and redirects", async () => {
    const wrong = await follow({ "authorization[id]": bob, "authorization[name]": "ann", "authorization[password]": "nope" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Wrong username or password");
    expect(await follows(ann, bob)).toBe(0);

    const crossSite = await follow({ "authorization[id]": bob, "authorization[name]": "ann", "authorization[password]": "secret-password" }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(await follows(ann, bob)).toBe(0);

    const ok = await follow({ "authorization[id]": bob, "authorization[name]": "ann", "authorization[password]": "secret-password" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`${server.services.settings.baseUrl}/users/bob`);
    expect(await follows(ann, bob)).toBe(1);
    // the same relationship REST reports
    const token = (await passwordToken(server, "ann")).access_token;
    const rel = await (await server.fetch(`/api/v1/accounts/relationships?id[]=${bob}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(rel[0]).toMatchObject({ id: bob, following: true });

    const unknown = await follow({ "authorization[id]": "999999", "authorization[name]": "ann", "authorization[password]": "secret-password" });
    expect(unknown.status).toBe(404);
  });

  test("POST /ostatus_subscribe with MFA: the password alone asks for the code; a wrong code is refused; a backup code follows", async () => {
    const base = { "authorization[id]": bob, "authorization[name]": "mia", "authorization[password]": "secret-password" };
    const ask = await follow(base);
    expect(ask.status).toBe(401);
    expect(await ask.text()).toContain('name="authorization[code]"');
    expect((await follow({ ...base, "authorization[code]": "ffffffffffffffff" })).status).toBe(401);
    expect(await follows(mia, bob)).toBe(0);
    const ok = await follow({ ...base, "authorization[code]": "0123456789abcdef" });
    expect(ok.status).toBe(302);
    expect(await follows(mia, bob)).toBe(1);
    // the backup code was used up
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: mia } })).mfaBackupCodes).toEqual([]);
  });

  test("/main/ostatus: the handle form for a local account; a handle whose server offers no subscribe page gives the form again", async () => {
    const form = await server.fetch("/main/ostatus?nickname=bob");
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('name="user[nickname]" value="bob"');
    expect(html).toContain('name="user[profile]"');
    expect((await server.fetch("/main/ostatus?nickname=nobody")).status).toBe(404);

    const res = await server.fetch("/main/ostatus", { form: { "user[nickname]": "bob", "user[profile]": "someone@unreachable.invalid" } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Something went wrong.");
    expect((await server.fetch("/main/ostatus", { form: { "user[nickname]": "nobody", "user[profile]": "someone@unreachable.invalid" } })).status).toBe(404);
    expect((await server.fetch("/main/ostatus", { form: { "user[nickname]": "bob", "user[profile]": "x@y.example" }, headers: { origin: "https://evil.example" } })).status).toBe(403);

    // a status: the same form with status[...] fields, for public and unlisted statuses only
    const token = (await passwordToken(server, "bob")).access_token;
    const post = async (visibility: string) => (await (await server.fetch("/api/v1/statuses", { json: { status: "s", visibility }, headers: { authorization: `Bearer ${token}` } })).json()).id as string;
    const [open, hidden] = [await post("unlisted"), await post("private")];
    const statusForm = await server.fetch(`/main/ostatus?status_id=${open}`);
    expect(statusForm.status).toBe(200);
    expect(await statusForm.text()).toContain(`name="status[status_id]" value="${open}"`);
    expect((await server.fetch(`/main/ostatus?status_id=${hidden}`)).status).toBe(404);
    expect((await server.fetch("/main/ostatus", { form: { "status[status_id]": hidden, "status[profile]": "someone@unreachable.invalid" } })).status).toBe(404);
    expect((await server.fetch("/main/ostatus", { form: { "status[status_id]": open, "status[profile]": "someone@unreachable.invalid" } })).status).toBe(400);
  });
});
