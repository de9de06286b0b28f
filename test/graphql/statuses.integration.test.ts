import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL statuses on %s", (kind) => {
  let server: TestServer;
  let token: string;
  const gql = (query: string, variables?: Record<string, unknown>, bearer: string | null = token) =>
    server.fetch("/graphql", { json: { query, variables }, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then((r) => r.json());

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("quin");
    token = (await passwordToken(server, "quin")).access_token;
  });
  afterAll(() => server?.close());

  test("postStatus runs the REST posting operation; deleteStatus removes it", async () => {
    const r = await gql('mutation { postStatus(input: { status: "hello #graph", visibility: "unlisted", poll: { options: ["a", "b"], expiresIn: 600 } }) { id content visibility tags poll { options { title votesCount } } account { nickname } } }');
    expect(r.errors).toBeUndefined();
    const s = r.data.postStatus;
    expect(s).toMatchObject({ visibility: "unlisted", tags: ["graph"], account: { nickname: "quin" }, poll: { options: [{ title: "a", votesCount: 0 }, { title: "b", votesCount: 0 }] } });
    expect(await server.services.db.status.count({ where: { id: s.id } })).toBe(1);
    const invalid = await gql('mutation { postStatus(input: { status: "x", expiresIn: 5 }) { id } }');
    expect(invalid.errors[0]).toMatchObject({ extensions: { code: "UNPROCESSABLE" } });
    expect((await gql("mutation($id: ID!) { deleteStatus(id: $id) { id } }", { id: s.id })).data.deleteStatus.id).toBe(s.id);
    expect(await server.services.db.status.count({ where: { id: s.id } })).toBe(0);
    const anonymous = await gql('mutation { postStatus(input: { status: "nope" }) { id } }', {}, null);
    expect(anonymous.errors[0].message).toMatch(/not authorized/i);
  });

  test("actions, edit, reactions and votes call the REST operations", async () => {
    await server.createUser("rafe");
    const rafe = (await passwordToken(server, "rafe")).access_token;
    const mine = (await gql('mutation { postStatus(input: { status: "vote?", poll: { options: ["x", "y"], expiresIn: 600 } }) { id poll { id } } }')).data.postStatus;
    const fav = await gql("mutation($id: ID!) { favourite(id: $id) { favourited favouritesCount } }", { id: mine.id }, rafe);
    expect(fav.data.favourite).toEqual({ favourited: true, favouritesCount: 1 });
    const reblog = await gql("mutation($id: ID!) { reblog(id: $id, visibility: unlisted) { visibility reblog { id reblogsCount reblogged } } }", { id: mine.id }, rafe);
    expect(reblog.data.reblog).toEqual({ visibility: "unlisted", reblog: { id: mine.id, reblogsCount: 1, reblogged: true } });
    expect((await gql("mutation($id: ID!) { bookmark(id: $id) { bookmarked } }", { id: mine.id }, rafe)).data.bookmark.bookmarked).toBe(true);
    expect((await gql("mutation($id: ID!) { pin(id: $id) { pinned } }", { id: mine.id })).data.pin.pinned).toBe(true);
    const react = await gql('mutation($id: ID!) { react(id: $id, emoji: "👍") { emojiReactions { name count me } } }', { id: mine.id }, rafe);
    expect(react.data.react.emojiReactions).toEqual([{ name: "👍", count: 1, me: true }]);
    const vote = await gql("mutation($poll: ID!) { vote(pollId: $poll, choices: [1]) { ownVotes options { votesCount } } }", { poll: mine.poll.id }, rafe);
    expect(vote.data.vote).toEqual({ ownVotes: [1], options: [{ votesCount: 0 }, { votesCount: 1 }] });
    const edited = await gql('mutation($id: ID!) { editStatus(id: $id, status: "vote? (edited)") { content editedAt } }', { id: mine.id });
    expect(edited.data.editStatus.content).toBe("vote? (edited)");
    expect(await server.services.db.statusEdit.count({ where: { statusId: mine.id } })).toBe(1);
    expect(await server.services.db.favourite.count({ where: { statusId: mine.id } })).toBe(1);
    const notAuthor = await gql('mutation($id: ID!) { editStatus(id: $id, status: "hijack") { id } }', { id: mine.id }, rafe);
    expect(notAuthor.errors[0]).toMatchObject({ message: "Access denied", extensions: { code: "FORBIDDEN" } });
  });

  test("a list of statuses resolves with a constant number of queries", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await gql(`mutation { postStatus(input: { status: "n${i} #t" }) { id } }`)).data.postStatus.id);
    const query = "query($ids: [ID!]!) { statuses(ids: $ids) { id favouritesCount reblogsCount favourited bookmarked tags mediaAttachments { id } poll { id } account { nickname followersCount } } }";
    const one = await server.countQueries(() => gql(query, { ids: ids.slice(0, 1) }));
    const ten = await server.countQueries(() => gql(query, { ids }));
    expect(ten.result.data.statuses).toHaveLength(10);
    expect(ten.queries).toBe(one.queries);
  });
});
