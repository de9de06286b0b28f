// The own API's account actions: change_password, change_email, delete_account (and its job),
// disable_account, aliases, notification_settings — responses, error shapes and database state.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSession } from "../../src/domain/auth/sessions.ts";
import { makeCtx } from "../../src/domain/context.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";
import { waitForDeleteJob } from "./admin-users-helpers.ts";

const BASE = "http://localhost:4000";
const PASSWORD = "secret-password";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(suiteKinds(import.meta.url))("own account actions on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];

  /** A fresh user with a token (all of read write follow push) and a browser session. */
  async function user(nickname: string) {
    const account = await server.createUser(nickname);
    const { access_token } = await passwordToken(server, nickname);
    const session = await createSession(makeCtx(server.services), account.id);
    return { account, token: access_token, session: session.token };
  }
  const post = (path: string, token: string, json: Record<string, unknown>) => server.fetch(path, { method: "POST", json, headers: bearer(token) });
  /** GET /api/oauth_tokens answers 200 only to a live user token. */
  const alive = async (token: string) => (await server.fetch("/api/oauth_tokens", { headers: bearer(token) })).status === 200;
  const grant = async (username: string, password: string) => {
    const app = await registerApp(server);
    return server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password } });
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
  });
  afterAll(() => server?.close());

  test("anonymous and under-scoped requests are refused", async () => {
    const anon = await server.fetch("/api/ext/change_password", { json: { password: PASSWORD } });
    expect(anon.status).toBe(403);
    expect(await anon.json()).toEqual({ error: "Invalid credentials." });
    await server.createUser("readonly");
    const { access_token } = await passwordToken(server, "readonly", "read");
    const res = await post("/api/ext/delete_account", access_token, { password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Insufficient permissions: write:accounts." });
    expect((await db.account.findUnique({ where: { nickname: "readonly" } }))!.deactivated).toBe(false);
    // read:accounts is enough to list aliases
    expect((await server.fetch("/api/ext/aliases", { headers: bearer(access_token) })).status).toBe(200);
  });

  describe("change_password", () => {
    test("a wrong password: 403 Invalid password., nothing changes", async () => {
      const u = await user("cp_wrong");
      const res = await post("/api/ext/change_password", u.token, { password: "nope", new_password: "new-one", new_password_confirmation: "new-one" });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid password." });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.passwordHash).toBe(u.account.passwordHash);
      expect(await alive(u.token)).toBe(true);
    });

    test("a mismatched or blank new password: 400 with the family's message", async () => {
      const u = await user("cp_mismatch");
      const mismatch = await post("/api/ext/change_password", u.token, { password: PASSWORD, new_password: "one", new_password_confirmation: "two" });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.json()).toEqual({ error: "New password does not match confirmation." });
      const blank = await post("/api/ext/change_password", u.token, { password: PASSWORD, new_password: "", new_password_confirmation: "" });
      expect(blank.status).toBe(400);
      expect(await blank.json()).toEqual({ error: "New password can't be blank." });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.passwordHash).toBe(u.account.passwordHash);
    });

    test("success: the new password works, the old one does not, every token and session is revoked", async () => {
      const u = await user("cp_ok");
      await db.account.update({ where: { id: u.account.id }, data: { passwordResetPending: false } });
      const res = await post("/api/v1/ext/change_password", u.token, { password: PASSWORD, new_password: "brand-new", new_password_confirmation: "brand-new" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "success" });
      expect(await db.oAuthToken.count({ where: { accountId: u.account.id } })).toBe(0);
      expect(await db.session.count({ where: { accountId: u.account.id } })).toBe(0);
      expect(await alive(u.token)).toBe(false);
      expect((await grant("cp_ok", PASSWORD)).status).toBe(401);
      expect((await grant("cp_ok", "brand-new")).status).toBe(200);
    });

    test("a multipart form (as pleroma-fe sends it) works too", async () => {
      const u = await user("cp_form");
      const fd = new FormData();
      fd.set("password", PASSWORD);
      fd.set("new_password", "formed");
      fd.set("new_password_confirmation", "formed");
      const res = await server.fetch("/api/ext/change_password", { method: "POST", body: fd, headers: bearer(u.token) });
      expect(await res.json()).toEqual({ status: "success" });
      expect((await grant("cp_form", "formed")).status).toBe(200);
    });
  });

  describe("change_email", () => {
    test("a wrong password: 403", async () => {
      const u = await user("ce_wrong");
      const res = await post("/api/ext/change_email", u.token, { password: "nope", email: "x@example.test" });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid password." });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.email).toBe("ce_wrong@example.test");
    });

    test("a malformed, blank or taken address is refused", async () => {
      const u = await user("ce_bad");
      await server.createUser("ce_other");
      const bad = await post("/api/ext/change_email", u.token, { password: PASSWORD, email: "not an email" });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: "Email has invalid format." });
      const blank = await post("/api/ext/change_email", u.token, { password: PASSWORD, email: "" });
      expect(blank.status).toBe(400);
      expect(await blank.json()).toEqual({ error: "Email can't be blank." });
      const taken = await post("/api/ext/change_email", u.token, { password: PASSWORD, email: "CE_OTHER@example.test" });
      expect(taken.status).toBe(422);
      expect(await taken.json()).toEqual({ error: "Email has already been taken." });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.email).toBe("ce_bad@example.test");
    });

    test("success changes the address; the old one becomes free", async () => {
      const u = await user("ce_ok");
      const res = await post("/api/v1/ext/change_email", u.token, { password: PASSWORD, email: "ce_new@example.test" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "success" });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.email).toBe("ce_new@example.test");
      expect(await alive(u.token)).toBe(true); // unlike a password change, no one is signed out
    });
  });

  describe("delete_account", () => {
    test("a wrong or missing password: 403 Invalid password., the account stays", async () => {
      const u = await user("del_wrong");
      for (const body of [{ password: "nope" }, {}]) {
        const res = await post("/api/ext/delete_account", u.token, body);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ error: "Invalid password." });
      }
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.deactivated).toBe(false);
      expect(await db.job.count({ where: { name: "accounts.delete", payload: { equals: { accountId: u.account.id } } } })).toBe(0);
    });

    test("success: deactivated at once; the job then removes the data and keeps a tombstone", async () => {
      const u = await user("del_me");
      const friend = await server.createUser("del_friend");
      await db.account.update({
        where: { id: u.account.id },
        data: {
          displayName: "Del Me",
          note: "my bio",
          avatar: "/media/a.png",
          header: "/media/h.png",
          background: "/media/b.png",
          fields: [{ name: "site", value: "https://example.test" }],
          alsoKnownAs: [`${BASE}/users/del_friend`],
          settingsStore: { "pleroma-fe": { theme: "dark" } },
        },
      });
      await db.follow.createMany({
        data: [
          { id: newId(), followerId: u.account.id, followingId: friend.id, state: "accept" },
          { id: newId(), followerId: friend.id, followingId: u.account.id, state: "accept" },
        ],
      });
      await db.userRelationship.create({ data: { id: newId(), sourceId: u.account.id, targetId: friend.id, type: "mute" } });
      await db.accountNote.create({ data: { id: newId(), authorId: friend.id, targetId: u.account.id, comment: "met at a conference" } });
      await db.domainBlock.create({ data: { id: newId(), accountId: u.account.id, domain: "blocked.example" } });

      // the password may come in the query string too
      const res = await server.fetch(`/api/ext/delete_account?password=${PASSWORD}`, { method: "POST", headers: bearer(u.token) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "success" });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.deactivated).toBe(true);
      expect(await alive(u.token)).toBe(false); // at once, before the job runs

      const job = await waitForDeleteJob(db, u.account.id);
      expect(job.state).toBe("done");
      const row = await db.account.findUnique({ where: { id: u.account.id } });
      expect(row).toMatchObject({
        nickname: "del_me",
        apId: `${BASE}/users/del_me`,
        deactivated: true,
        email: null,
        passwordHash: null,
        displayName: "",
        note: "",
        avatar: null,
        header: null,
        background: null,
        fields: [],
        alsoKnownAs: [],
        settingsStore: {},
      });
      const id = u.account.id;
      expect(await db.oAuthToken.count({ where: { accountId: id } })).toBe(0);
      expect(await db.session.count({ where: { accountId: id } })).toBe(0);
      expect(await db.follow.count({ where: { OR: [{ followerId: id }, { followingId: id }] } })).toBe(0);
      expect(await db.userRelationship.count({ where: { OR: [{ sourceId: id }, { targetId: id }] } })).toBe(0);
      expect(await db.accountNote.count({ where: { OR: [{ authorId: id }, { targetId: id }] } })).toBe(0);
      expect(await db.domainBlock.count({ where: { accountId: id } })).toBe(0);
      // the other user is untouched
      expect(await db.account.findUnique({ where: { id: friend.id } })).toMatchObject({ deactivated: false, email: "del_friend@example.test" });

      // the nickname is not handed out again; the e-mail address is free
      const app = await registerApp(server);
      const appToken = (await (await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret } })).json()).access_token;
      const again = await server.fetch("/api/v1/accounts", { json: { username: "del_me", email: "del_me@example.test", password: "x", agreement: true }, headers: bearer(appToken) });
      expect(again.status).toBe(422);
      expect((await again.json()).details).toEqual({ username: [{ error: "ERR_TAKEN", description: "has already been taken" }] });
      expect((await grant("del_me", PASSWORD)).status).toBe(401);
    });
  });

  describe("disable_account", () => {
    test("a wrong password: 403", async () => {
      const u = await user("dis_wrong");
      const res = await post("/api/ext/disable_account", u.token, { password: "nope" });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Invalid password." });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.deactivated).toBe(false);
    });

    test("success deactivates but keeps everything; tokens stop working", async () => {
      const u = await user("dis_ok");
      const res = await post("/api/v1/ext/disable_account", u.token, { password: PASSWORD });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "success" });
      const row = await db.account.findUnique({ where: { id: u.account.id } });
      expect(row).toMatchObject({ deactivated: true, email: "dis_ok@example.test" });
      expect(row!.passwordHash).toBe(u.account.passwordHash);
      expect(await alive(u.token)).toBe(false);
      const login = await grant("dis_ok", PASSWORD);
      expect(login.status).toBe(403);
      expect(await login.json()).toEqual({ error: "Your account is currently disabled" });
      expect(await db.job.count({ where: { name: "accounts.delete", payload: { equals: { accountId: u.account.id } } } })).toBe(0);
    });
  });

  describe("aliases", () => {
    test("list, add (local and remote, by nickname), remove; stored as ActivityPub ids", async () => {
      const u = await user("al_owner");
      await server.createUser("al_local");
      await db.account.create({
        data: { id: newId(), nickname: "carol@remote.example", domain: "remote.example", local: false, apId: "https://remote.example/users/carol" },
      });
      const list = async () => (await server.fetch("/api/ext/aliases", { headers: bearer(u.token) })).json();
      const put = (alias: string) => server.fetch("/api/ext/aliases", { method: "PUT", json: { alias }, headers: bearer(u.token) });
      const stored = async () => (await db.account.findUnique({ where: { id: u.account.id } }))!.alsoKnownAs;

      expect(await list()).toEqual({ aliases: [] });
      const add = await put("al_local");
      expect(add.status).toBe(200);
      expect(await add.json()).toEqual({ status: "success" });
      expect((await put("al_local@localhost:4000")).status).toBe(200); // the same account, not added twice
      expect((await put("@carol@remote.example")).status).toBe(200);
      expect(await stored()).toEqual([`${BASE}/users/al_local`, "https://remote.example/users/carol"]);
      expect(await list()).toEqual({ aliases: ["al_local@localhost:4000", "carol@remote.example"] });

      const del = await server.fetch("/api/v1/ext/aliases", { method: "DELETE", json: { alias: "carol@remote.example" }, headers: bearer(u.token) });
      expect(del.status).toBe(200);
      expect(await del.json()).toEqual({ status: "success" });
      expect(await stored()).toEqual([`${BASE}/users/al_local`]);

      // a known account that is not an alias; the parameter in the query string
      const again = await server.fetch("/api/ext/aliases?alias=carol@remote.example", { method: "DELETE", headers: bearer(u.token) });
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({ error: "Account has no such alias." });
    });

    test("an unknown account: 404; no alias: 400", async () => {
      const u = await user("al_errors");
      const res = await server.fetch("/api/ext/aliases", { method: "PUT", json: { alias: "ghost@nowhere.example" }, headers: bearer(u.token) });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Target account does not exist." });
      const del = await server.fetch("/api/ext/aliases", { method: "DELETE", json: { alias: "ghost" }, headers: bearer(u.token) });
      expect(del.status).toBe(404);
      expect(await del.json()).toEqual({ error: "Target account does not exist." });
      const missing = await server.fetch("/api/ext/aliases", { method: "PUT", json: {}, headers: bearer(u.token) });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toBe("Missing field: alias.");
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.alsoKnownAs).toEqual([]);
    });
  });

  describe("notification_settings", () => {
    test("each setting changes alone; JSON, form and multipart bodies", async () => {
      const u = await user("ns_user");
      const stored = async () => (await db.account.findUnique({ where: { id: u.account.id } }))!.notificationSettings;
      expect(await stored()).toEqual({ block_from_strangers: false, hide_notification_contents: false });

      const json = await server.fetch("/api/ext/notification_settings", { method: "PUT", json: { block_from_strangers: true }, headers: bearer(u.token) });
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual({ status: "success" });
      expect(await stored()).toEqual({ block_from_strangers: true, hide_notification_contents: false });

      const form = await server.fetch("/api/v1/ext/notification_settings", { method: "PUT", form: { hide_notification_contents: "true" }, headers: bearer(u.token) });
      expect(await form.json()).toEqual({ status: "success" });
      expect(await stored()).toEqual({ block_from_strangers: true, hide_notification_contents: true });

      const fd = new FormData();
      fd.set("block_from_strangers", "false");
      await server.fetch("/api/ext/notification_settings", { method: "PUT", body: fd, headers: bearer(u.token) });
      expect(await stored()).toEqual({ block_from_strangers: false, hide_notification_contents: true });
    });

    test("a value that is not a boolean: 400 in the family's validator shape", async () => {
      const u = await user("ns_bad");
      const res = await server.fetch("/api/ext/notification_settings", { method: "PUT", json: { block_from_strangers: "maybe" }, headers: bearer(u.token) });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toMatch(/^block_from_strangers/);
      expect(body.errors[0]).toMatchObject({ title: "Invalid value", source: { pointer: "/block_from_strangers" } });
      expect((await db.account.findUnique({ where: { id: u.account.id } }))!.notificationSettings).toEqual({ block_from_strangers: false, hide_notification_contents: false });
    });
  });
});
