// The ActivityStreams documents a server publishes about its accounts and statuses, fetched over HTTP
// from an in-process server: actors (every kind, service actors, deactivated), collections (outbox,
// followers/following with the family's hiding, featured, featured tags), statuses and activities by
// visibility, and the same URLs for browsers (HTML pages, redirects).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const BASE = "http://localhost:4000";
const AP = { accept: "application/activity+json" };
/** Fedify compacts the public collection to `as:Public` (peers read all three spellings). */
const PUBLIC = expect.stringMatching(/^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/);
const LD = { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };

let server: TestServer;
let alice: { id: string; token: string };
let bob: { id: string; token: string };

async function getJson(path: string, headers: Record<string, string> = AP) {
  const res = await server.fetch(path, { headers });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: text ? JSON.parse(text) : null };
}

async function post(token: string, body: Record<string, unknown>) {
  const res = await server.fetch("/api/v1/statuses", { headers: { authorization: `Bearer ${token}` }, json: body });
  if (res.status !== 200) throw new Error(`post: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; uri: string; url: string };
}

async function action(token: string, path: string) {
  const res = await server.fetch(path, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function remoteAccount(nickname: string, host: string) {
  const apId = `https://${host}/users/${nickname}`;
  return server.services.db.account.create({
    data: { id: newId(), nickname: `${nickname}@${host}`, domain: host, local: false, apId, inbox: `${apId}/inbox`, sharedInbox: `https://${host}/inbox` },
  });
}

async function follow(followerId: string, followingId: string) {
  await server.services.db.follow.create({ data: { id: newId(), followerId, followingId, state: "accept" } });
}

async function setAuthorizedFetch(on: boolean) {
  await server.services.db.configEntry.upsert({
    where: { group_key: { group: "activitypub", key: "authorized_fetch_mode" } },
    create: { group: "activitypub", key: "authorized_fetch_mode", value: on },
    update: { value: on },
  });
  await server.services.config.reload();
}

beforeAll(async () => {
  server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true" });
  for (const nick of ["alice", "bob"]) {
    const account = await server.createUser(nick);
    const { access_token } = await passwordToken(server, nick);
    (nick === "alice" ? (v: typeof alice) => (alice = v) : (v: typeof bob) => (bob = v))({ id: account.id, token: access_token });
  }
}, 60_000);
afterAll(() => server?.close());

describe("actors", () => {
  test("a local account is a Person with every collection, both keys, profile fields, images, emoji and the family's extensions", async () => {
    const moved = await remoteAccount("newhome", "elsewhere.example");
    await server.services.db.account.update({
      where: { id: alice.id },
      data: {
        displayName: "Alice :blob:",
        note: "I <3 cats\nand dogs",
        fields: [{ name: "Site", value: "https://alice.example & more" }],
        emojis: [{ shortcode: "blob", url: `${BASE}/emoji/packs/blobs/blob.png` }],
        avatar: `${BASE}/media/1/avatar.png`,
        locked: true,
        discoverable: false,
        alsoKnownAs: ["https://old.example/users/alice"],
        movedToId: moved.id,
        acceptsChatMessages: false,
      },
    });
    try {
      const { status, type, body: actor } = await getJson("/users/alice");
      expect(status).toBe(200);
      expect(type).toMatch(/^application\/activity\+json/);
      const id = `${BASE}/users/alice`;
      expect(actor).toMatchObject({
        id,
        type: "Person",
        preferredUsername: "alice",
        name: "Alice :blob:",
        summary: "<p>I &#60;3 cats<br/>and dogs</p>",
        url: id,
        inbox: `${id}/inbox`,
        outbox: `${id}/outbox`,
        followers: `${id}/followers`,
        following: `${id}/following`,
        featured: `${id}/collections/featured`,
        featuredTags: `${id}/collections/tags`,
        endpoints: { sharedInbox: `${BASE}/inbox`, oauthAuthorizationEndpoint: `${BASE}/oauth/authorize`, oauthTokenEndpoint: `${BASE}/oauth/token` },
        publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: expect.stringContaining("BEGIN PUBLIC KEY") },
        manuallyApprovesFollowers: true,
        discoverable: false,
        alsoKnownAs: "https://old.example/users/alice",
        movedTo: "https://elsewhere.example/users/newhome",
        icon: { type: "Image", url: `${BASE}/media/1/avatar.png`, mediaType: "image/png" },
        tag: { type: "Emoji", name: ":blob:", icon: { type: "Image", url: `${BASE}/emoji/packs/blobs/blob.png`, mediaType: "image/png" } },
        attachment: { type: "PropertyValue", name: "Site", value: "<p>https://alice.example &#38; more</p>" },
        capabilities: { acceptsChatMessages: false },
        webfinger: "acct:alice@localhost:4000",
      });
      // no header set: no image (the family publishes no default images)
      expect(actor.image).toBeUndefined();
      // Ed25519 (and RSA) multikeys for RFC 9421 and object integrity proofs
      const multikeys = [actor.assertionMethod].flat();
      expect(multikeys.map((k: { type: string; controller: string }) => [k.type, k.controller])).toContainEqual(["Multikey", id]);
      expect(multikeys.some((k: { publicKeyMultibase: string }) => k.publicKeyMultibase.startsWith("z6Mk"))).toBe(true);
      // the extensions' terms are defined in the document's context
      expect(actor["@context"]).toContainEqual(expect.objectContaining({ capabilities: "litepub:capabilities", webfinger: "litepub:webfinger" }));
      // the ActivityPub media type with profile is answered too
      expect((await getJson("/users/alice", LD)).body.id).toBe(id);
    } finally {
      await server.services.db.account.update({ where: { id: alice.id }, data: { locked: false, discoverable: true, movedToId: null, alsoKnownAs: [], avatar: null, fields: [], emojis: [], note: "", displayName: "" } });
    }
  });

  test.each([
    ["Service", "Service"],
    ["Group", "Group"],
    ["Application", "Application"],
    ["Organization", "Organization"],
  ] as const)("actor_type %s is published as %s", async (actorType, type) => {
    const nick = `kind${actorType.toLowerCase()}`;
    const account = await server.createUser(nick);
    await server.services.db.account.update({ where: { id: account.id }, data: { actorType } });
    const { body } = await getJson(`/users/${nick}`);
    expect(body.type).toBe(type);
    expect(body.inbox).toBe(`${BASE}/users/${nick}/inbox`);
  });

  test("a deactivated account is 410 Gone with a Tombstone; an unknown one is 404", async () => {
    const gone = await server.createUser("gone");
    await server.services.db.account.update({ where: { id: gone.id }, data: { deactivated: true } });
    const { status, body } = await getJson("/users/gone");
    expect(status).toBe(410);
    expect(body).toMatchObject({ id: `${BASE}/users/gone`, type: "Tombstone", formerType: expect.stringMatching(/^(as:)?Person$/) });
    expect((await server.fetch("/users/nobody", { headers: AP })).status).toBe(404);
  });

  test.each([
    ["/internal/fetch", "internal.fetch"],
    ["/users/internal.fetch", "internal.fetch"],
    ["/relay", "internal.relay"],
  ])("the service actor at %s is an Application with keys (%s)", async (path, username) => {
    const { status, body } = await getJson(path);
    expect(status).toBe(200);
    const id = `${BASE}${username === "internal.fetch" ? "/internal/fetch" : "/relay"}`;
    expect(body).toMatchObject({ id, type: "Application", preferredUsername: username, inbox: expect.any(String), outbox: expect.any(String), publicKey: { id: `${id}#main-key`, owner: id } });
    const outbox = await getJson(new URL(body.outbox).pathname);
    expect(outbox.body).toMatchObject({ type: "OrderedCollection", totalItems: 0 });
  });
});

describe("collections", () => {
  let publicPost: { id: string; uri: string };
  let unlistedPost: { id: string; uri: string };
  let privatePost: { id: string; uri: string };
  let directPost: { id: string; uri: string };
  let localPost: { id: string; uri: string };
  let reblog: { id: string; uri: string };
  let poll: { id: string; uri: string };

  beforeAll(async () => {
    publicPost = await post(alice.token, { status: "hello #fediverse @bob", visibility: "public" });
    unlistedPost = await post(alice.token, { status: "quiet", visibility: "unlisted" });
    privatePost = await post(alice.token, { status: "followers only", visibility: "private" });
    directPost = await post(alice.token, { status: "@bob secret", visibility: "direct" });
    localPost = await post(alice.token, { status: "just here", visibility: "local" });
    poll = await post(alice.token, { status: "which?", poll: { options: ["a", "b"], expires_in: 3600 } });
    const bobs = await post(bob.token, { status: "bob's post" });
    reblog = (await action(alice.token, `/api/v1/statuses/${bobs.id}/reblog`)) as { id: string; uri: string };
    await action(alice.token, `/api/v1/statuses/${publicPost.id}/pin`);
  }, 60_000);

  test("the outbox is a paged OrderedCollection of public and unlisted Creates and Announces, newest first", async () => {
    const { body: outbox } = await getJson("/users/alice/outbox");
    expect(outbox).toMatchObject({ id: `${BASE}/users/alice/outbox`, type: "OrderedCollection", totalItems: 4, first: `${BASE}/users/alice/outbox?cursor=` });
    const { body: page } = await getJson("/users/alice/outbox?cursor=");
    expect(page).toMatchObject({ type: "OrderedCollectionPage", partOf: `${BASE}/users/alice/outbox` });
    const items = page.orderedItems as { id: string; type: string; object: any }[];
    expect(items.map((i) => [i.type, i.id])).toEqual([
      ["Announce", reblog.uri],
      ["Create", `${poll.uri}/activity`],
      ["Create", `${unlistedPost.uri}/activity`],
      ["Create", `${publicPost.uri}/activity`],
    ]);
    expect(items[0]!.object).toBe((await server.services.db.status.findUniqueOrThrow({ where: { id: reblog.id }, include: { reblogOf: true } })).reblogOf!.uri);
    expect(items[1]!.object).toMatchObject({ type: "Question", oneOf: [{ type: "Note", name: "a" }, { type: "Note", name: "b" }] });
    const note = items[3]!.object;
    expect(note).toMatchObject({
      id: publicPost.uri,
      type: "Note",
      attributedTo: `${BASE}/users/alice`,
      to: PUBLIC,
      cc: expect.arrayContaining([`${BASE}/users/alice/followers`, `${BASE}/users/bob`]),
    });
    expect(note.tag).toEqual(expect.arrayContaining([expect.objectContaining({ type: "Mention", href: `${BASE}/users/bob` }), expect.objectContaining({ type: "Hashtag", name: "#fediverse" })]));
    for (const hidden of [privatePost, directPost, localPost]) expect(JSON.stringify(page)).not.toContain(hidden.uri);
  });

  test("outbox pages follow each other (next) and cost a constant number of statements", async () => {
    const many = await server.createUser("prolific");
    const { access_token } = await passwordToken(server, "prolific");
    for (let i = 0; i < 25; i++) await post(access_token, { status: `post ${i}` });
    const first = await server.countQueries(() => getJson("/users/prolific/outbox?cursor="));
    expect(first.result.body.orderedItems).toHaveLength(20);
    const next = new URL(first.result.body.next);
    const second = await getJson(next.pathname + next.search);
    expect(second.body.orderedItems).toHaveLength(5);
    expect(second.body.next).toBeUndefined();
    const small = await server.countQueries(() => getJson(next.pathname + next.search));
    expect(first.queries).toBe(small.queries);
    expect(many.id).toBeTruthy();
  });

  test("followers and following list actor ids; hidden lists show their count only, hidden counts show nothing", async () => {
    const carol = await remoteAccount("carol", "remote.example");
    const dave = await remoteAccount("dave", "other.example");
    await follow(carol.id, alice.id);
    await follow(bob.id, alice.id);
    await follow(alice.id, dave.id);
    const followers = await getJson("/users/alice/followers");
    expect(followers.body).toMatchObject({ type: "OrderedCollection", totalItems: 2 });
    const page = await getJson("/users/alice/followers?cursor=");
    expect([page.body.orderedItems].flat().sort()).toEqual([`${BASE}/users/bob`, carol.apId].sort());
    expect([(await getJson("/users/alice/following?cursor=")).body.orderedItems].flat()).toEqual([dave.apId]);

    await server.services.db.account.update({ where: { id: alice.id }, data: { hideFollowers: true, hideFollows: true } });
    expect((await getJson("/users/alice/followers")).body.totalItems).toBe(2);
    expect((await getJson("/users/alice/followers?cursor=")).body.orderedItems).toBeUndefined();
    expect((await getJson("/users/alice/following")).body.totalItems).toBe(1);
    expect((await getJson("/users/alice/following?cursor=")).body.orderedItems).toBeUndefined();

    await server.services.db.account.update({ where: { id: alice.id }, data: { hideFollowersCount: true, hideFollowsCount: true } });
    expect((await getJson("/users/alice/followers")).body.totalItems).toBeUndefined();
    expect((await getJson("/users/alice/following")).body.totalItems).toBeUndefined();

    // a hidden count alone does not hide a visible list (its length is the count), as in the family
    await server.services.db.account.update({ where: { id: alice.id }, data: { hideFollowers: false, hideFollows: false } });
    expect((await getJson("/users/alice/followers")).body.totalItems).toBe(2);
    await server.services.db.account.update({ where: { id: alice.id }, data: { hideFollowersCount: false, hideFollowsCount: false } });
  });

  test("the featured collection holds the pinned statuses as objects; featured tags is empty", async () => {
    const { body } = await getJson("/users/alice/collections/featured");
    expect(body).toMatchObject({ type: "OrderedCollection", totalItems: 1 });
    expect([body.orderedItems].flat()).toEqual([expect.objectContaining({ id: publicPost.uri, type: "Note" })]);
    const tags = await getJson("/users/alice/collections/tags");
    expect(tags.body).toMatchObject({ type: "OrderedCollection", totalItems: 0 });
  });

  test("statuses and activities are served at their ids by visibility: public and unlisted to anyone, never local, others not unsigned", async () => {
    expect((await getJson(new URL(publicPost.uri).pathname)).body).toMatchObject({ id: publicPost.uri, type: "Note", content: expect.stringContaining("hello") });
    expect((await getJson(new URL(unlistedPost.uri).pathname)).body).toMatchObject({ type: "Note", to: `${BASE}/users/alice/followers`, cc: PUBLIC });
    expect((await getJson(new URL(poll.uri).pathname)).body.type).toBe("Question");
    expect((await getJson(`${new URL(publicPost.uri).pathname}/activity`)).body).toMatchObject({ type: "Create", id: `${publicPost.uri}/activity`, object: { id: publicPost.uri } });
    expect((await getJson(new URL(reblog.uri).pathname)).body).toMatchObject({ type: "Announce", id: reblog.uri, actor: `${BASE}/users/alice` });
    for (const hidden of [privatePost, directPost, localPost]) {
      expect((await server.fetch(new URL(hidden.uri).pathname, { headers: AP })).status).toBe(404);
      expect((await server.fetch(`${new URL(hidden.uri).pathname}/activity`, { headers: AP })).status).toBe(404);
    }
  });
});

describe("the same URLs for browsers", () => {
  let status: { id: string; uri: string; url: string };
  beforeAll(async () => {
    await server.services.db.account.update({ where: { id: bob.id }, data: { displayName: "<script>alert(1)</script>Bob", note: "bio & <b>stuff</b>" } });
    status = await post(bob.token, { status: "a page <i>for</i> browsers" });
  });

  test("/@nickname and /users/nickname are an HTML page naming the actor as its ActivityStreams alternate, everything escaped", async () => {
    for (const path of ["/@bob", "/users/bob"]) {
      const res = await server.fetch(path, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain(`<link rel="alternate" type="application/activity+json" href="${BASE}/users/bob">`);
      expect(html).not.toContain("<script>");
      expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;Bob");
      expect(html).toContain("bio &#38; &#60;b&#62;stuff&#60;/b&#62;");
      expect(html).toContain("a page &lt;i&gt;for&lt;/i&gt; browsers");
    }
  });

  test("ActivityStreams clients asking at /@nickname and /notice/:id are redirected to the ActivityPub ids", async () => {
    const at = await server.fetch("/@bob", { headers: AP });
    expect(at.status).toBe(302);
    expect(at.headers.get("location")).toBe(`${BASE}/users/bob`);
    const notice = await server.fetch(`/notice/${status.id}`, { headers: LD });
    expect(notice.status).toBe(302);
    expect(notice.headers.get("location")).toBe(status.uri);
  });

  test("/notice/:id is the status's page; /objects/:id in a browser goes there; hidden statuses are 404", async () => {
    const res = await server.fetch(`/notice/${status.id}`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<link rel="alternate" type="application/activity+json" href="${status.uri}">`);
    expect(html).toContain("a page &lt;i&gt;for&lt;/i&gt; browsers");
    const object = await server.fetch(new URL(status.uri).pathname, { headers: { accept: "text/html" } });
    expect(object.status).toBe(302);
    expect(object.headers.get("location")).toBe(`${BASE}/notice/${status.id}`);
    const secret = await post(bob.token, { status: "psst", visibility: "private" });
    expect((await server.fetch(`/notice/${secret.id}`, { headers: { accept: "text/html" } })).status).toBe(404);
    expect((await server.fetch(new URL(secret.uri).pathname, { headers: { accept: "text/html" } })).status).toBe(404);
    expect((await server.fetch("/@nobody", { headers: { accept: "text/html" } })).status).toBe(404);
  });
});

describe("authorized fetch", () => {
  test("when on, unsigned fetches of objects and collections are 401 while actors stay served; off again, they are served", async () => {
    const status = await post(bob.token, { status: "fetch me" });
    const paths = [new URL(status.uri).pathname, `${new URL(status.uri).pathname}/activity`, "/users/bob/outbox", "/users/bob/followers", "/users/bob/following", "/users/bob/collections/featured"];
    await setAuthorizedFetch(true);
    try {
      for (const path of paths) expect([path, (await server.fetch(path, { headers: AP })).status]).toEqual([path, 401]);
      expect((await server.fetch("/users/bob", { headers: AP })).status).toBe(200);
      expect((await server.fetch("/internal/fetch", { headers: AP })).status).toBe(200);
    } finally {
      await setAuthorizedFetch(false);
    }
    for (const path of paths) expect([path, (await server.fetch(path, { headers: AP })).status]).toEqual([path, 200]);
  });
});
