// The reference API's newer account and status features through `masto`, as clients use them:
// endorsements, familiar followers, profile image removal, identity proofs, the reblog wrapper's
// flags, statuses_count, translation without a backend, followed hashtags.
import { createRestAPIClient } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { openStream } from "../streaming/helpers.ts";

type Client = ReturnType<typeof createRestAPIClient>;

describe("the reference API's newer parts through masto", () => {
  let server: TestServer;
  let ann: Client;
  let bob: Client;
  let cid: string;
  let bobId: string;
  let dan: { id: string };

  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("ann");
    bobId = (await server.createUser("bob")).id;
    cid = (await server.createUser("cid")).id;
    dan = await server.createUser("dan");
    ann = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "ann")).access_token });
    bob = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "bob")).access_token });
  });
  afterAll(() => server?.close());

  test("endorsements: pin/endorse a followed account, list them, unpin/unendorse", async () => {
    // not followed yet: refused
    await expect(ann.v1.accounts.$select(cid).pin()).rejects.toMatchObject({ statusCode: 422 });
    await ann.v1.accounts.$select(cid).follow();
    await ann.v1.accounts.$select(dan.id).follow();
    expect(await ann.v1.accounts.$select(cid).pin()).toMatchObject({ id: cid, endorsed: true, following: true });
    expect(await ann.v1.accounts.$select(dan.id).endorse()).toMatchObject({ id: dan.id, endorsed: true });

    expect((await ann.v1.endorsements.list()).map((a) => a.username)).toEqual(["dan", "cid"]);
    const me = await ann.v1.accounts.verifyCredentials();
    // anyone sees whom a profile features, under both paths
    expect((await bob.v1.accounts.$select(me.id).endorsements.list()).map((a) => a.username)).toEqual(["dan", "cid"]);
    const family = await server.fetch(`/api/v1/ext/accounts/${me.id}/endorsements`);
    expect(((await family.json()) as { acct: string }[]).map((a) => a.acct)).toEqual(["dan", "cid"]);

    expect(await ann.v1.accounts.$select(cid).unpin()).toMatchObject({ endorsed: false });
    expect(await ann.v1.accounts.$select(dan.id).unendorse()).toMatchObject({ endorsed: false });
    expect(await ann.v1.endorsements.list()).toEqual([]);
    // unfollowing drops an endorsement too
    await ann.v1.accounts.$select(cid).pin();
    await ann.v1.accounts.$select(cid).unfollow();
    expect(await ann.v1.endorsements.list()).toEqual([]);
  });

  test("familiar followers: the accounts I follow that follow them", async () => {
    await ann.v1.accounts.$select(bobId).follow();
    await bob.v1.accounts.$select(dan.id).follow();
    // masto types the parameter as a bare array, which it sends as `[]=…`; the reference API's parameter is `id[]`
    const found = await ann.v1.accounts.familiarFollowers.fetch({ id: [dan.id, cid] } as never);
    expect(found).toEqual([
      { id: dan.id, accounts: [expect.objectContaining({ id: bobId, acct: "bob" })] },
      { id: cid, accounts: [] },
    ]);
  });

  test("removing the profile's avatar and header", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await bob.v1.accounts.updateCredentials({ avatar: new Blob([png], { type: "image/png" }), header: new Blob([png], { type: "image/png" }) });
    expect((await server.services.db.account.findUniqueOrThrow({ where: { id: bobId } })).avatar).not.toBeNull();
    const noAvatar = await bob.v1.profile.avatar.remove();
    expect(noAvatar).toMatchObject({ id: bobId, source: expect.any(Object) });
    const noHeader = await bob.v1.profile.header.remove();
    expect(noHeader).toMatchObject({ id: bobId });
    expect(await server.services.db.account.findUniqueOrThrow({ where: { id: bobId } })).toMatchObject({ avatar: null, header: null });
  });

  test("identity proofs are an empty list", async () => {
    expect(await ann.v1.accounts.$select(bobId).identityProofs.list()).toEqual([]);
  });

  test("the reblog wrapper carries the viewer's reblogged flag", async () => {
    const post = await bob.v1.statuses.create({ status: "worth sharing" });
    const wrapper = await ann.v1.statuses.$select(post.id).reblog();
    expect(wrapper).toMatchObject({ reblogged: true, reblog: { id: post.id, reblogged: true } });
    const home = await ann.v1.timelines.home.list();
    expect(home.find((s) => s.id === wrapper.id)).toMatchObject({ reblogged: true, reblog: { reblogged: true } });
    // another viewer did not reblog it
    const fetched = await bob.v1.statuses.$select(wrapper.id).fetch();
    expect(fetched).toMatchObject({ reblogged: false, reblog: { reblogged: false } });
  });

  test("statuses_count follows posts and deletions, as a profile shows it", async () => {
    const cidClient = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "cid")).access_token });
    const count = async () => (await cidClient.v1.accounts.verifyCredentials()).statusesCount;
    expect(await count()).toBe(0);
    const first = await cidClient.v1.statuses.create({ status: "one" });
    await cidClient.v1.statuses.create({ status: "two", visibility: "unlisted" });
    await cidClient.v1.statuses.create({ status: "for my followers", visibility: "private" });
    expect(await count()).toBe(2);
    // another client's view of the profile and of the author of a status agree
    expect((await ann.v1.accounts.$select(cid).fetch()).statusesCount).toBe(2);
    expect((await ann.v1.statuses.$select(first.id).fetch()).account.statusesCount).toBe(2);
    await cidClient.v1.statuses.$select(first.id).remove();
    expect(await count()).toBe(1);
    expect((await ann.v1.accounts.$select(cid).fetch()).statusesCount).toBe(1);
  });

  test("translation without a backend is 404; an invisible status too", async () => {
    const post = await bob.v1.statuses.create({ status: "hallo welt", language: "de" });
    await expect(ann.v1.statuses.$select(post.id).translate({ lang: "en" })).rejects.toMatchObject({ statusCode: 404, message: expect.stringContaining("not available") });
    const secret = await bob.v1.statuses.create({ status: "just me", visibility: "direct" });
    await expect(ann.v1.statuses.$select(secret.id).translate({ lang: "en" })).rejects.toMatchObject({ statusCode: 404, message: "Record not found" });
  });

  test("followed hashtags: follow, list, and their public statuses in the home timeline and the user stream", async () => {
    const eve = await server.createUser("eve");
    const eveToken = (await passwordToken(server, "eve")).access_token;
    const eveClient = createRestAPIClient({ url: server.url, accessToken: eveToken });
    const dana = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "dan")).access_token });
    await dana.v1.statuses.create({ status: "an early #Cats picture" });

    const tag = await eveClient.v1.tags.$select("cats").fetch();
    expect(tag).toMatchObject({ name: "cats", url: expect.stringContaining("/tag/cats"), history: [], following: false });
    await expect(eveClient.v1.tags.$select("neverused").fetch()).rejects.toMatchObject({ statusCode: 404 });

    const stream = await openStream(server, `/api/v1/streaming?stream=user&access_token=${eveToken}`);
    try {
      expect(await eveClient.v1.tags.$select("Cats").follow()).toMatchObject({ name: "cats", following: true });
      expect(await eveClient.v1.tags.$select("dogs").follow()).toMatchObject({ name: "dogs", following: true });
      expect((await eveClient.v1.followedTags.list()).map((t) => t.name)).toEqual(["dogs", "cats"]);

      // eve follows nobody: tagged public statuses reach her home timeline and stream all the same
      const tagged = await dana.v1.statuses.create({ status: "more #cats for everyone" });
      await dana.v1.statuses.create({ status: "#cats only for followers", visibility: "private" });
      await dana.v1.statuses.create({ status: "no tag at all" });
      await stream.status("more #cats for everyone");
      const home = await eveClient.v1.timelines.home.list();
      expect(home.map((s) => s.id)).toContain(tagged.id);
      expect(home.map((s) => s.content).join(" ")).not.toMatch(/only for followers|no tag at all/);
      expect(stream.hasStatus("only for followers")).toBe(false);

      expect(await eveClient.v1.tags.$select("cats").unfollow()).toMatchObject({ following: false });
      expect((await eveClient.v1.followedTags.list()).map((t) => t.name)).toEqual(["dogs"]);
      const later = await dana.v1.statuses.create({ status: "#cats after unfollowing" });
      expect((await eveClient.v1.timelines.home.list()).map((s) => s.id)).not.toContain(later.id);
      expect(await server.services.db.followedTag.count({ where: { accountId: eve.id } })).toBe(1);
    } finally {
      stream.ws.close();
    }
  });

  test("featured tags: feature, suggestions, on the profile and in the actor's featured-tags collection", async () => {
    await ann.v1.statuses.create({ status: "#gardening today" });
    await ann.v1.statuses.create({ status: "#gardening again, and #bread" });
    const suggestions = await ann.v1.featuredTags.suggestions.list();
    expect(suggestions.map((t) => t.name)).toEqual(["gardening", "bread"]);

    const featured = await ann.v1.featuredTags.create({ name: "Gardening" });
    expect(featured).toMatchObject({ id: expect.any(String), name: "gardening", url: expect.stringContaining("/tag/gardening"), statusesCount: "2", lastStatusAt: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    await expect(ann.v1.featuredTags.create({ name: "gardening" })).rejects.toMatchObject({ statusCode: 422 });
    expect((await ann.v1.featuredTags.suggestions.list()).map((t) => t.name)).toEqual(["bread"]);
    expect((await ann.v1.featuredTags.list()).map((t) => t.name)).toEqual(["gardening"]);
    const me = await ann.v1.accounts.verifyCredentials();
    expect((await bob.v1.accounts.$select(me.id).featuredTags.list()).map((t) => t.name)).toEqual(["gardening"]);

    const actor = (await (await server.fetch("/users/ann", { headers: { accept: "application/activity+json" } })).json()) as { featured_tags?: string; featuredTags?: string };
    const collectionUrl = actor.featuredTags ?? actor.featured_tags;
    expect(collectionUrl).toBeTruthy();
    const collection = (await (await server.fetch(new URL(collectionUrl!).pathname, { headers: { accept: "application/activity+json" } })).json()) as { totalItems: number; orderedItems?: unknown[]; items?: unknown[] };
    expect(collection.totalItems).toBe(1);
    expect(collection.orderedItems ?? collection.items).toEqual([expect.objectContaining({ type: "Hashtag", name: "#gardening", href: expect.stringContaining("/tag/gardening") })]);

    await ann.v1.featuredTags.$select(featured.id).remove();
    expect(await ann.v1.featuredTags.list()).toEqual([]);
    await expect(bob.v1.featuredTags.$select(featured.id).remove()).rejects.toMatchObject({ statusCode: 404 });
  });
});
