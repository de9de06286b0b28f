import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL accounts on %s", (kind) => {
  let server: TestServer;
  let token: string;
  const gql = (query: string, variables?: Record<string, unknown>, bearer = token) =>
    server.fetch("/graphql", { json: { query, variables }, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then((r) => r.json());

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("gwen");
    await server.createUser("hal");
    token = (await passwordToken(server, "gwen")).access_token;
  });
  afterAll(() => server?.close());

  test("follow, block and mute run the REST operations and answer the relationship", async () => {
    const hal = (await gql('{ account(nickname: "hal") { id followersCount relationship { following } } }')).data.account;
    expect(hal).toMatchObject({ followersCount: 0, relationship: { following: false } });

    const followed = await gql("mutation($id: ID!) { follow(accountId: $id, notify: true) { following notifying } }", { id: hal.id });
    expect(followed.data.follow).toEqual({ following: true, notifying: true });
    const row = await server.services.db.follow.findFirstOrThrow({ where: { following: { nickname: "hal" } } });
    expect(row).toMatchObject({ state: "accept", notify: true });
    expect((await gql("query($id: ID!) { account(id: $id) { followersCount } }", { id: hal.id })).data.account.followersCount).toBe(1);

    const muted = await gql("mutation($id: ID!) { mute(accountId: $id, expiresIn: 3600) { muting mutingNotifications } }", { id: hal.id });
    expect(muted.data.mute).toEqual({ muting: true, mutingNotifications: true });
    const blocked = await gql("mutation($id: ID!) { block(accountId: $id) { blocking following } }", { id: hal.id });
    expect(blocked.data.block).toEqual({ blocking: true, following: false });
    expect(await server.services.db.follow.count()).toBe(0);
  });

  test("mutations need the same scopes as REST", async () => {
    const readOnly = (await passwordToken(server, "gwen", "read")).access_token;
    const hal = (await gql('{ account(nickname: "hal") { id } }')).data.account;
    const refused = await gql("mutation($id: ID!) { unblock(accountId: $id) { blocking } }", { id: hal.id }, readOnly);
    expect(refused.errors[0].message).toMatch(/not authorized/i);
    expect(await server.services.db.userRelationship.count({ where: { type: "block" } })).toBe(1);
    const anonymous = await server.fetch("/graphql", { json: { query: `mutation { unblock(accountId: "${hal.id}") { blocking } }` } }).then((r) => r.json());
    expect(anonymous.errors[0].message).toMatch(/not authorized/i);
  });

  test("updateProfile and the viewer", async () => {
    const r = await gql('mutation { updateProfile(input: { displayName: "Gwen G", locked: true, defaultScope: unlisted, fields: [{ name: "a", value: "b" }] }) { displayName locked } }');
    expect(r.data.updateProfile).toEqual({ displayName: "Gwen G", locked: true });
    const row = await server.services.db.account.findFirstOrThrow({ where: { nickname: "gwen" } });
    expect(row).toMatchObject({ displayName: "Gwen G", locked: true, defaultScope: "unlisted", fields: [{ name: "a", value: "b" }] });
    expect((await gql("{ viewer { nickname displayName } }")).data.viewer).toEqual({ nickname: "gwen", displayName: "Gwen G" });
  });

  test("searchAccounts resolves counts and relationships with a constant number of queries", async () => {
    for (let i = 0; i < 8; i++) await server.createUser(`gq${i}`);
    const query = "query($q: String!, $n: Int) { searchAccounts(query: $q, limit: $n) { nickname followersCount followingCount relationship { following blocking } } }";
    const one = await server.countQueries(() => gql(query, { q: "gq", n: 1 }));
    const eight = await server.countQueries(() => gql(query, { q: "gq", n: 8 }));
    expect(eight.result.data.searchAccounts).toHaveLength(8);
    expect(eight.queries).toBe(one.queries);
  });
});
