// The client operations added for GraphQL parity (issue 18, criterion 5), area by area: each answers what
// REST answers for the same data, and each mutation changes the database as its REST route does.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL client operations on %s", (kind) => {
  let server: TestServer;
  let ann: string;
  let bob: string;
  let annId: string;
  let bobId: string;
  const gql = async (query: string, variables: Record<string, unknown> = {}, bearer: string | null = ann) => {
    const r = await server.fetch("/graphql", { json: { query, variables }, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
    const body = await r.json();
    return body;
  };
  const ok = async (query: string, variables: Record<string, unknown> = {}, bearer: string | null = ann) => {
    const body = await gql(query, variables, bearer);
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const rest = async (method: string, path: string, bearer: string = ann, json?: unknown) => {
    const r = await server.fetch(path, { method, headers: { authorization: `Bearer ${bearer}` }, ...(json !== undefined ? { json } : {}) });
    expect(r.status, `${method} ${path}`).toBe(200);
    return r.json();
  };
  const post = async (status: string, bearer = ann) => (await rest("POST", "/api/v1/statuses", bearer, { status })).id as string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    annId = (await server.createUser("ann")).id;
    bobId = (await server.createUser("bob")).id;
    await server.createUser("cyd");
    ann = (await passwordToken(server, "ann")).access_token;
    bob = (await passwordToken(server, "bob")).access_token;
  });
  afterAll(() => server?.close());

  test("relationships: follows, blocks, mutes, domain blocks and notes equal REST's and change the rows", async () => {
    await ok("mutation($id: ID!) { follow(accountId: $id) { following } }", { id: bobId });
    const rels = await ok("query($ids: [ID!]!) { relationships(ids: $ids) { id following followedBy note } }", { ids: [bobId] });
    const restRels = await rest("GET", `/api/v1/accounts/relationships?id[]=${bobId}`);
    expect(rels.relationships).toEqual([{ id: bobId, following: restRels[0].following, followedBy: restRels[0].followed_by, note: restRels[0].note }]);
    expect(rels.relationships[0].following).toBe(true);

    const followers = await ok("query($id: ID!) { followers(id: $id, first: 10) { edges { node { id nickname } } pageInfo { hasNextPage } } }", { id: bobId }, bob);
    expect(followers.followers.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", `/api/v1/accounts/${bobId}/followers`, bob)).map((a: { id: string }) => a.id));
    expect(followers.followers.edges.map((e: { node: { nickname: string } }) => e.node.nickname)).toEqual(["ann"]);

    const note = await ok('mutation($id: ID!) { setAccountNote(accountId: $id, comment: "met at the fair") { note } }', { id: bobId });
    expect(note.setAccountNote.note).toBe("met at the fair");
    expect((await rest("GET", `/api/v1/accounts/relationships?id[]=${bobId}`))[0].note).toBe("met at the fair");

    const cyd = (await rest("GET", "/api/v1/accounts/lookup?acct=cyd")).id;
    await ok("mutation($id: ID!) { block(accountId: $id) { blocking } }", { id: cyd });
    await ok("mutation($id: ID!) { mute(accountId: $id, expiresIn: 3600) { muting } }", { id: bobId });
    const lists = await ok("{ blocks(first: 5) { edges { node { id } } } mutes(first: 5) { edges { node { account { id } expiresAt } } } }");
    expect(lists.blocks.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", "/api/v1/blocks")).map((a: { id: string }) => a.id));
    const restMutes = await rest("GET", "/api/v1/mutes");
    expect(lists.mutes.edges.map((e: { node: { account: { id: string }; expiresAt: string } }) => [e.node.account.id, e.node.expiresAt])).toEqual(restMutes.map((a: { id: string; mute_expires_at: string }) => [a.id, a.mute_expires_at]));

    expect((await ok('mutation { blockDomain(domain: "spam.example") }')).blockDomain).toBe(true);
    const domains = await ok("{ domainBlocks(first: 10) { edges { node } } }");
    expect(domains.domainBlocks.edges.map((e: { node: string }) => e.node)).toEqual(await rest("GET", "/api/v1/domain_blocks"));
    expect(await server.services.db.domainBlock.count({ where: { accountId: annId, domain: "spam.example" } })).toBe(1);
    await ok('mutation { unblockDomain(domain: "spam.example") }');
    expect(await rest("GET", "/api/v1/domain_blocks")).toEqual([]);
    await ok("mutation($id: ID!) { unmute(accountId: $id) { muting } }", { id: bobId });
    await ok("mutation($id: ID!) { unblock(accountId: $id) { blocking } }", { id: cyd });

    const endorsed = await ok("mutation($id: ID!) { endorse(accountId: $id) { endorsed } }", { id: bobId });
    expect(endorsed.endorse.endorsed).toBe(true);
    const mine = await ok("{ endorsements(first: 5) { edges { node { id } } } }");
    expect(mine.endorsements.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", "/api/v1/endorsements")).map((a: { id: string }) => a.id));
    expect(mine.endorsements.edges).toHaveLength(1);
  });

  test("lists: created, filled and read over GraphQL as REST reads them", async () => {
    const created = await ok('mutation { createList(title: "friends", repliesPolicy: followed) { id title repliesPolicy exclusive } }');
    const id = created.createList.id;
    const restList = await rest("GET", `/api/v1/lists/${id}`);
    expect(created.createList).toEqual({ id: restList.id, title: restList.title, repliesPolicy: restList.replies_policy, exclusive: restList.exclusive });
    expect((await ok("mutation($id: ID!, $a: [ID!]!) { addListAccounts(id: $id, accountIds: $a) }", { id, a: [bobId] })).addListAccounts).toBe(true);
    expect(await server.services.db.listMember.count({ where: { listId: id } })).toBe(1);
    const read = await ok("query($id: ID!, $bob: ID!) { list(id: $id) { title } listAccounts(id: $id, first: 5) { edges { node { id } } } accountLists(accountId: $bob) { id } lists { id } }", { id, bob: bobId });
    expect(read.listAccounts.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", `/api/v1/lists/${id}/accounts`)).map((a: { id: string }) => a.id));
    expect(read.accountLists.map((l: { id: string }) => l.id)).toEqual((await rest("GET", `/api/v1/accounts/${bobId}/lists`)).map((l: { id: string }) => l.id));
    expect(read.lists.map((l: { id: string }) => l.id)).toEqual((await rest("GET", "/api/v1/lists")).map((l: { id: string }) => l.id));
    await ok('mutation($id: ID!) { updateList(id: $id, title: "close friends") { title } }', { id });
    expect((await rest("GET", `/api/v1/lists/${id}`)).title).toBe("close friends");
    await ok("mutation($id: ID!, $a: [ID!]!) { removeListAccounts(id: $id, accountIds: $a) }", { id, a: [bobId] });
    expect(await server.services.db.listMember.count({ where: { listId: id } })).toBe(0);
    await ok("mutation($id: ID!) { deleteList(id: $id) }", { id });
    expect(await server.services.db.list.count({ where: { id } })).toBe(0);
    const others = await gql("query($id: ID!) { list(id: $id) { id } }", { id: created.createList.id }, bob);
    expect(others.errors[0].extensions.code).toBe("NOT_FOUND");
  });

  test("statuses: thread, history, source, who favourited, reactions, poll, bookmarks and favourites equal REST's", async () => {
    const root = await post("root of the thread");
    const reply = (await rest("POST", "/api/v1/statuses", bob, { status: "@ann a reply", in_reply_to_id: root })).id;
    await rest("PUT", `/api/v1/statuses/${root}`, ann, { status: "root of the thread (edited)" });
    await ok("mutation($id: ID!) { favourite(id: $id) { id } }", { id: root }, bob);
    await ok('mutation($id: ID!) { react(id: $id, emoji: "🎉") { id } }', { id: root }, bob);
    await ok("mutation($id: ID!) { bookmark(id: $id) { id } favourite(id: $id) { id } }", { id: reply });

    const d = await ok(
      `query($root: ID!, $reply: ID!) {
        statusContext(id: $reply) { ancestors { id } descendants { id } }
        statusHistory(id: $root) { content }
        statusSource(id: $root) { id text }
        favouritedBy(id: $root, first: 5) { edges { node { id } } }
        statusReactions(id: $root) { name count me accounts { id } }
        bookmarks(first: 5) { edges { node { id } } }
        favourites(first: 5) { edges { node { id } } }
      }`,
      { root, reply },
    );
    const ctx = await rest("GET", `/api/v1/statuses/${reply}/context`);
    expect(d.statusContext).toEqual({ ancestors: ctx.ancestors.map((s: { id: string }) => ({ id: s.id })), descendants: ctx.descendants.map((s: { id: string }) => ({ id: s.id })) });
    expect(d.statusContext.ancestors).toEqual([{ id: root }]);
    expect(d.statusHistory.map((v: { content: string }) => v.content)).toEqual((await rest("GET", `/api/v1/statuses/${root}/history`)).map((v: { content: string }) => v.content));
    expect(d.statusHistory).toHaveLength(2);
    const source = await rest("GET", `/api/v1/statuses/${root}/source`);
    expect(d.statusSource).toEqual({ id: source.id, text: source.text });
    expect(d.favouritedBy.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", `/api/v1/statuses/${root}/favourited_by`)).map((a: { id: string }) => a.id));
    const reactions = await rest("GET", `/api/v1/ext/statuses/${root}/reactions`);
    expect(d.statusReactions).toEqual(reactions.map((r: { name: string; count: number; me: boolean; accounts: { id: string }[] }) => ({ name: r.name, count: r.count, me: r.me, accounts: r.accounts.map((a) => ({ id: a.id })) })));
    expect(d.bookmarks.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", "/api/v1/bookmarks")).map((s: { id: string }) => s.id));
    expect(d.favourites.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([reply]);

    const polled = await rest("POST", "/api/v1/statuses", ann, { status: "which?", poll: { options: ["a", "b"], expires_in: 600 } });
    const poll = await ok("query($id: ID!) { poll(id: $id) { id multiple options { title votesCount } } }", { id: polled.poll.id });
    const restPoll = await rest("GET", `/api/v1/polls/${polled.poll.id}`);
    expect(poll.poll).toEqual({ id: restPoll.id, multiple: restPoll.multiple, options: restPoll.options.map((o: { title: string; votes_count: number }) => ({ title: o.title, votesCount: o.votes_count })) });
  });

  test("search and media: the same results as REST; an upload creates the attachment row", async () => {
    await post("a status about quokkas");
    const s = await ok('{ search(q: "quokkas", type: statuses) { statuses { id } accounts { id } } people: search(q: "bob", type: accounts) { accounts { id nickname } } }');
    const restS = await rest("GET", "/api/v2/search?q=quokkas&type=statuses");
    expect(s.search.statuses.map((x: { id: string }) => x.id)).toEqual(restS.statuses.map((x: { id: string }) => x.id));
    expect(s.search.statuses).toHaveLength(1);
    expect(s.people.accounts.map((a: { id: string }) => a.id)).toEqual((await rest("GET", "/api/v2/search?q=bob&type=accounts")).accounts.map((a: { id: string }) => a.id));

    // a 1×1 PNG, sent as the GraphQL multipart request spec says
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const form = new FormData();
    form.set("operations", JSON.stringify({ query: 'mutation($f: File!) { uploadMedia(file: $f, description: "a dot") { id type description } }', variables: { f: null } }));
    form.set("map", JSON.stringify({ 0: ["variables.f"] }));
    form.set("0", new Blob([png], { type: "image/png" }), "dot.png");
    const r = await server.fetch("/graphql", { method: "POST", body: form, headers: { authorization: `Bearer ${ann}`, "graphql-require-preflight": "1" } });
    const up = await r.json();
    expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
    const media = up.data.uploadMedia;
    expect(media).toMatchObject({ type: "image", description: "a dot" });
    expect(await server.services.db.mediaAttachment.count({ where: { id: media.id, accountId: annId } })).toBe(1);
    await ok('mutation($id: ID!) { updateMedia(id: $id, description: "a pixel") { description } }', { id: media.id });
    const shown = await ok("query($id: ID!) { media(id: $id) { id description } }", { id: media.id });
    expect(shown.media).toEqual({ id: media.id, description: (await rest("GET", `/api/v1/media/${media.id}`)).description });
    expect(shown.media.description).toBe("a pixel");
  });

  test("notifications, markers, conversations, hashtags, filters and announcements: REST's answers, and the rows change", async () => {
    const mention = (await rest("POST", "/api/v1/statuses", bob, { status: "@ann hello there #otters" })).id;
    const restNotes = await rest("GET", "/api/v1/notifications?types[]=mention");
    const n = await ok("query($id: ID!) { notification(id: $id) { id type status { id } } }", { id: restNotes[0].id });
    expect(n.notification).toEqual({ id: restNotes[0].id, type: "mention", status: { id: mention } });
    expect((await ok("mutation($ids: [ID!]!) { dismissNotifications(ids: $ids) }", { ids: [restNotes[0].id] })).dismissNotifications).toBe(true);
    expect(await server.services.db.notification.count({ where: { id: restNotes[0].id } })).toBe(0);

    const saved = await ok("mutation($id: ID!) { saveMarkers(home: $id) { timeline lastReadId } }", { id: mention });
    expect(saved.saveMarkers).toEqual([{ timeline: "home", lastReadId: mention }]);
    const restMarkers = await rest("GET", "/api/v1/markers?timeline[]=home");
    expect((await ok('{ markers(timelines: ["home"]) { timeline lastReadId version } }')).markers).toEqual([{ timeline: "home", lastReadId: restMarkers.home.last_read_id, version: restMarkers.home.version }]);

    await rest("POST", "/api/v1/statuses", bob, { status: "@ann between us", visibility: "direct" });
    const convs = await rest("GET", "/api/v1/conversations");
    const conv = await ok("query($id: ID!) { conversation(id: $id) { id unread } conversationStatuses(id: $id, first: 5) { edges { node { id } } } }", { id: convs[0].id });
    expect(conv.conversation).toEqual({ id: convs[0].id, unread: convs[0].unread });
    expect(conv.conversationStatuses.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual((await rest("GET", `/api/v1/ext/conversations/${convs[0].id}/statuses`)).map((x: { id: string }) => x.id));
    await ok("mutation { readAllConversations { id } }");
    expect(await server.services.db.conversationParticipation.count({ where: { accountId: annId, unread: true } })).toBe(0);

    const followed = await ok('mutation { followTag(name: "otters") { name following } }');
    expect(followed.followTag).toEqual({ name: "otters", following: true });
    const tags = await ok('{ followedTags(first: 5) { edges { node { name } } } tag(name: "otters") { following } }');
    expect(tags.followedTags.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual((await rest("GET", "/api/v1/followed_tags")).map((x: { name: string }) => x.name));
    expect(tags.tag.following).toBe((await rest("GET", "/api/v1/tags/otters")).following);
    await ok('mutation { unfollowTag(name: "otters") { following } }');
    expect(await rest("GET", "/api/v1/followed_tags")).toEqual([]);

    const filter = await rest("POST", "/api/v2/filters", ann, { title: "spoilers", context: ["home"], keywords_attributes: [{ keyword: "finale" }] });
    const f = await ok("query($id: ID!) { filter(id: $id) { id title } filterKeywords(filterId: $id) { id keyword } }", { id: filter.id });
    expect(f.filter).toEqual({ id: filter.id, title: "spoilers" });
    expect(f.filterKeywords).toEqual((await rest("GET", `/api/v2/filters/${filter.id}/keywords`)).map((k: { id: string; keyword: string }) => ({ id: k.id, keyword: k.keyword })));
  });

  test("backups and imports: a backup row and an import job, as REST makes them", async () => {
    const b = await ok("mutation { createBackup { id state fileName } }", {}, bob);
    expect(b.createBackup).toHaveLength(1);
    expect(await server.services.db.backup.count({ where: { accountId: bobId } })).toBe(1);
    const listed = await ok("{ backups { id fileName } }", {}, bob);
    expect(listed.backups.map((x: { id: string }) => x.id)).toEqual((await rest("GET", "/api/v1/ext/backups", bob)).map((x: { id: string }) => x.id));
    const again = await gql("mutation { createBackup { id } }", {}, bob);
    expect(again.errors[0].extensions.code).toBe("INVALID");

    const imported = await ok("mutation($l: String!) { importFollows(list: $l) }", { l: "cyd\n" }, bob);
    expect(imported.importFollows).toBe("job started");
    // the job runs in the background: bob ends up following cyd
    const cyd = (await rest("GET", "/api/v1/accounts/lookup?acct=cyd")).id;
    await expect.poll(() => server.services.db.follow.count({ where: { followerId: bobId, followingId: cyd } }), { timeout: 20_000 }).toBe(1);
  });
});
