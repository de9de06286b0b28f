// Admin API, users: a user's statuses (godmode, reblogs, paging), e-mail confirmation, password reset
// links, forced password resets (and the sign-in they block), MFA, and credentials read and edit.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { mailsTo } from "../support/mailbox.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, registerApp } from "../support/server.ts";
import { adminFixture, BASE, LEGACY, type AdminFixture } from "./admin-users-helpers.ts";

describe.each(suiteKinds(import.meta.url))("admin users' statuses and credentials on %s", (kind) => {
  let f: AdminFixture;
  const json = async (res: Response) => ({ status: res.status, body: res.status === 204 ? await res.text() : await res.json() });
  const grant = async (username: string, password: string) => {
    const app = await registerApp(f.server);
    return f.server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password } });
  };

  beforeAll(async () => {
    f = await adminFixture(kind);
  });
  afterAll(() => f?.server.close());

  describe("GET /users/:nickname_or_id/statuses", () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      await f.server.createUser("poster");
      await f.server.createUser("other");
      const token = (await passwordToken(f.server, "poster")).access_token;
      const otherToken = (await passwordToken(f.server, "other")).access_token;
      const post = async (status: string, visibility: string, t = token) => {
        const res = await f.server.fetch("/api/v1/statuses", { json: { status, visibility }, headers: { authorization: `Bearer ${t}` } });
        return (await res.json()).id as string;
      };
      ids = {
        public: await post("public one", "public"),
        unlisted: await post("unlisted one", "unlisted"),
        private: await post("private one", "private"),
        direct: await post("direct one @other", "direct"),
      };
      const theirs = await post("someone else's", "public", otherToken);
      const reblog = await f.server.fetch(`/api/v1/statuses/${theirs}/reblog`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      ids.reblog = (await reblog.json()).id;
    });

    const list = async (qs = "", who = "poster") => json(await f.call("GET", `/users/${who}/statuses${qs}`));

    test("without godmode: public and unlisted only, no reblogs, newest first", async () => {
      const { status, body } = await list();
      expect(status).toBe(200);
      expect(body.total).toBe(2);
      expect(body.activities.map((s: any) => s.id)).toEqual([ids.unlisted, ids.public]);
      // Status entities
      expect(body.activities[1]).toMatchObject({ id: ids.public, visibility: "public", account: { acct: "poster" }, content: expect.stringContaining("public one") });
    });

    test("godmode adds private and direct; with_reblogs adds reblogs", async () => {
      const god = await list("?godmode=true");
      expect(god.body.total).toBe(4);
      expect(god.body.activities.map((s: any) => s.visibility)).toEqual(["direct", "private", "unlisted", "public"]);
      const all = await list("?godmode=true&with_reblogs=true");
      expect(all.body.total).toBe(5);
      expect(all.body.activities[0]).toMatchObject({ id: ids.reblog, reblog: { content: expect.stringContaining("someone else") } });
    });

    test("page and page_size (default 20), by id too; unknown user 404; moderators lack messages_read", async () => {
      const poster = await f.db.account.findUniqueOrThrow({ where: { nickname: "poster" } });
      const page2 = await list("?godmode=true&page_size=3&page=2", poster.id);
      expect(page2.body).toMatchObject({ total: 4 });
      expect(page2.body.activities.map((s: any) => s.id)).toEqual([ids.public]);
      for (let i = 0; i < 22; i++) {
        await f.db.status.create({ data: { id: newId(), uri: `${BASE}/objects/bulk-${i}`, accountId: poster.id, context: `ctx-${i}`, content: `bulk ${i}` } });
      }
      const first = await list();
      expect(first.body.total).toBe(24);
      expect(first.body.activities).toHaveLength(20);
      expect(await list("", "ghost")).toEqual({ status: 404, body: { error: "Not found" } });
      // moderators hold messages_delete and reports_manage_reports by default, not messages_read
      expect(await json(await f.call("GET", "/users/poster/statuses", { token: f.tokens.moderator }))).toEqual({ status: 403, body: { error: "User isn't privileged." } });
    });
  });

  describe("e-mail confirmation", () => {
    test("confirm_email clears confirmation_pending and answers the nicknames", async () => {
      await f.db.account.createMany({
        data: ["conf_a", "conf_b"].map((n) => ({ id: newId(), nickname: n, apId: `${BASE}/users/${n}`, email: `${n}@example.test`, confirmationPending: true })),
      });
      const res = await f.call("PATCH", "/users/confirm_email", { body: { nicknames: ["conf_a", "conf_b"] } });
      expect(await json(res)).toEqual({ status: 200, body: ["conf_a", "conf_b"] });
      expect(await f.db.account.count({ where: { nickname: { in: ["conf_a", "conf_b"] }, confirmationPending: false } })).toBe(2);
      expect(await f.messages()).toEqual(["@root confirmed email for users: @conf_a, @conf_b"]);
      expect((await f.call("PATCH", "/users/confirm_email", { token: f.tokens.moderator, body: { nicknames: ["conf_a"] } })).status).toBe(403);
    });

    test("resend_confirmation_email mails those still unconfirmed", async () => {
      await f.db.account.create({ data: { id: newId(), nickname: "resend_me", apId: `${BASE}/users/resend_me`, email: "resend_me@example.test", confirmationPending: true } });
      await f.server.createUser("resend_done");
      const res = await f.call("PATCH", "/users/resend_confirmation_email", { body: { nicknames: ["resend_me", "resend_done"] } });
      expect(await json(res)).toEqual({ status: 200, body: ["resend_me", "resend_done"] });
      const [mail] = mailsTo(f.server.dataDir, "resend_me@example.test");
      expect(mail?.decoded).toContain("/api/account/confirm_email/");
      expect(mailsTo(f.server.dataDir, "resend_done@example.test")).toHaveLength(0);
      expect(await f.messages()).toEqual(["@root re-sent confirmation email for users: @resend_me, @resend_done"]);
    });
  });

  describe("passwords", () => {
    test("password_reset gives a working token and link, for local users only", async () => {
      await f.server.createUser("forgetful");
      const res = await json(await f.call("GET", "/users/forgetful/password_reset"));
      expect(res.status).toBe(200);
      expect(res.body.link).toBe(`${BASE}/api/v1/ext/password_reset/${res.body.token}`);
      const form = await f.server.fetch(`/api/v1/ext/password_reset/${res.body.token}`);
      expect(form.status).toBe(200);
      const done = await f.server.fetch("/api/v1/ext/password_reset", {
        json: { token: res.body.token, password: "brand-new", password_confirmation: "brand-new" },
        headers: { accept: "application/json" },
      });
      expect(done.status).toBe(200);
      expect((await grant("forgetful", "brand-new")).status).toBe(200);

      await f.remoteUser("faraway");
      expect(await json(await f.call("GET", "/users/faraway@remote.example/password_reset"))).toEqual({ status: 404, body: { error: "Not found" } });
      expect(await json(await f.call("GET", "/users/ghost/password_reset"))).toEqual({ status: 404, body: { error: "Not found" } });
    });

    test("force_password_reset: 204, logged, and sign-in is refused until the password is reset", async () => {
      await f.server.createUser("forced", { password: "old-password" });
      expect((await grant("forced", "old-password")).status).toBe(200);
      const res = await f.call("PATCH", "/users/force_password_reset", { body: { nicknames: ["forced"] } });
      expect(await json(res)).toEqual({ status: 204, body: "" });
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "forced" } })).passwordResetPending).toBe(true);
      expect(await f.messages()).toEqual(["@root forced password reset for users: @forced"]);

      const refused = await grant("forced", "old-password");
      expect(await json(refused)).toEqual({ status: 403, body: { error: "Password reset is required" } });

      // the user resets it through a reset link, and may sign in again
      const { body } = await json(await f.call("GET", "/users/forced/password_reset"));
      const reset = await f.server.fetch("/api/v1/ext/password_reset", {
        json: { token: body.token, password: "new-password", password_confirmation: "new-password" },
        headers: { accept: "application/json" },
      });
      expect(reset.status).toBe(200);
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "forced" } })).passwordResetPending).toBe(false);
      expect((await grant("forced", "new-password")).status).toBe(200);
    });

    test("disable_mfa clears the secret and backup codes and answers the nickname", async () => {
      const u = await f.server.createUser("mfa_user");
      await f.db.account.update({ where: { id: u.id }, data: { mfaEnabled: true, mfaTotpSecret: "JBSWY3DPEHPK3PXP", mfaBackupCodes: ["h1", "h2"] } });
      expect(await json(await f.call("PUT", "/users/disable_mfa", { body: { nickname: "mfa_user" } }))).toEqual({ status: 200, body: "mfa_user" });
      expect(await f.db.account.findUniqueOrThrow({ where: { id: u.id } })).toMatchObject({ mfaEnabled: false, mfaTotpSecret: null, mfaBackupCodes: [] });
      expect(await json(await f.call("PUT", "/users/disable_mfa", { body: { nickname: "ghost" } }))).toEqual({ status: 404, body: { error: "Not found" } });
      expect((await f.call("PUT", "/users/disable_mfa", { token: f.tokens.moderator, body: { nickname: "mfa_user" } })).status).toBe(403);
    });
  });

  describe("credentials", () => {
    test("GET answers the credentials object", async () => {
      const u = await f.server.createUser("cred_get");
      await f.db.account.update({ where: { id: u.id }, data: { displayName: "Cred Get", note: "hello", fields: [{ name: "site", value: "a <b>" }], locked: true, settingsStore: { fe: { x: 1 } } } });
      const res = await json(await f.call("GET", "/users/cred_get/credentials", { prefix: LEGACY }));
      expect(res).toEqual({
        status: 200,
        body: {
          id: u.id,
          nickname: "cred_get",
          email: "cred_get@example.test",
          name: "Cred Get",
          bio: "hello",
          avatar: `${BASE}/images/avi.png`,
          banner: `${BASE}/images/banner.png`,
          background: null,
          actor_type: "Person",
          allow_following_move: true,
          default_scope: "public",
          discoverable: true,
          fields: [{ name: "site", value: "a &#60;b&#62;" }],
          raw_fields: [{ id: 0, name: "site", value: "a <b>" }],
          hide_favorites: true,
          hide_followers: false,
          hide_followers_count: false,
          hide_follows: false,
          hide_follows_count: false,
          locked: true,
          no_rich_text: false,
          ext_settings_store: { fe: { x: 1 } },
          show_role: true,
          skip_thread_containment: false,
        },
      });
      expect(await json(await f.call("GET", "/users/ghost/credentials"))).toEqual({ status: 404, body: { error: "Not found" } });
      expect((await f.call("GET", "/users/cred_get/credentials", { token: f.tokens.moderator })).status).toBe(403);
    });

    test("PATCH edits the profile: {status: success}, logged as updated_users", async () => {
      await f.server.createUser("cred_edit");
      const res = await f.call("PATCH", "/users/cred_edit/credentials", {
        body: { name: "Edited", bio: "new bio", email: "edited@example.test", actor_type: "Service", locked: "true", is_discoverable: false, fields: [{ name: "a", value: "b" }], banner: "https://img.example/b.png" },
      });
      expect(await json(res)).toEqual({ status: 200, body: { status: "success" } });
      expect(await f.db.account.findUniqueOrThrow({ where: { nickname: "cred_edit" } })).toMatchObject({
        displayName: "Edited",
        note: "new bio",
        email: "edited@example.test",
        actorType: "Service",
        locked: true,
        discoverable: false,
        fields: [{ name: "a", value: "b" }],
        header: "https://img.example/b.png",
        passwordResetPending: false,
      });
      expect(await f.messages(2)).toEqual(["@root updated users: @cred_edit", expect.not.stringContaining("cred_edit")]);
    });

    test("a new password signs the user out, must be changed at next sign-in, and logs force_password_reset too", async () => {
      await f.server.createUser("cred_pw", { password: "before-pw" });
      const { access_token } = await passwordToken(f.server, "cred_pw", "read", "before-pw");
      const res = await f.call("PATCH", "/users/cred_pw/credentials", { body: { password: "after-pw" } });
      expect(await json(res)).toEqual({ status: 200, body: { status: "success" } });
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "cred_pw" } })).passwordResetPending).toBe(true);
      expect((await f.server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(401);
      expect(await json(await grant("cred_pw", "after-pw"))).toEqual({ status: 403, body: { error: "Password reset is required" } });
      expect(await f.messages(2)).toEqual(["@root forced password reset for users: @cred_pw", "@root updated users: @cred_pw"]);
    });

    test("invalid values: 400 {errors: {field: message}}, nothing changes; unknown user 404", async () => {
      await f.server.createUser("cred_bad");
      const before = await f.db.moderationLogEntry.count();
      const badType = await f.call("PATCH", "/users/cred_bad/credentials", { body: { actor_type: "Application", name: "Nope" } });
      expect(await json(badType)).toEqual({ status: 400, body: { errors: { actor_type: "is invalid" } } });
      const badEmail = await f.call("PATCH", "/users/cred_bad/credentials", { body: { email: "not-an-address" } });
      expect(await json(badEmail)).toEqual({ status: 400, body: { errors: { email: "has invalid format" } } });
      const taken = await f.call("PATCH", "/users/cred_bad/credentials", { body: { email: "root@example.test", actor_type: "Robot" } });
      expect(await json(taken)).toEqual({ status: 400, body: { errors: { email: "has already been taken", actor_type: "is invalid" } } });
      expect(await f.db.account.findUniqueOrThrow({ where: { nickname: "cred_bad" } })).toMatchObject({ displayName: "", email: "cred_bad@example.test", actorType: "Person" });
      expect(await f.db.moderationLogEntry.count()).toBe(before);
      expect(await json(await f.call("PATCH", "/users/ghost/credentials", { body: { name: "x" } }))).toEqual({ status: 404, body: { error: "Not found" } });
    });
  });
});
