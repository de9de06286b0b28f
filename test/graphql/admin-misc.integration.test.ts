// Admin GraphQL for invites, relays, OAuth apps, announcements and media-proxy bans: the same
// operations as REST, guarded by the same privileges and roles.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });


describe.each(suiteKinds(import.meta.url))("GraphQL admin invites, relays, apps, announcements, media proxy on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let token: Cast["token"];
  const gql = (query: string, variables: Record<string, unknown> = {}, who = "ada") =>
    server.fetch("/graphql", { json: { query, variables }, headers: { authorization: `Bearer ${token[who]}` } }).then((r) => r.json());

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    ({ token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} }));
    token.adaRead = (await passwordToken(server, "ada", "read write")).access_token;
  });
  afterAll(() => server?.close());

  test("invites: create with the derived type, list, revoke; e-mail refused while registrations are open", async () => {
    const created = await gql('mutation { createInvite(maxUse: 2, expiresAt: "2031-01-02") { id token inviteType maxUse expiresAt used uses } }');
    expect(created.data.createInvite).toMatchObject({ inviteType: "reusable_date_limited", maxUse: 2, expiresAt: "2031-01-02", used: false, uses: 0 });
    const plain = (await gql("mutation { createInvite { token inviteType } }")).data.createInvite;
    expect(plain.inviteType).toBe("one_time");
    const list = (await gql("{ adminInvites { token inviteType } }")).data.adminInvites;
    expect(list).toEqual(expect.arrayContaining([{ token: plain.token, inviteType: "one_time" }]));
    expect(list).toHaveLength(await db.invite.count());
    const revoked = await gql("mutation($t: String!) { revokeInvite(token: $t) { used } }", { t: plain.token });
    expect(revoked.data.revokeInvite).toEqual({ used: true });
    const unknown = await gql('mutation { revokeInvite(token: "nope") { used } }');
    expect(unknown.errors[0]).toMatchObject({ message: "Not found", extensions: { code: "NOT_FOUND" } });
    const mail = await gql('mutation { emailInvite(email: "x@example.test") { id } }');
    expect(mail.errors[0].message).toBe("To send invites you need to set the `registrations_open` option to false.");
    const badDate = await gql('mutation { createInvite(expiresAt: "soon") { id } }');
    expect(badDate.errors[0].extensions.code).toBe("INVALID");
  });

  test("relays: follow (logged), list, unfollow (logged); an unknown relay fails unless forced", async () => {
    const url = "https://relay.example/actor";
    const followed = await gql("mutation($u: String!) { followRelay(relayUrl: $u) { actor state followedBack } }", { u: url });
    expect(followed.data.followRelay).toEqual({ actor: url, state: "pending", followedBack: false });
    expect((await gql("{ adminRelays { actor } }")).data.adminRelays).toEqual([{ actor: url }]);
    const unfollowed = await gql("mutation($u: String!) { unfollowRelay(relayUrl: $u) }", { u: url });
    expect(unfollowed.data.unfollowRelay).toBe(url);
    expect(await db.relay.count()).toBe(0);
    const messages = (await db.moderationLogEntry.findMany({ orderBy: { id: "asc" } })).map((e) => e.message);
    expect(messages).toEqual([`@ada followed relay: ${url}`, `@ada unfollowed relay: ${url}`]);
    const unknown = await gql('mutation { unfollowRelay(relayUrl: "https://nope.example/r") }');
    expect(unknown.errors[0].message).toMatch(/Not following relay/);
    expect((await gql('mutation { unfollowRelay(relayUrl: "https://nope.example/r", force: true) }')).data.unfollowRelay).toBe("https://nope.example/r");
  });

  test("OAuth apps: create with secret, connection with totalCount and paging, update, delete", async () => {
    const create = (name: string, trusted = false) =>
      gql("mutation($n: String!, $t: Boolean) { createOAuthApp(name: $n, redirectUris: [\"https://a.example/cb\"], scopes: [\"read\"], trusted: $t) { id name clientId clientSecret redirectUris trusted } }", { n: name, t: trusted });
    const a = (await create("GQL app", true)).data.createOAuthApp;
    expect(a).toMatchObject({ name: "GQL app", redirectUris: ["https://a.example/cb"], trusted: true });
    expect(a.clientSecret).toBeTruthy();
    await create("GQL other");
    const page = await gql("{ adminOAuthApps(first: 1) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }");
    expect(page.data.adminOAuthApps.totalCount).toBe(await db.oAuthApp.count());
    expect(page.data.adminOAuthApps.edges).toHaveLength(1);
    expect(page.data.adminOAuthApps.pageInfo.hasNextPage).toBe(true);
    const trusted = await gql("{ adminOAuthApps(trusted: true) { totalCount edges { node { name } } } }");
    expect(trusted.data.adminOAuthApps).toEqual({ totalCount: 1, edges: [{ node: { name: "GQL app" } }] });
    const blank = await gql('mutation { createOAuthApp(name: " ", redirectUris: []) { id } }');
    expect(blank.errors[0]).toMatchObject({ message: "Missing field: name. Missing field: redirect_uris.", extensions: { code: "INVALID" } });

    const updated = await gql("mutation($id: Int!) { updateOAuthApp(id: $id, name: \"Renamed\", trusted: false) { name trusted redirectUris } }", { id: a.id });
    expect(updated.data.updateOAuthApp).toEqual({ name: "Renamed", trusted: false, redirectUris: ["https://a.example/cb"] });
    expect((await gql("mutation($id: Int!) { deleteOAuthApp(id: $id) }", { id: a.id })).data.deleteOAuthApp).toBe(true);
    expect(await db.oAuthApp.findUnique({ where: { id: a.id } })).toBeNull();
    expect((await gql("mutation($id: Int!) { deleteOAuthApp(id: $id) }", { id: a.id })).errors[0].extensions.code).toBe("NOT_FOUND");
  });

  test("announcements: create, connection of all with HTML content and totalCount, update (null clears), delete", async () => {
    const created = await gql('mutation { createAnnouncement(content: "See #news", startsAt: "2040-01-01T00:00:00Z", allDay: true) { id rawContent content startsAt endsAt allDay tags reactions { name } } }');
    const a = created.data.createAnnouncement;
    expect(a).toMatchObject({ rawContent: "See #news", startsAt: "2040-01-01T00:00:00.000Z", endsAt: null, allDay: true, tags: ["news"], reactions: [] });
    expect(a.content).toContain('class="hashtag"');
    await gql('mutation { createAnnouncement(content: "second") { id } }');
    const list = await gql("{ adminAnnouncements(first: 10) { totalCount edges { node { id rawContent content } } } }");
    expect(list.data.adminAnnouncements.totalCount).toBe(2);
    expect(list.data.adminAnnouncements.edges.map((e: any) => e.node.rawContent)).toEqual(["See #news", "second"]);
    const updated = await gql("mutation($id: ID!) { updateAnnouncement(id: $id, startsAt: null) { rawContent startsAt allDay } }", { id: a.id });
    expect(updated.data.updateAnnouncement).toEqual({ rawContent: "See #news", startsAt: null, allDay: true });
    expect((await gql("query($id: ID!) { adminAnnouncement(id: $id) { startsAt } }", { id: a.id })).data.adminAnnouncement).toEqual({ startsAt: null });
    expect((await gql("mutation($id: ID!) { deleteAnnouncement(id: $id) }", { id: a.id })).data.deleteAnnouncement).toBe(a.id);
    expect(await db.announcement.count()).toBe(1);
  });

  test("media-proxy bans: purge with ban, search, unban", async () => {
    expect((await gql('mutation { purgeMediaProxyUrls(urls: ["https://cdn.example/a.png", "https://other.example/b.png"]) }')).data.purgeMediaProxyUrls).toBe(true);
    expect((await gql('mutation { purgeMediaProxyUrls(urls: ["https://cdn.example/c.png"], ban: false) }')).data.purgeMediaProxyUrls).toBe(true);
    const found = await gql('{ mediaProxyBans(query: "CDN") { totalCount edges { node } } }');
    expect(found.data.mediaProxyBans).toEqual({ totalCount: 1, edges: [{ node: "https://cdn.example/a.png" }] });
    expect((await gql('mutation { unbanMediaProxyUrls(urls: ["https://cdn.example/a.png"]) }')).data.unbanMediaProxyUrls).toBe(true);
    expect((await db.mediaProxyBan.findMany()).map((b) => b.url)).toEqual(["https://other.example/b.png"]);
  });

  test("guards: moderators lack these privileges and roles by default, users are refused, admin scopes are needed", async () => {
    const requests = [
      "{ adminInvites { id } }",
      "mutation { createInvite { id } }",
      "{ adminRelays { actor } }",
      'mutation { followRelay(relayUrl: "https://g.example/r") { actor } }',
      "{ adminOAuthApps { totalCount } }",
      "{ adminAnnouncements { totalCount } }",
      'mutation { createAnnouncement(content: "no") { id } }',
      "{ mediaProxyBans { totalCount } }",
      'mutation { purgeMediaProxyUrls(urls: ["https://g.example/x"]) }',
    ];
    for (const query of requests) {
      for (const who of ["mo", "joe", "adaRead"]) {
        const res = await gql(query, {}, who);
        expect(res.errors?.[0]?.message, `${query} as ${who}`).toMatch(/not authorized/i);
      }
    }
    expect(await db.relay.count({ where: { actor: "https://g.example/r" } })).toBe(0);
    expect(await db.announcement.count({ where: { content: "no" } })).toBe(0);
    expect(await db.mediaProxyBan.count({ where: { url: "https://g.example/x" } })).toBe(0);
  });
});
