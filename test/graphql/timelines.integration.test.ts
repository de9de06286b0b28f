import { streamHub } from "../../src/domain/streams/hub.ts";
import { pageCacheOf } from "../../src/http/routes/page-cache.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

const PAGE = "pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id content } }";

interface PageResult {
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor: string; node: { id: string; content: string } }[];
}

describe.each(suiteKinds(import.meta.url))("GraphQL timelines on %s", (kind) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  /** bob's statuses, oldest first */
  const bobPosts: string[] = [];
  const gql = (query: string, variables?: Record<string, unknown>, bearer: string | null = tokens.ann) =>
    server.fetch("/graphql", { json: { query, variables }, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then((r) => r.json());
  const post = async (who: string, status: string, visibility = "public") => {
    const r = await gql("mutation($s: String!, $v: String!) { postStatus(input: { status: $s, visibility: $v }) { id } }", { s: status, v: visibility }, tokens[who]);
    expect(r.errors).toBeUndefined();
    return r.data.postStatus.id as string;
  };
  const home = async (args: string) => {
    const r = await gql(`{ homeTimeline(${args}) { ${PAGE} } }`);
    expect(r.errors).toBeUndefined();
    return r.data.homeTimeline as PageResult;
  };
  const contents = (p: PageResult) => p.edges.map((e) => e.node.content);

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const name of ["ann", "bob", "cat"]) {
      ids[name] = (await server.createUser(name)).id;
      tokens[name] = (await passwordToken(server, name)).access_token;
    }
    expect((await gql("mutation($id: ID!) { follow(accountId: $id) { following } }", { id: ids.bob })).data.follow.following).toBe(true);
    for (let i = 0; i < 7; i++) bobPosts.push(await post("bob", `b${i}`));
  });
  afterAll(() => server?.close());

  test("home pages forward with first/after and backward with last/before, pageInfo at each step", async () => {
    const p1 = await home("first: 3");
    expect(contents(p1)).toEqual(["b6", "b5", "b4"]);
    expect(p1.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: p1.edges[0].cursor, endCursor: p1.edges[2].cursor });
    const p2 = await home(`first: 3, after: "${p1.pageInfo.endCursor}"`);
    expect(contents(p2)).toEqual(["b3", "b2", "b1"]);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await home(`first: 3, after: "${p2.pageInfo.endCursor}"`);
    expect(contents(p3)).toEqual(["b0"]);
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    // back from the last page: the three just newer than its start, newest first
    const back = await home(`last: 3, before: "${p3.pageInfo.startCursor}"`);
    expect(contents(back)).toEqual(["b3", "b2", "b1"]);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const top = await home(`last: 3, before: "${back.pageInfo.startCursor}"`);
    expect(contents(top)).toEqual(["b6", "b5", "b4"]);
    expect(top.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // `last` alone is the oldest end of the timeline
    const oldest = await home("last: 2");
    expect(contents(oldest)).toEqual(["b1", "b0"]);
    expect(oldest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const both = await gql("{ homeTimeline(first: 1, last: 1) { edges { cursor } } }");
    expect(both.errors[0].extensions.code).toBe("INVALID");
  });

  test("a first page followed by more items knows hasNextPage from its own query: the timeline is read once", async () => {
    pageCacheOf(server.services)!.clear(); // an earlier test's same query is kept: read it again
    const reads: string[] = [];
    const stop = server.database.onQuery((sql) => void (/SELECT s\.id, s\.reblog_of_id FROM statuses s\s+JOIN accounts a/.test(sql) && reads.push(sql)));
    try {
      const p1 = await home("first: 3");
      expect(contents(p1)).toEqual(["b6", "b5", "b4"]);
      expect(p1.pageInfo).toMatchObject({ hasNextPage: true, endCursor: p1.edges[2].cursor });
    } finally {
      stop();
    }
    expect(reads).toHaveLength(1);
  });

  test("home needs a signed-in viewer with read:statuses; the public timeline does not", async () => {
    const anonymous = await gql("{ homeTimeline { edges { cursor } } }", {}, null);
    expect(anonymous.errors[0].message).toMatch(/not authorized/i);
    expect(anonymous.data).toBeNull();
    const writeOnly = (await passwordToken(server, "ann", "write")).access_token;
    expect((await gql("{ homeTimeline { edges { cursor } } }", {}, writeOnly)).errors[0].message).toMatch(/not authorized/i);
    const open = await gql("{ publicTimeline(first: 2) { edges { node { content } } } }", {}, null);
    expect(open.errors).toBeUndefined();
    expect(open.data.publicTimeline.edges).toHaveLength(2);
  });

  test("visibility stays the domain's: a private post of an account not followed is absent", async () => {
    const secret = await post("cat", "cat secret", "private");
    const open = await post("cat", "cat open");
    const r = await gql("query($id: ID!) { accountStatuses(id: $id) { edges { node { id } } } }", { id: ids.cat });
    expect(r.errors).toBeUndefined();
    const seen = r.data.accountStatuses.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(seen).toContain(open);
    expect(seen).not.toContain(secret);
    // cat itself sees both
    const own = await gql("query($id: ID!) { accountStatuses(id: $id) { edges { node { id } } } }", { id: ids.cat }, tokens.cat);
    expect(own.data.accountStatuses.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([open, secret]);
    // home shows followed accounts only; the public timeline shows cat's public post, never the private one
    expect(contents(await home("first: 40"))).not.toContain("cat open");
    const pub = (await gql("{ publicTimeline(first: 40) { edges { node { id } } } }")).data.publicTimeline.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(pub).toContain(open);
    expect(pub).not.toContain(secret);
  });

  test("public, tag, bubble, list and account arguments reach the operations", async () => {
    expect((await gql("{ publicTimeline(remote: true) { edges { cursor } } }")).data.publicTimeline.edges).toEqual([]);
    expect((await gql("{ publicTimeline(local: true, first: 1) { edges { cursor } } }")).data.publicTimeline.edges).toHaveLength(1);
    expect((await gql('{ publicTimeline(instance: "elsewhere.example") { edges { cursor } } }')).data.publicTimeline.edges).toEqual([]);

    const alpha = await post("bob", "one #alpha");
    const alphaBeta = await post("bob", "two #alpha #beta");
    const tag = async (args: string) =>
      (await gql(`{ tagTimeline(${args}) { edges { node { id } } } }`)).data.tagTimeline.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(await tag('tag: "alpha"')).toEqual([alphaBeta, alpha]);
    expect(await tag('tag: "alpha", none: ["beta"]')).toEqual([alpha]);
    expect(await tag('tag: "alpha", all: ["beta"]')).toEqual([alphaBeta]);
    expect(await tag('tag: "gamma", any: ["beta"]')).toEqual([alphaBeta]);

    const bubble = await gql("{ bubbleTimeline(first: 1) { edges { node { id } } } }", {}, null);
    expect(bubble.data.bubbleTimeline.edges[0].node.id).toBe(alphaBeta);

    const reply = (await gql("mutation($r: ID!) { postStatus(input: { status: \"a reply\", inReplyToId: $r }) { id } }", { r: alpha }, tokens.bob)).data.postStatus.id;
    const account = async (args: string) =>
      (await gql(`query($id: ID!) { accountStatuses(id: $id, ${args}) { pageInfo { hasNextPage } edges { node { id } } } }`, { id: ids.bob })).data.accountStatuses;
    expect((await account("first: 1")).edges[0].node.id).toBe(reply);
    expect((await account("first: 1, excludeReplies: true")).edges[0].node.id).toBe(alphaBeta);
    expect((await account('tagged: "beta"')).edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([alphaBeta]);
    await gql("mutation($id: ID!) { pin(id: $id) { pinned } }", { id: bobPosts[0] }, tokens.bob);
    const pinned = await account("pinned: true");
    expect(pinned).toEqual({ pageInfo: { hasNextPage: false }, edges: [{ node: { id: bobPosts[0] } }] });

    const list = await server.fetch("/api/v1/lists", { json: { title: "friends" }, headers: { authorization: `Bearer ${tokens.ann}` } }).then((r) => r.json());
    const added = await server.fetch(`/api/v1/lists/${list.id}/accounts`, { json: { account_ids: [ids.bob] }, headers: { authorization: `Bearer ${tokens.ann}` } });
    expect(added.status).toBe(200);
    const listed = await gql("query($id: ID!) { listTimeline(id: $id, first: 2) { pageInfo { hasNextPage } edges { node { id } } } }", { id: list.id });
    expect(listed.data.listTimeline).toEqual({ pageInfo: { hasNextPage: true }, edges: [{ node: { id: reply } }, { node: { id: alphaBeta } }] });
    const stranger = await gql("query($id: ID!) { listTimeline(id: $id) { edges { cursor } } }", { id: list.id }, tokens.cat);
    expect(stranger.errors[0].extensions.code).toBe("NOT_FOUND");
  });

  test("first is capped at 40, and a page costs the same number of queries for 5 and 20 statuses", async () => {
    while (bobPosts.length < 45) bobPosts.push(await post("bob", `more ${bobPosts.length}`));
    const capped = await home("first: 100");
    expect(capped.edges).toHaveLength(40);
    expect(capped.pageInfo.hasNextPage).toBe(true);

    const query = `query($n: Int!) { homeTimeline(first: $n) { pageInfo { hasNextPage endCursor } edges { cursor node {
      id content favouritesCount reblogsCount repliesCount favourited reblogged bookmarked pinned tags
      mediaAttachments { id } poll { id } emojiReactions { name } reblog { id }
      account { nickname followersCount followingCount relationship { following } } } } } }`;
    // the stream hub, which tells the kept pages of the posts above, reads in the background: not this page's
    // count. Wait until letting the hub finish what it received runs no statement any more.
    await waitFor(async () => (await server.countQueries(() => streamHub(server.services).idle())).queries === 0, "the stream hub to be done with the posts above");
    const five = await server.countQueries(() => gql(query, { n: 5 }));
    const twenty = await server.countQueries(() => gql(query, { n: 20 }));
    expect(five.result.errors).toBeUndefined();
    expect(five.result.data.homeTimeline.edges).toHaveLength(5);
    expect(twenty.result.data.homeTimeline.edges).toHaveLength(20);
    expect(twenty.queries).toBe(five.queries);
    // the token, the page, the statuses' data with their authors and counts, the viewer's relationships
    expect(twenty.queries).toBeLessThanOrEqual(4);
  });
});
