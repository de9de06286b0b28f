// Admin API, users: listing and lookup, creation, deletion (and its job), forced follows, activation,
// approval, suggestions, tags and permission groups — bodies, database state, moderation-log
// messages, and who is refused.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken } from "../support/server.ts";
import { ADMIN_TOKEN, adminFixture, BASE, LEGACY, V1, waitForDeleteJob, type AdminFixture } from "./admin-users-helpers.ts";

describe.each(suiteKinds(import.meta.url))("admin users on %s", (kind) => {
  let f: AdminFixture;
  const json = async (res: Response) => ({ status: res.status, body: res.status === 204 ? await res.text() : await res.json() });

  beforeAll(async () => {
    f = await adminFixture(kind);
  });
  afterAll(() => f?.server.close());

  describe("who may call", () => {
    test("anonymous, plain users, moderators without the privilege and under-scoped tokens are refused", async () => {
      expect(await json(await f.call("GET", "/users", { token: null }))).toEqual({ status: 403, body: { error: "Invalid credentials." } });
      expect(await json(await f.call("GET", "/users", { token: f.tokens.plain }))).toEqual({ status: 403, body: { error: "User is not a staff member." } });
      // moderators hold messages_delete and reports_manage_reports by default, not users_read
      expect(await json(await f.call("GET", "/users", { token: f.tokens.moderator }))).toEqual({ status: 403, body: { error: "User isn't privileged." } });
      expect(await json(await f.call("GET", "/users/root", { token: f.tokens.moderator }))).toEqual({ status: 403, body: { error: "User isn't privileged." } });
      // admin-only routes
      expect(await json(await f.call("POST", "/users/follow", { token: f.tokens.moderator, body: { follower: "mod", followed: "root" } }))).toEqual({
        status: 403,
        body: { error: "User is not an admin." },
      });
      expect(await json(await f.call("GET", "/users/plain/permission_group", { token: f.tokens.plain }))).toEqual({ status: 403, body: { error: "User is not an admin." } });
      const readOnly = (await passwordToken(f.server, "root", "read write")).access_token;
      expect(await json(await f.call("GET", "/users", { token: readOnly }))).toEqual({ status: 403, body: { error: "Insufficient permissions: admin:read:accounts." } });
      // a staff user whose role lost the privilege (runtime list) is refused even as admin
      expect(f.server.services.config.get("instance", "admin_privileges")).toContain("users_read");
    });

    test("a moderator granted users_read by the runtime setting may list", async () => {
      const list = f.server.services.config.get("instance", "moderator_privileges");
      list.push("users_read");
      try {
        expect((await f.call("GET", "/users", { token: f.tokens.moderator })).status).toBe(200);
      } finally {
        list.pop();
      }
    });

    test("the admin token acts as an admin (header or query), a wrong one is refused", async () => {
      const byHeader = await f.call("GET", "/users?filters=is_admin", { token: null, headers: { "x-admin-token": ADMIN_TOKEN } });
      expect(byHeader.status).toBe(200);
      expect((await byHeader.json()).users.map((u: any) => u.nickname)).toEqual(["root"]);
      const byQuery = await f.call("GET", `/users/root?admin_token=${ADMIN_TOKEN}`, { token: null });
      expect(byQuery.status).toBe(200);
      expect((await f.call("GET", "/users?admin_token=wrong", { token: null })).status).toBe(401);
      // its actions are logged under its own name
      const res = await f.call("PATCH", "/users/suggest", { token: null, headers: { "x-admin-token": ADMIN_TOKEN }, body: { nicknames: ["plain"] } });
      expect(res.status).toBe(200);
      expect(await f.messages()).toEqual(["@admin_token added suggested users: @plain"]);
      await f.call("PATCH", "/users/unsuggest", { body: { nicknames: ["plain"] } });
    });

    test("both prefixes answer the same", async () => {
      const a = await (await f.call("GET", "/users?filters=is_moderator")).json();
      const b = await (await f.call("GET", "/users?filters=is_moderator", { prefix: LEGACY })).json();
      expect(a).toEqual(b);
      expect(a.users.map((u: any) => u.nickname)).toEqual(["mod"]);
      const one = await f.call("GET", "/users/mod", { prefix: LEGACY });
      expect((await one.json()).nickname).toBe("mod");
    });
  });

  describe("GET /users", () => {
    beforeAll(async () => {
      for (let i = 0; i < 53; i++) await f.db.account.create({ data: { id: newId(), nickname: `bulk${String(i).padStart(2, "0")}`, apId: `${BASE}/users/bulk${i}` } });
      const mk = (nickname: string, data: Record<string, unknown>) => f.db.account.create({ data: { id: newId(), nickname, apId: `${BASE}/users/${nickname}`, ...data } });
      await mk("lst_pending", { approvalPending: true, registrationReason: "let me in", displayName: "Waiting Walter", email: "walter@example.test" });
      await mk("lst_unconf", { confirmationPending: true, tags: ["mrf_tag:media-strip"] });
      await mk("lst_off", { deactivated: true, actorType: "Service", tags: ["x"] });
      await f.remoteUser("lst_far", "far.example");
    });

    test("pages of 50 by default, ordered by nickname, with the real count past the end", async () => {
      const first = await (await f.call("GET", "/users?query=bulk")).json();
      expect(first.page_size).toBe(50);
      expect(first.count).toBe(53);
      expect(first.users).toHaveLength(50);
      expect(first.users[0].nickname).toBe("bulk00");
      const second = await (await f.call("GET", "/users?query=bulk&page=2")).json();
      expect(second.users.map((u: any) => u.nickname)).toEqual(["bulk50", "bulk51", "bulk52"]);
      const past = await (await f.call("GET", "/users?query=bulk&page=9&page_size=10")).json();
      expect(past).toEqual({ page_size: 10, count: 53, users: [] });
    });

    test("the user object carries the fields of both variants", async () => {
      const { users } = await (await f.call("GET", "/users?query=lst_pending")).json();
      const row = await f.db.account.findUniqueOrThrow({ where: { nickname: "lst_pending" } });
      expect(users).toEqual([
        {
          id: row.id,
          nickname: "lst_pending",
          email: "walter@example.test",
          avatar: `${BASE}/images/avi.png`,
          display_name: "Waiting Walter",
          deactivated: false,
          is_active: true,
          local: true,
          domain: null,
          roles: { admin: false, moderator: false },
          tags: [],
          confirmation_pending: false,
          is_confirmed: true,
          approval_pending: true,
          is_approved: false,
          is_suggested: false,
          url: `${BASE}/users/lst_pending`,
          registration_reason: "let me in",
          actor_type: "Person",
          created_at: row.createdAt.toISOString(),
        },
      ]);
    });

    const nicks = async (qs: string) => ((await (await f.call("GET", `/users?${qs}`)).json()).users as any[]).map((u) => u.nickname).filter((n: string) => !n.startsWith("bulk"));

    test("every filter, alone and combined", async () => {
      expect(await nicks("filters=need_approval")).toEqual(["lst_pending"]);
      expect(await nicks("filters=unconfirmed")).toEqual(["lst_unconf"]);
      expect(await nicks("filters=deactivated")).toEqual(["lst_off"]);
      expect(await nicks("filters=external")).toEqual(["lst_far@far.example"]);
      expect(await nicks("filters=is_admin")).toEqual(["root"]);
      expect(await nicks("filters=is_moderator")).toEqual(["mod"]);
      // active: not deactivated, approved and confirmed
      const active = await nicks("filters=active&page_size=500");
      expect(active).toEqual(expect.arrayContaining(["root", "mod", "plain"]));
      expect(active).not.toContain("lst_pending");
      expect(active).not.toContain("lst_unconf");
      expect(active).not.toContain("lst_off");
      const local = await nicks("filters=local&page_size=500");
      expect(local).toContain("lst_off");
      expect(local).not.toContain("lst_far@far.example");
      // combined: all must hold
      expect(await nicks("filters=local,deactivated")).toEqual(["lst_off"]);
      expect(await nicks("filters=external,deactivated")).toEqual([]);
      expect(await nicks("filters=is_admin,active")).toEqual(["root"]);
      expect(await nicks("filters=local,external")).toEqual([]);
      // unknown filter words are ignored
      expect(await nicks("filters=deactivated,bogus")).toEqual(["lst_off"]);
    });

    test("query, name, email, tags and actor_types", async () => {
      expect(await nicks("query=far.example")).toEqual(["lst_far@far.example"]);
      expect(await nicks("query=lst_far@far")).toEqual(["lst_far@far.example"]);
      expect(await nicks("query=walter")).toEqual(["lst_pending"]);
      expect(await nicks("name=waiting")).toEqual(["lst_pending"]);
      expect(await nicks("email=walter@example.test")).toEqual(["lst_pending"]);
      expect(await nicks("tags[]=x&tags[]=mrf_tag:media-strip")).toEqual(["lst_off", "lst_unconf"]);
      expect(await nicks("actor_types[]=Service")).toEqual(["lst_off"]);
      expect(await nicks("actor_types[]=Service&filters=local&tags[]=x")).toEqual(["lst_off"]);
      // LIKE wildcards are literal
      expect(await nicks("query=%25")).toEqual([]);
    });
  });

  describe("GET /users/:nickname_or_id", () => {
    test("by nickname, by id, by nickname@our-domain; unknown is 404 {error: Not found}", async () => {
      const mod = await f.db.account.findUniqueOrThrow({ where: { nickname: "mod" } });
      for (const key of ["mod", mod.id, `mod@${f.server.services.settings.domain}`]) {
        const res = await f.call("GET", `/users/${key}`);
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ id: mod.id, nickname: "mod", roles: { admin: false, moderator: true } });
      }
      expect(await json(await f.call("GET", "/users/nobody"))).toEqual({ status: 404, body: { error: "Not found" } });
    });
  });

  describe("POST /users", () => {
    test("creates confirmed local users and logs them", async () => {
      const res = await f.call("POST", "/users", {
        body: { users: [{ nickname: "new_a", email: "new_a@example.test", password: "pw-a" }, { nickname: "new_b", email: "new_b@example.test", password: "pw-b" }] },
      });
      expect(await json(res)).toEqual({
        status: 200,
        body: [
          { code: 200, type: "success", data: { nickname: "new_a", email: "new_a@example.test" } },
          { code: 200, type: "success", data: { nickname: "new_b", email: "new_b@example.test" } },
        ],
      });
      const a = await f.db.account.findUniqueOrThrow({ where: { nickname: "new_a" } });
      expect(a).toMatchObject({ local: true, email: "new_a@example.test", confirmationPending: false, approvalPending: false, apId: `${BASE}/users/new_a` });
      expect(await f.messages()).toEqual(["@root created users: @new_a, @new_b"]);
      // they can sign in
      expect((await passwordToken(f.server, "new_b", "read", "pw-b")).access_token).toBeTruthy();
    });

    test("an address without a dot in its domain (admin@localhost) is accepted, as the family accepts it; a malformed one is not", async () => {
      const res = await f.call("POST", "/users", { body: { users: [{ nickname: "localadmin", email: "admin@localhost", password: "pw-l" }] } });
      expect(await json(res)).toEqual({ status: 200, body: [{ code: 200, type: "success", data: { nickname: "localadmin", email: "admin@localhost" } }] });
      expect(await f.db.account.findUniqueOrThrow({ where: { nickname: "localadmin" } })).toMatchObject({ email: "admin@localhost" });
      const bad = await f.call("POST", "/users", { body: { users: [{ nickname: "badmail", email: "admin@", password: "pw" }] } });
      expect(bad.status).not.toBe(200);
      expect(await f.db.account.findUnique({ where: { nickname: "badmail" } })).toBeNull();
    });

    test("a taken e-mail: 409 with the family's body, and none of the batch is created", async () => {
      const before = await f.db.moderationLogEntry.count();
      const res = await f.call("POST", "/users", {
        body: { users: [{ nickname: "tx_first", email: "tx_first@example.test", password: "pw" }, { nickname: "tx_second", email: "root@example.test", password: "pw" }] },
      });
      expect(await json(res)).toEqual({
        status: 409,
        body: [
          { code: 409, type: "error", data: { nickname: "tx_first", email: "tx_first@example.test" }, error: "" },
          { code: 409, type: "error", data: { nickname: "tx_second", email: "root@example.test" }, error: "email has already been taken" },
        ],
      });
      expect(await f.db.account.count({ where: { nickname: { in: ["tx_first", "tx_second"] } } })).toBe(0);
      expect(await f.db.moderationLogEntry.count()).toBe(before);
    });

    test("a taken nickname, or one repeated within the batch, is 409 too", async () => {
      const taken = await json(await f.call("POST", "/users", { body: { users: [{ nickname: "plain", email: "other@example.test", password: "pw" }] } }));
      expect(taken.status).toBe(409);
      expect(taken.body[0].error).toBe("nickname has already been taken");
      const twice = await json(
        await f.call("POST", "/users", {
          body: { users: [{ nickname: "dup_x", email: "dup1@example.test", password: "pw" }, { nickname: "DUP_X", email: "dup2@example.test", password: "pw" }] },
        }),
      );
      expect(twice.status).toBe(409);
      expect(twice.body.map((i: any) => i.error)).toEqual(["", "nickname has already been taken"]);
      expect(await f.db.account.count({ where: { nickname: { in: ["dup_x", "DUP_X"] } } })).toBe(0);
    });

    test("moderators may not create users", async () => {
      const res = await f.call("POST", "/users", { token: f.tokens.moderator, body: { users: [{ nickname: "nope", email: "nope@example.test", password: "pw" }] } });
      expect(await json(res)).toEqual({ status: 403, body: { error: "User is not an admin." } });
    });
  });

  describe("DELETE /users", () => {
    test("deactivates at once, logs, and the job then removes the user's data", async () => {
      const victim = await f.server.createUser("del_a");
      const friend = await f.server.createUser("del_friend");
      const { access_token } = await passwordToken(f.server, "del_a");
      const posted = await f.server.fetch("/api/v1/statuses", { json: { status: "soon gone" }, headers: { authorization: `Bearer ${access_token}` } });
      expect(posted.status).toBe(200);
      await f.db.follow.create({ data: { id: newId(), followerId: victim.id, followingId: friend.id, state: "accept" } });
      await f.db.account.update({ where: { id: victim.id }, data: { displayName: "Del A", note: "bio" } });

      expect(await (await f.server.fetch(`/api/v1/accounts/${victim.id}/statuses`)).json()).toHaveLength(1);

      const res = await f.call("DELETE", "/users", { body: { nicknames: ["del_a"] } });
      expect(await json(res)).toEqual({ status: 200, body: ["del_a"] });
      expect((await f.db.account.findUniqueOrThrow({ where: { id: victim.id } })).deactivated).toBe(true);
      expect((await f.server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(401);
      expect(await f.messages()).toEqual(["@root deleted users: @del_a"]);

      expect((await waitForDeleteJob(f.db, victim.id)).state).toBe("done");
      expect(await f.db.account.findUniqueOrThrow({ where: { id: victim.id } })).toMatchObject({ deactivated: true, displayName: "", note: "", email: null, passwordHash: null });
      expect(await f.db.follow.count({ where: { followerId: victim.id } })).toBe(0);
      expect(await f.db.oAuthToken.count({ where: { accountId: victim.id } })).toBe(0);
      // its content is gone from the database, not just hidden
      expect(await f.db.status.count({ where: { accountId: victim.id } })).toBe(0);
      const shown = await f.server.fetch(`/api/v1/accounts/${victim.id}/statuses`);
      expect(await json(shown)).toEqual({ status: 200, body: [] });
    });

    test("the deprecated form (nickname) answers the nickname; unknown users are 404", async () => {
      const u = await f.server.createUser("del_b");
      const res = await f.server.fetch(`${V1}/users?nickname=del_b`, { method: "DELETE", headers: { authorization: `Bearer ${f.tokens.admin}` } });
      expect(await json(res)).toEqual({ status: 200, body: "del_b" });
      expect((await f.db.account.findUniqueOrThrow({ where: { id: u.id } })).deactivated).toBe(true);
      expect(await f.messages()).toEqual(["@root deleted users: @del_b"]);
      expect(await json(await f.call("DELETE", "/users", { body: { nicknames: ["ghost"] } }))).toEqual({ status: 404, body: { error: "Not found" } });
      expect((await f.call("DELETE", "/users", { token: f.tokens.moderator, body: { nicknames: ["plain"] } })).status).toBe(403);
    });
  });

  describe("follow and unfollow", () => {
    test("the follower follows under the ordinary rules; both are logged", async () => {
      const a = await f.server.createUser("fol_a");
      const b = await f.server.createUser("fol_b");
      expect(await json(await f.call("POST", "/users/follow", { body: { follower: "fol_a", followed: "fol_b" } }))).toEqual({ status: 200, body: "ok" });
      expect(await f.db.follow.findFirst({ where: { followerId: a.id, followingId: b.id } })).toMatchObject({ state: "accept" });
      expect(await f.messages()).toEqual(["@root made @fol_a follow @fol_b"]);
      // the follow notified the followed account, as any follow does
      expect(await f.db.notification.count({ where: { accountId: b.id, type: "follow" } })).toBe(1);

      expect(await json(await f.call("POST", "/users/unfollow", { body: { follower: "fol_a", followed: "fol_b" } }))).toEqual({ status: 200, body: "ok" });
      expect(await f.db.follow.count({ where: { followerId: a.id, followingId: b.id } })).toBe(0);
      expect(await f.messages()).toEqual(["@root made @fol_a unfollow @fol_b"]);
    });

    test("a locked account gets a request; blocks refuse; unknown users are 404", async () => {
      const a = await f.server.createUser("fol_c");
      const locked = await f.server.createUser("fol_locked");
      await f.db.account.update({ where: { id: locked.id }, data: { locked: true } });
      await f.call("POST", "/users/follow", { body: { follower: "fol_c", followed: "fol_locked" } });
      expect(await f.db.follow.findFirst({ where: { followerId: a.id, followingId: locked.id } })).toMatchObject({ state: "pending" });
      await f.db.userRelationship.create({ data: { id: newId(), sourceId: locked.id, targetId: a.id, type: "block" } });
      const blocked = await json(await f.call("POST", "/users/follow", { body: { follower: "fol_c", followed: "fol_locked" } }));
      expect(blocked).toEqual({ status: 403, body: { error: "Could not follow user: fol_locked blocked you." } });
      expect(await json(await f.call("POST", "/users/follow", { body: { follower: "fol_c", followed: "ghost" } }))).toEqual({ status: 404, body: { error: "Not found" } });
    });
  });

  describe("activation, approval, suggestions", () => {
    test("deactivate and activate answer {users} and log", async () => {
      await f.server.createUser("act_a");
      await f.server.createUser("act_b");
      const off = await json(await f.call("PATCH", "/users/deactivate", { body: { nicknames: ["act_a", "act_b"] } }));
      expect(off.status).toBe(200);
      expect(off.body.users.map((u: any) => [u.nickname, u.deactivated, u.is_active])).toEqual([
        ["act_a", true, false],
        ["act_b", true, false],
      ]);
      expect(await f.db.account.count({ where: { nickname: { in: ["act_a", "act_b"] }, deactivated: true } })).toBe(2);
      expect(await f.messages()).toEqual(["@root deactivated users: @act_a, @act_b"]);
      const on = await json(await f.call("PATCH", "/users/activate", { body: { nicknames: ["act_a"] } }));
      expect(on.body.users.map((u: any) => u.is_active)).toEqual([true]);
      expect(await f.messages()).toEqual(["@root activated users: @act_a"]);
      expect(await json(await f.call("PATCH", "/users/activate", { body: { nicknames: ["act_a", "ghost"] } }))).toEqual({ status: 404, body: { error: "Not found" } });
    });

    test("toggle_activation flips and answers the user", async () => {
      const u = await f.server.createUser("tog");
      const first = await json(await f.call("PATCH", "/users/tog/toggle_activation"));
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ id: u.id, nickname: "tog", deactivated: true, is_active: false });
      expect(await f.messages()).toEqual(["@root deactivated users: @tog"]);
      const second = await json(await f.call("PATCH", "/users/tog/toggle_activation", { prefix: LEGACY }));
      expect(second.body).toMatchObject({ deactivated: false });
      expect(await f.messages()).toEqual(["@root activated users: @tog"]);
      expect((await f.call("PATCH", "/users/ghost/toggle_activation")).status).toBe(404);
      expect((await f.call("PATCH", "/users/tog/toggle_activation", { token: f.tokens.moderator })).status).toBe(403);
    });

    test("approve clears approval_pending", async () => {
      await f.db.account.create({ data: { id: newId(), nickname: "appr", apId: `${BASE}/users/appr`, approvalPending: true } });
      const res = await json(await f.call("PATCH", "/users/approve", { body: { nicknames: ["appr"] } }));
      expect(res.body.users[0]).toMatchObject({ nickname: "appr", approval_pending: false, is_approved: true });
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "appr" } })).approvalPending).toBe(false);
      expect(await f.messages()).toEqual(["@root approved users: @appr"]);
    });

    test("suggest and unsuggest", async () => {
      await f.server.createUser("sug");
      const on = await json(await f.call("PATCH", "/users/suggest", { body: { nicknames: ["sug"] } }));
      expect(on.body.users[0]).toMatchObject({ nickname: "sug", is_suggested: true });
      expect(await f.messages()).toEqual(["@root added suggested users: @sug"]);
      const off = await json(await f.call("PATCH", "/users/unsuggest", { body: { nicknames: ["sug"] } }));
      expect(off.body.users[0].is_suggested).toBe(false);
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "sug" } })).isSuggested).toBe(false);
      expect(await f.messages()).toEqual(["@root removed suggested users: @sug"]);
      expect(await json(await f.call("PATCH", "/users/suggest", { token: f.tokens.moderator, body: { nicknames: ["sug"] } }))).toEqual({
        status: 403,
        body: { error: "User is not an admin." },
      });
    });
  });

  describe("tags", () => {
    test("PUT appends (query-string arrays), DELETE removes; 204 empty; others untouched", async () => {
      await f.db.account.create({ data: { id: newId(), nickname: "tag_a", apId: `${BASE}/users/tag_a`, tags: ["x"] } });
      await f.server.createUser("tag_b");
      await f.db.account.create({ data: { id: newId(), nickname: "tag_c", apId: `${BASE}/users/tag_c`, tags: ["x"] } });
      const put = await f.server.fetch(`${V1}/users/tag?nicknames[]=tag_a&nicknames[]=tag_b&tags[]=foo&tags[]=bar`, {
        method: "PUT",
        headers: { authorization: `Bearer ${f.tokens.admin}` },
      });
      expect(await json(put)).toEqual({ status: 204, body: "" });
      const tagsOf = async (n: string) => (await f.db.account.findUniqueOrThrow({ where: { nickname: n } })).tags;
      expect(await tagsOf("tag_a")).toEqual(["x", "foo", "bar"]);
      expect(await tagsOf("tag_b")).toEqual(["foo", "bar"]);
      expect(await tagsOf("tag_c")).toEqual(["x"]);
      expect(await f.messages()).toEqual(["@root added tags: foo, bar to users: @tag_a, @tag_b"]);

      const del = await f.call("DELETE", "/users/tag", { body: { nicknames: ["tag_a", "tag_b"], tags: ["x", "foo"] } });
      expect(await json(del)).toEqual({ status: 204, body: "" });
      expect(await tagsOf("tag_a")).toEqual(["bar"]);
      expect(await tagsOf("tag_b")).toEqual(["bar"]);
      expect(await tagsOf("tag_c")).toEqual(["x"]);
      expect(await f.messages()).toEqual(["@root removed tags: x, foo from users: @tag_a, @tag_b"]);
      expect((await f.call("PUT", "/users/tag", { token: f.tokens.moderator, body: { nicknames: ["tag_a"], tags: ["y"] } })).status).toBe(403);
    });
  });

  describe("permission groups", () => {
    test("GET both forms; another group is 404", async () => {
      expect(await json(await f.call("GET", "/users/mod/permission_group"))).toEqual({ status: 200, body: { is_moderator: true, is_admin: false } });
      expect(await json(await f.call("GET", "/users/root/permission_group/admin"))).toEqual({ status: 200, body: { is_moderator: false, is_admin: true } });
      expect(await json(await f.call("GET", "/users/root/permission_group/overlord"))).toEqual({ status: 404, body: { error: "No such permission_group" } });
      expect(await json(await f.call("GET", "/users/ghost/permission_group"))).toEqual({ status: 404, body: { error: "Not found" } });
    });

    test("grant and revoke, single and multiple forms, with their log entries", async () => {
      await f.server.createUser("pg_a");
      await f.server.createUser("pg_b");
      expect(await json(await f.call("POST", "/users/pg_a/permission_group/admin"))).toEqual({ status: 200, body: { is_admin: true } });
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "pg_a" } })).isAdmin).toBe(true);
      expect(await f.messages()).toEqual(["@root made @pg_a admin"]);

      const multi = await f.call("POST", "/users/permission_group/moderator", { body: { nicknames: ["pg_a", "pg_b"] } });
      expect(await json(multi)).toEqual({ status: 200, body: { is_moderator: true } });
      expect(await f.db.account.count({ where: { nickname: { in: ["pg_a", "pg_b"] }, isModerator: true } })).toBe(2);
      expect(await f.messages()).toEqual(["@root made @pg_a, @pg_b moderator"]);

      expect(await json(await f.call("DELETE", "/users/pg_a/permission_group/admin"))).toEqual({ status: 200, body: { is_admin: false } });
      expect(await f.messages()).toEqual(["@root revoked admin role from @pg_a"]);
      const revoke = await f.call("DELETE", "/users/permission_group/moderator", { body: { nicknames: ["pg_a", "pg_b"] } });
      expect(await json(revoke)).toEqual({ status: 200, body: { is_moderator: false } });
      expect(await f.db.account.count({ where: { nickname: { in: ["pg_a", "pg_b"] }, OR: [{ isModerator: true }, { isAdmin: true }] } })).toBe(0);
      expect(await f.messages()).toEqual(["@root revoked moderator role from @pg_a, @pg_b"]);

      expect(await json(await f.call("POST", "/users/pg_a/permission_group/overlord"))).toEqual({ status: 404, body: { error: "No such permission_group" } });
      expect(await json(await f.call("DELETE", "/users/permission_group/overlord", { body: { nicknames: ["pg_a"] } }))).toEqual({
        status: 404,
        body: { error: "No such permission_group" },
      });
    });

    test("an admin cannot revoke their own admin status, in either form", async () => {
      const before = await f.db.moderationLogEntry.count();
      const single = await f.call("DELETE", "/users/root/permission_group/admin");
      expect(await json(single)).toEqual({ status: 403, body: { error: "You can't revoke your own admin/moderator status." } });
      const multiple = await f.call("DELETE", "/users/permission_group/admin", { body: { nicknames: ["plain", "root"] }, prefix: LEGACY });
      expect(await json(multiple)).toEqual({ status: 403, body: { error: "You can't revoke your own admin/moderator status." } });
      expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "root" } })).isAdmin).toBe(true);
      expect(await f.db.moderationLogEntry.count()).toBe(before);
    });
  });
});
