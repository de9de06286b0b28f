import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { countCache } from "../../src/domain/accounts/count-cache.ts";

interface Edge {
  cursor: string;
  node: { id: string; type: string; isSeen: boolean; emoji: string | null; account: { nickname: string }; status: { id: string } | null };
}

const LIST = "pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id type isSeen emoji account { nickname } status { id } } }";

describe.each(suiteKinds(import.meta.url))("GraphQL notifications and conversations on %s", (kind) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let ns: string;
  let annPost: string;
  const gql = (query: string, variables?: Record<string, unknown>, bearer: string | null = tokens.ann) =>
    server.fetch("/graphql", { json: { query, variables }, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then((r) => r.json());
  const post = async (who: string, status: string, visibility = "public") => {
    const r = await gql("mutation($s: String!, $v: String!) { postStatus(input: { status: $s, visibility: $v }) { id } }", { s: status, v: visibility }, tokens[who]);
    expect(r.errors).toBeUndefined();
    return r.data.postStatus.id as string;
  };
  const notifications = async (args = "") => {
    const r = await gql(`{ notifications${args ? `(${args})` : ""} { ${LIST} } }`);
    expect(r.errors).toBeUndefined();
    return r.data.notifications as { pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string }; edges: Edge[] };
  };
  const types = (edges: Edge[]) => edges.map((e) => `${e.node.type}:${e.node.account.nickname}`);

  beforeAll(async () => {
    server = await startTestServer(kind);
    ns = server.services.settings.namespace;
    for (const name of ["ann", "bob", "cat"]) {
      ids[name] = (await server.createUser(name)).id;
      tokens[name] = (await passwordToken(server, name)).access_token;
    }
    annPost = await post("ann", "hello");
    await gql("mutation($id: ID!) { follow(accountId: $id) { following } }", { id: ids.ann }, tokens.bob);
    await gql("mutation($id: ID!) { favourite(id: $id) { id } }", { id: annPost }, tokens.bob);
    await post("bob", "@ann hi there");
    await gql('mutation($id: ID!) { react(id: $id, emoji: "👍") { id } }', { id: annPost }, tokens.cat);
    await gql("mutation($id: ID!) { favourite(id: $id) { id } }", { id: annPost }, tokens.cat);
  });
  afterAll(() => server?.close());

  test("the connection lists, filters and pages the viewer's notifications", async () => {
    const all = await notifications();
    expect(types(all.edges)).toEqual(["favourite:cat", `${ns}:emoji_reaction:cat`, "mention:bob", "favourite:bob", "follow:bob"]);
    expect(all.edges[1].node).toMatchObject({ emoji: "👍", isSeen: false, status: { id: annPost } });
    expect(all.edges[4].node.status).toBeNull();

    expect(types((await notifications('types: ["favourite"]')).edges)).toEqual(["favourite:cat", "favourite:bob"]);
    expect(types((await notifications('excludeTypes: ["favourite", "follow"]')).edges)).toEqual([`${ns}:emoji_reaction:cat`, "mention:bob"]);
    expect(types((await notifications(`accountId: "${ids.cat}"`)).edges)).toEqual(["favourite:cat", `${ns}:emoji_reaction:cat`]);

    const p1 = await notifications("first: 2");
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = await notifications(`first: 3, after: "${p1.pageInfo.endCursor}"`);
    expect(types(p2.edges)).toEqual(["mention:bob", "favourite:bob", "follow:bob"]);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await notifications(`last: 1, before: "${p2.edges[0].cursor}"`);
    expect(types(back.edges)).toEqual([`${ns}:emoji_reaction:cat`]);

    // others' notifications stay theirs; without a token there is nothing
    expect((await gql("{ notifications { edges { cursor } } }", {}, tokens.bob)).data.notifications.edges).toEqual([]);
    expect((await gql("{ notifications { edges { cursor } } }", {}, null)).errors[0].message).toMatch(/not authorized/i);
  });

  test("markNotificationsRead marks one or everything up to maxId in the database", async () => {
    const all = (await notifications()).edges;
    const one = await gql("mutation($id: ID!) { markNotificationsRead(id: $id) { id isSeen } }", { id: all[4].node.id });
    expect(one.data.markNotificationsRead).toEqual([{ id: all[4].node.id, isSeen: true }]);
    expect(await server.services.db.notification.count({ where: { accountId: ids.ann, seen: true } })).toBe(1);

    const upTo = await gql("mutation($id: ID!) { markNotificationsRead(maxId: $id) { id } }", { id: all[1].node.id });
    expect(upTo.data.markNotificationsRead.map((n: { id: string }) => n.id)).toEqual([all[1].node.id, all[2].node.id, all[3].node.id]);
    const seen = await server.services.db.notification.findMany({ where: { accountId: ids.ann }, orderBy: { id: "desc" }, select: { seen: true } });
    expect(seen.map((n) => n.seen)).toEqual([false, true, true, true, true]);
    expect((await notifications("first: 2")).edges.map((e) => e.node.isSeen)).toEqual([false, true]);

    const neither = await gql("mutation { markNotificationsRead { id } }");
    expect(neither.errors[0].extensions.code).toBe("INVALID");
    const readOnly = (await passwordToken(server, "ann", "read")).access_token;
    expect((await gql("mutation { clearNotifications }", {}, readOnly)).errors[0].message).toMatch(/not authorized/i);
  });

  test("a page of notifications costs the same number of queries for 5 and 20", async () => {
    ids.dan = (await server.createUser("dan")).id;
    const dan = (tokens.dan = (await passwordToken(server, "dan")).access_token);
    const danPosts: string[] = [];
    // 21: both pages are followed by more items (hasNextPage comes from the page itself, no further query)
    for (let i = 0; i < 21; i++) danPosts.push(await post("dan", `d${i}`));
    for (const id of danPosts) await gql("mutation($id: ID!) { favourite(id: $id) { id } }", { id }, tokens.bob);
    const query = `query($n: Int!) { notifications(first: $n) { pageInfo { hasNextPage } edges { node {
      id type isSeen account { nickname followersCount relationship { following } }
      status { id content favouritesCount favourited tags account { nickname } } } } } }`;
    // both pages count the accounts' follower counts afresh (the count cache would spare the second one the statement)
    const cold = () => countCache(server.services).invalidate({ all: "f" });
    cold();
    const five = await server.countQueries(() => gql(query, { n: 5 }, dan));
    cold();
    const twenty = await server.countQueries(() => gql(query, { n: 20 }, dan));
    expect(five.result.errors).toBeUndefined();
    expect(five.result.data.notifications.edges).toHaveLength(5);
    expect(twenty.result.data.notifications.edges).toHaveLength(20);
    expect(twenty.queries).toBe(five.queries);
  });

  test("dismissNotification and clearNotifications delete in the database", async () => {
    const first = (await notifications("first: 1")).edges[0].node.id;
    expect((await gql("mutation($id: ID!) { dismissNotification(id: $id) }", { id: first })).data.dismissNotification).toBe(true);
    expect(await server.services.db.notification.count({ where: { id: first } })).toBe(0);
    const notMine = await gql("mutation($id: ID!) { dismissNotification(id: $id) }", { id: (await server.services.db.notification.findFirstOrThrow({ where: { accountId: ids.dan } })).id });
    expect(notMine.errors[0].extensions.code).toBe("FORBIDDEN");
    expect((await gql("mutation { clearNotifications }")).data.clearNotifications).toBe(true);
    expect(await server.services.db.notification.count({ where: { accountId: ids.ann } })).toBe(0);
    expect(await server.services.db.notification.count({ where: { accountId: ids.dan } })).toBe(21);
  });

  test("conversations list direct threads with recipients; read and delete change the database", async () => {
    const dm = await post("bob", "@ann @cat secret plan", "direct");
    const dm2 = await post("cat", "@ann just us", "direct");
    const query = `{ conversations { pageInfo { hasNextPage hasPreviousPage } edges { cursor node {
      id unread accounts { nickname } recipients { nickname } lastStatus { id visibility } } } } }`;
    const r = await gql(query);
    expect(r.errors).toBeUndefined();
    const nodes = r.data.conversations.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toHaveLength(2);
    expect(nodes[0]).toMatchObject({ unread: true, lastStatus: { id: dm2, visibility: "direct" } });
    expect(nodes[0].accounts.map((a: { nickname: string }) => a.nickname)).toEqual(["cat"]);
    expect(nodes[1]).toMatchObject({ unread: true, lastStatus: { id: dm } });
    expect(nodes[1].accounts.map((a: { nickname: string }) => a.nickname).sort()).toEqual(["bob", "cat"]);
    expect(nodes[1].recipients.map((a: { nickname: string }) => a.nickname).sort()).toEqual(["ann", "bob", "cat"]);
    expect(r.data.conversations.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false });

    // paging uses the operation's own cursors
    const p1 = await gql("{ conversations(first: 1) { pageInfo { hasNextPage endCursor } edges { node { id } } } }");
    expect(p1.data.conversations.pageInfo.hasNextPage).toBe(true);
    const p2 = await gql("query($c: String!) { conversations(first: 1, after: $c) { pageInfo { hasNextPage hasPreviousPage } edges { node { id } } } }", { c: p1.data.conversations.pageInfo.endCursor });
    expect(p2.data.conversations).toEqual({ pageInfo: { hasNextPage: false, hasPreviousPage: true }, edges: [{ node: { id: nodes[1].id } }] });
    const withBob = await gql("query($r: [ID!]) { conversations(recipients: $r) { edges { node { id } } } }", { r: [ids.bob] });
    expect(withBob.data.conversations.edges).toEqual([{ node: { id: nodes[1].id } }]);

    const read = await gql("mutation($id: ID!) { readConversation(id: $id) { id unread } }", { id: nodes[1].id });
    expect(read.data.readConversation).toEqual({ id: nodes[1].id, unread: false });
    const participation = { conversationId_accountId: { conversationId: nodes[1].id, accountId: ids.ann } };
    expect((await server.services.db.conversationParticipation.findUniqueOrThrow({ where: participation })).unread).toBe(false);
    expect((await gql("mutation($id: ID!) { deleteConversation(id: $id) }", { id: nodes[1].id })).data.deleteConversation).toBe(true);
    expect(await server.services.db.conversationParticipation.findUnique({ where: participation })).toBeNull();
    expect((await gql(query)).data.conversations.edges).toHaveLength(1);
    expect((await gql("{ conversations { edges { cursor } } }", {}, null)).errors[0].message).toMatch(/not authorized/i);
  });
});
