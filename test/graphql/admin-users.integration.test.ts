// Admin users over GraphQL: the connection (filters, paging, totalCount), the guards (scope and
// privilege together), and the mutations running the REST operations (state and log messages).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken } from "../support/server.ts";
import { ADMIN_TOKEN, adminFixture, BASE, type AdminFixture } from "../rest/admin-users-helpers.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL admin users on %s", (kind) => {
  let f: AdminFixture;
  const gql = (query: string, variables?: Record<string, unknown>, token: string | null = f.tokens.admin) =>
    f.server.fetch("/graphql", { json: { query, variables }, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.json() as Promise<any>);

  beforeAll(async () => {
    f = await adminFixture(kind);
    for (const n of ["gq_a", "gq_b", "gq_c", "gq_d", "gq_e"]) await f.db.account.create({ data: { id: newId(), nickname: n, apId: `${BASE}/users/${n}`, email: `${n}@example.test` } });
    await f.db.account.update({ where: { nickname: "gq_c" }, data: { deactivated: true } });
  });
  afterAll(() => f?.server.close());

  const page = `query($after: String, $filters: [String!]) {
    adminUsers(query: "gq_", first: 2, after: $after, filters: $filters) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { nickname deactivated isAdmin email } }
    }
  }`;

  test("adminUsers pages a Relay connection in nickname order with the total", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 3; i++) {
      const r: any = await gql(page, { after });
      expect(r.errors).toBeUndefined();
      expect(r.data.adminUsers.totalCount).toBe(5);
      seen.push(...r.data.adminUsers.edges.map((e: any) => e.node.nickname));
      after = r.data.adminUsers.pageInfo.endCursor;
      if (!r.data.adminUsers.pageInfo.hasNextPage) break;
    }
    expect(seen).toEqual(["gq_a", "gq_b", "gq_c", "gq_d", "gq_e"]);
    const off = await gql(page, { filters: ["deactivated"] });
    expect(off.data.adminUsers).toMatchObject({ totalCount: 1, edges: [{ node: { nickname: "gq_c", deactivated: true } }] });
  });

  test("guards: moderator without users_read, plain user, anonymous and a token without admin scopes are refused", async () => {
    const readWrite = (await passwordToken(f.server, "root", "read write")).access_token;
    for (const token of [f.tokens.moderator, f.tokens.plain, null, readWrite]) {
      const r = await gql('{ adminUser(nicknameOrId: "gq_a") { nickname } }', {}, token);
      expect(r.errors[0].message).toMatch(/not authorized/i);
    }
    const refused = await gql('mutation { adminDeactivateUsers(nicknames: ["gq_a"]) { deactivated } }', {}, f.tokens.moderator);
    expect(refused.errors[0].message).toMatch(/not authorized/i);
    expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "gq_a" } })).deactivated).toBe(false);
    // the admin token acts as an admin
    const byAdminToken = await f.server.fetch("/graphql", { json: { query: '{ adminUser(nicknameOrId: "gq_a") { nickname } }' }, headers: { "x-admin-token": ADMIN_TOKEN } });
    expect((await byAdminToken.json()).data.adminUser.nickname).toBe("gq_a");
    // a moderator given the privilege by the runtime setting passes
    const list = f.server.services.config.get("instance", "moderator_privileges");
    list.push("users_read");
    try {
      expect((await gql('{ adminUser(nicknameOrId: "gq_a") { nickname } }', {}, f.tokens.moderator)).data.adminUser.nickname).toBe("gq_a");
    } finally {
      list.pop();
    }
  });

  test("activation, tags and suggestions run the REST operations and log", async () => {
    const off = await gql('mutation { adminDeactivateUsers(nicknames: ["gq_a", "gq_b"]) { nickname deactivated } }');
    expect(off.data.adminDeactivateUsers).toEqual([
      { nickname: "gq_a", deactivated: true },
      { nickname: "gq_b", deactivated: true },
    ]);
    expect(await f.messages()).toEqual(["@root deactivated users: @gq_a, @gq_b"]);
    await gql('mutation { adminActivateUsers(nicknames: ["gq_a", "gq_b"]) { nickname } }');
    expect(await f.messages()).toEqual(["@root activated users: @gq_a, @gq_b"]);
    const tagged = await gql('mutation { adminTagUsers(nicknames: ["gq_d"], tags: ["Foo"]) { tags } }');
    expect(tagged.data.adminTagUsers).toEqual([{ tags: ["foo"] }]);
    expect(await f.messages()).toEqual(["@root added tags: Foo to users: @gq_d"]);
    const suggested = await gql('mutation { adminSuggestUsers(nicknames: ["gq_d"]) { isSuggested } }');
    expect(suggested.data.adminSuggestUsers).toEqual([{ isSuggested: true }]);
    const toggled = await gql('mutation { adminToggleActivation(nickname: "gq_e") { deactivated } }');
    expect(toggled.data.adminToggleActivation).toEqual({ deactivated: true });
  });

  test("permission groups: grant, revoke, and no revoking oneself", async () => {
    const granted = await gql('mutation { adminGrantPermission(nicknames: ["gq_d"], group: moderator) { nickname isModerator } }');
    expect(granted.data.adminGrantPermission).toEqual([{ nickname: "gq_d", isModerator: true }]);
    expect(await f.messages()).toEqual(["@root made @gq_d moderator"]);
    const self = await gql('mutation { adminRevokePermission(nicknames: ["root"], group: admin) { isAdmin } }');
    expect(self.errors[0]).toMatchObject({ message: "You can't revoke your own admin/moderator status.", extensions: { code: "FORBIDDEN" } });
    expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "root" } })).isAdmin).toBe(true);
    const moderator = await gql('mutation { adminGrantPermission(nicknames: ["gq_d"], group: admin) { isAdmin } }', {}, f.tokens.moderator);
    expect(moderator.errors[0].message).toMatch(/not authorized/i);
  });

  test("createUsers is all or none; credentials, password reset, MFA and deletion", async () => {
    const conflict = await gql('mutation { adminCreateUsers(users: [{ nickname: "gq_new", email: "gq_new@example.test", password: "pw" }, { nickname: "gq_a", email: "x@example.test", password: "pw" }]) { nickname } }');
    expect(conflict.errors[0]).toMatchObject({ message: "nickname has already been taken", extensions: { code: "CONFLICT" } });
    expect(await f.db.account.count({ where: { nickname: "gq_new" } })).toBe(0);
    const created = await gql('mutation { adminCreateUsers(users: [{ nickname: "gq_new", email: "gq_new@example.test", password: "pw" }]) { nickname local } }');
    expect(created.data.adminCreateUsers).toEqual([{ nickname: "gq_new", local: true }]);
    expect(await f.messages()).toEqual(["@root created users: @gq_new"]);

    const bad = await gql('mutation { adminUpdateCredentials(nickname: "gq_new", input: { actorType: "Application" }) { actorType } }');
    expect(bad.errors[0]).toMatchObject({ extensions: { code: "INVALID", fields: { actor_type: "is invalid" } } });
    const edited = await gql('mutation { adminUpdateCredentials(nickname: "gq_new", input: { name: "New One", locked: true }) { displayName } }');
    expect(edited.data.adminUpdateCredentials).toEqual({ displayName: "New One" });
    expect(await f.messages()).toEqual(["@root updated users: @gq_new"]);

    const forced = await gql('mutation { adminForcePasswordReset(nicknames: ["gq_new"]) { passwordResetPending } }');
    expect(forced.data.adminForcePasswordReset).toEqual([{ passwordResetPending: true }]);
    const reset = await gql('mutation { adminPasswordReset(nickname: "gq_new") { token link } }');
    expect(reset.data.adminPasswordReset.link).toBe(`${BASE}/api/v1/ext/password_reset/${reset.data.adminPasswordReset.token}`);
    await f.db.account.update({ where: { nickname: "gq_new" }, data: { mfaEnabled: true, mfaTotpSecret: "S" } });
    expect((await gql('mutation { adminDisableMfa(nickname: "gq_new") }')).data.adminDisableMfa).toBe("gq_new");
    expect((await f.db.account.findUniqueOrThrow({ where: { nickname: "gq_new" } })).mfaEnabled).toBe(false);

    const deleted = await gql('mutation { adminDeleteUsers(nicknames: ["gq_new"]) { nickname deactivated } }');
    expect(deleted.data.adminDeleteUsers).toEqual([{ nickname: "gq_new", deactivated: true }]);
    const row = await f.db.account.findUniqueOrThrow({ where: { nickname: "gq_new" } });
    expect(await f.db.job.count({ where: { name: "accounts.delete", payload: { equals: { accountId: row.id } } } })).toBe(1);
    expect(await f.messages()).toEqual(["@root deleted users: @gq_new"]);
  });

  test("adminUserStatuses: godmode and offset paging", async () => {
    await f.server.createUser("gq_poster");
    const token = (await passwordToken(f.server, "gq_poster")).access_token;
    for (const visibility of ["public", "private", "public"]) {
      await f.server.fetch("/api/v1/statuses", { json: { status: `a ${visibility} post`, visibility }, headers: { authorization: `Bearer ${token}` } });
    }
    const q = `query($god: Boolean, $after: String) { adminUserStatuses(nicknameOrId: "gq_poster", godmode: $god, first: 2, after: $after) {
      pageInfo { hasNextPage endCursor } edges { node { visibility } } } }`;
    const plain = await gql(q, { god: false });
    expect(plain.data.adminUserStatuses.edges.map((e: any) => e.node.visibility)).toEqual(["public", "public"]);
    expect(plain.data.adminUserStatuses.pageInfo.hasNextPage).toBe(false);
    const god = await gql(q, { god: true });
    expect(god.data.adminUserStatuses.pageInfo.hasNextPage).toBe(true);
    const next = await gql(q, { god: true, after: god.data.adminUserStatuses.pageInfo.endCursor });
    expect(next.data.adminUserStatuses.edges.map((e: any) => e.node.visibility)).toEqual(["public"]);
  });
});
