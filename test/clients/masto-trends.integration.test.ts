// Trends through an outside client (masto.js): hashtags and statuses computed from the week's local and
// federated activity, links (none), their review through the reference admin API (approve / reject,
// the moderation log, who may), and the privacy policy document.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { admin, moderator, user } from "../support/actors.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

type Client = ReturnType<typeof createRestAPIClient>;

const DAY = 24 * 3600;
const dayString = expect.stringMatching(/^\d+$/);

function expectHistory(history: mastodon.v1.TagHistory[] | null | undefined) {
  expect(history).toHaveLength(7);
  for (const d of history!) expect(d).toEqual({ day: dayString, uses: expect.stringMatching(/^\d+$/), accounts: expect.stringMatching(/^\d+$/) });
  // newest first, one day apart, starting today (UTC midnight)
  const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
  expect(history!.map((d) => Number(d.day))).toEqual(Array.from({ length: 7 }, (_, i) => today - i * DAY));
}

describe.each(suiteKinds(import.meta.url))("trends through masto (%s)", (kind) => {
  let server: TestServer;
  const clients: Record<string, Client> = {};
  let anonymous: Client;
  const posts: Record<string, mastodon.v1.Status> = {};

  beforeAll(async () => {
    server = await startTestServer(kind);
    const staff = [await admin(server, "root", "read write admin"), await moderator(server, "mod", "read write admin")];
    for (const who of [...staff, await user(server, "ann"), await user(server, "bob"), await user(server, "cid")]) clients[who.nickname] = createRestAPIClient({ url: server.url, accessToken: who.token });
    anonymous = createRestAPIClient({ url: server.url });

    posts.ann = await clients.ann!.v1.statuses.create({ status: "#cats and #dogs" });
    posts.bob = await clients.bob!.v1.statuses.create({ status: "more #Cats" });
    // not public: does not trend
    await clients.cid!.v1.statuses.create({ status: "#secret #cats", visibility: "private" });
    await clients.cid!.v1.statuses.create({ status: "#secret", visibility: "unlisted" });

    // a federated post using #cats and #birds
    const db = server.services.db;
    const remote = await db.account.create({ data: { id: newId(), nickname: "rem@remote.example", domain: "remote.example", local: false, apId: "https://remote.example/users/rem" } });
    const remoteStatus = await db.status.create({
      data: { id: newId(), uri: "https://remote.example/objects/1", accountId: remote.id, local: false, content: "<p>#cats #birds</p>", visibility: "public", context: "https://remote.example/ctx/1" },
    });
    for (const name of ["cats", "birds"]) {
      const tag = await db.tag.upsert({ where: { name }, create: { id: newId(), name }, update: {} });
      await db.statusTag.create({ data: { statusId: remoteStatus.id, tagId: tag.id } });
    }

    // interactions: ann's post 3 (2 favourites, 1 reblog), bob's 1
    await clients.bob!.v1.statuses.$select(posts.ann.id).favourite();
    await clients.cid!.v1.statuses.$select(posts.ann.id).favourite();
    await clients.cid!.v1.statuses.$select(posts.ann.id).reblog();
    await clients.ann!.v1.statuses.$select(posts.bob.id).favourite();
  });
  afterAll(() => server?.close());

  test("trending hashtags: ranked by distinct accounts of the week's public posts, with a daily history", async () => {
    const trending = await anonymous.v1.trends.tags.list();
    expect(trending.map((t) => t.name)).toEqual(["cats", "birds", "dogs"]);
    const [cats] = trending;
    expect(cats).toEqual({ id: expect.any(String), name: "cats", url: "http://localhost:4000/tag/cats", history: expect.any(Array) });
    expectHistory(cats!.history);
    expect(cats!.history![0]).toMatchObject({ uses: "3", accounts: "3" });
    expect(cats!.history!.slice(1).every((d) => d.uses === "0")).toBe(true);

    // limit and offset; the Link header pages on
    const first = await server.fetch("/api/v1/trends/tags?limit=2");
    expect((await first.json()).map((t: { name: string }) => t.name)).toEqual(["cats", "birds"]);
    expect(first.headers.get("link")).toContain("offset=2");
    expect((await (await server.fetch("/api/v1/trends/tags?limit=2&offset=2")).json()).map((t: { name: string }) => t.name)).toEqual(["dogs"]);
    // the older path answers the same list
    expect((await (await server.fetch("/api/v1/trends")).json()).map((t: { name: string }) => t.name)).toEqual(["cats", "birds", "dogs"]);

    // a signed-in viewer sees whether it follows each
    await clients.ann!.v1.tags.$select("dogs").follow();
    const seen = await clients.ann!.v1.trends.tags.list();
    expect(seen.map((t) => [t.name, t.following])).toEqual([["cats", false], ["birds", false], ["dogs", true]]);
  });

  test("trending statuses: the week's public posts by favourites and reblogs; mutes and blocks hide them for the viewer", async () => {
    const trending = await anonymous.v1.trends.statuses.list();
    expect(trending.map((s) => s.id)).toEqual([posts.ann!.id, posts.bob!.id]);
    expect(trending[0]).toMatchObject({ id: posts.ann!.id, favouritesCount: 2, reblogsCount: 1, account: expect.objectContaining({ acct: "ann" }) });

    await clients.cid!.v1.accounts.$select(trending[0]!.account.id).mute();
    expect((await clients.cid!.v1.trends.statuses.list()).map((s) => s.id)).toEqual([posts.bob!.id]);
    expect((await clients.cid!.v1.trends.statuses.list()).every((s) => s.favourited !== undefined)).toBe(true);
    expect((await anonymous.v1.trends.statuses.list({ limit: 1, offset: 1 } as never)).map((s) => s.id)).toEqual([posts.bob!.id]);
  });

  test("trending links: empty (no preview cards are fetched)", async () => {
    expect(await anonymous.v1.trends.links.list()).toEqual([]);
    expect(await clients.root!.v1.admin.trends.links.list()).toEqual([]);
  });

  test("review through the admin API: rejected items leave the public trends, approved ones are marked; each review is logged", async () => {
    const listed = await clients.root!.v1.admin.trends.tags.list();
    expect(listed.map((t) => t.name)).toEqual(["cats", "birds", "dogs"]);
    for (const t of listed) expect(t).toEqual({ id: expect.any(String), name: t.name, url: expect.any(String), history: expect.any(Array), trendable: false, usable: true, requiresReview: true });
    expectHistory(listed[0]!.history);
    const [cats, , dogs] = listed;

    const rejected = await clients.mod!.v1.admin.trends.tags.$select(cats!.id).reject();
    expect(rejected).toMatchObject({ id: cats!.id, name: "cats", trendable: false, requiresReview: false });
    const approved = await clients.root!.v1.admin.trends.tags.$select(dogs!.id).approve();
    expect(approved).toMatchObject({ id: dogs!.id, name: "dogs", trendable: true, requiresReview: false });
    expect((await anonymous.v1.trends.tags.list()).map((t) => t.name)).toEqual(["birds", "dogs"]);
    // staff still see it, reviewed
    expect((await clients.root!.v1.admin.trends.tags.list()).map((t) => [t.name, t.trendable, t.requiresReview])).toEqual([
      ["cats", false, false],
      ["birds", false, true],
      ["dogs", true, false],
    ]);
    // approving after rejecting brings it back
    await clients.root!.v1.admin.trends.tags.$select(cats!.id).approve();
    expect((await anonymous.v1.trends.tags.list()).map((t) => t.name)).toEqual(["cats", "birds", "dogs"]);

    const status = await clients.root!.v1.admin.trends.statuses.$select(posts.ann!.id).reject();
    expect(status).toMatchObject({ id: posts.ann!.id, content: expect.stringContaining("cats") });
    expect((await anonymous.v1.trends.statuses.list()).map((s) => s.id)).toEqual([posts.bob!.id]);
    expect((await clients.root!.v1.admin.trends.statuses.list()).map((s) => s.id)).toEqual([posts.ann!.id, posts.bob!.id]);

    const reviews = await server.services.db.trendReview.findMany({ orderBy: [{ kind: "asc" }, { targetId: "asc" }] });
    expect(reviews.map((r) => [r.kind, r.targetId, r.allowed])).toEqual(
      [
        ["status", posts.ann!.id, false],
        ["tag", cats!.id, true],
        ["tag", dogs!.id, true],
      ].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`)),
    );
    const log = (await server.services.db.moderationLogEntry.findMany({ orderBy: { id: "asc" } })).map((e) => e.message);
    expect(log).toEqual(["@mod rejected trending tag #cats", "@root approved trending tag #dogs", "@root approved trending tag #cats", `@root rejected trending status status ${posts.ann!.id}`]);

    // unknown targets, links, non-staff
    await expect(clients.root!.v1.admin.trends.tags.$select("nope").approve()).rejects.toMatchObject({ statusCode: 404 });
    await expect(clients.root!.v1.admin.trends.links.$select("1").approve()).rejects.toMatchObject({ statusCode: 404 });
    const user = await server.fetch("/api/v1/admin/trends/tags", { headers: { authorization: `Bearer ${(await passwordToken(server, "bob", "read write admin")).access_token}` } });
    expect(user.status).toBe(403);
  });

  test("privacy policy: the instance document, editable by admins", async () => {
    const policy = await (await server.fetch("/api/v1/instance/privacy_policy")).json();
    expect(policy).toEqual({ updated_at: "1970-01-01T00:00:00.000Z", content: expect.stringContaining("Privacy policy") });
    const form = new FormData();
    form.append("file", new Blob(["<p>We keep little.</p>"], { type: "text/html" }), "privacy.html");
    const rootToken = (await passwordToken(server, "root", "read write admin")).access_token;
    const put = await server.fetch("/api/v1/ext/admin/instance_document/privacy-policy", { method: "PATCH", body: form, headers: { authorization: `Bearer ${rootToken}` } });
    expect(put.status).toBe(200);
    const changed = await (await server.fetch("/api/v1/instance/privacy_policy")).json();
    expect(changed.content).toBe("<p>We keep little.</p>");
    expect(Date.parse(changed.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    const gql = await (await server.fetch("/graphql", { json: { query: "{ privacyPolicy }" } })).json();
    expect(gql.data.privacyPolicy).toBe("<p>We keep little.</p>");
  });

  test("GraphQL reaches the same trends and review", async () => {
    const gql = async (query: string, token?: string) =>
      (await server.fetch("/graphql", { json: { query }, headers: token ? { authorization: `Bearer ${token}` } : {} })).json();
    const rootToken = (await passwordToken(server, "root", "read write admin")).access_token;
    const bobToken = (await passwordToken(server, "bob", "read write admin")).access_token;
    const tags = await gql("{ trendingTags { id name following history { day uses accounts } } trendingStatuses { id } }");
    expect(tags.data.trendingTags.map((t: { name: string }) => t.name)).toEqual(["cats", "birds", "dogs"]);
    expect(tags.data.trendingTags[0]).toMatchObject({ following: null, history: expect.arrayContaining([expect.objectContaining({ uses: 3, accounts: 3 })]) });
    expect(tags.data.trendingStatuses.map((s: { id: string }) => s.id)).toEqual([posts.bob!.id]);

    const denied = await gql("{ adminTrendingTags { name } }", bobToken);
    expect(denied.errors?.[0]?.message).toBeTruthy();
    const birds = tags.data.trendingTags[1].id;
    const reviewed = await gql(`mutation { reviewTrendingTag(id: "${birds}", allowed: false) { name trendable requiresReview } }`, rootToken);
    expect(reviewed.data.reviewTrendingTag).toEqual({ name: "birds", trendable: false, requiresReview: false });
    expect((await anonymous.v1.trends.tags.list()).map((t) => t.name)).toEqual(["cats", "dogs"]);
    const staff = await gql("{ adminTrendingTags { name requiresReview } adminTrendingStatuses { id } }", rootToken);
    expect(staff.data.adminTrendingTags.map((t: { name: string }) => t.name)).toEqual(["cats", "birds", "dogs"]);
    expect(staff.data.adminTrendingStatuses.map((s: { id: string }) => s.id)).toEqual([posts.ann!.id, posts.bob!.id]);
  });
});
