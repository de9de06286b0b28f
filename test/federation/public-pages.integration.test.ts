// Public pages and feeds (issue 18, criterion 6), over HTTP as browsers, feed readers and servers ask:
// the landing page `/`, account and status pages with OpenGraph and rel="me" metadata at every address the
// family uses, the Atom and RSS feeds of an account and of a hashtag, and what an anonymous reader may not
// see (private, direct, local-only statuses) staying out of all of them.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const BASE = "http://localhost:4000";
const HTML = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
const AP = { accept: "application/activity+json" };

let server: TestServer;
let alice: { id: string; token: string };
const posts: Record<string, { id: string; uri: string; url: string }> = {};

async function post(token: string, body: Record<string, unknown>) {
  const res = await server.fetch("/api/v1/statuses", { headers: { authorization: `Bearer ${token}` }, json: body });
  if (res.status !== 200) throw new Error(`post: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; uri: string; url: string };
}

async function page(path: string, headers: Record<string, string> = HTML) {
  const res = await server.fetch(path, { headers });
  return { status: res.status, type: res.headers.get("content-type") ?? "", location: res.headers.get("location"), text: await res.text() };
}

/** A feed, checked well-formed, parsed; `entries` are Atom entries or RSS items. */
async function feed(path: string, headers: Record<string, string> = {}) {
  const res = await page(path, headers);
  expect(res.status, res.text).toBe(200);
  expect(XMLValidator.validate(res.text)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, htmlEntities: true, attributeNamePrefix: "@", isArray: (name) => name === "entry" || name === "item" || name === "link" }).parse(res.text);
  const entries: any[] = doc.feed?.entry ?? doc.rss?.channel?.item ?? [];
  return { type: res.type, doc, entries, text: res.text };
}

const meta = (html: string, key: string) => [...html.matchAll(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`, "g"))].map((m) => m[1]);

beforeAll(async () => {
  server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true" });
  const account = await server.createUser("alice");
  alice = { id: account.id, token: (await passwordToken(server, "alice")).access_token };
  await server.services.db.account.update({
    where: { id: alice.id },
    data: {
      displayName: "Alice <b>A</b>",
      note: "Cats & dogs. <script>x()</script>",
      fields: [
        { name: "Site", value: "https://alice.example/?a=1&b=2" },
        { name: "Other", value: " https://social.example/@me " },
        { name: "Mood", value: "fine" },
      ],
    },
  });
  posts.public = await post(alice.token, { status: "hello #Cats <3", visibility: "public" });
  posts.unlisted = await post(alice.token, { status: "quiet #cats", visibility: "unlisted" });
  posts.private = await post(alice.token, { status: "followers only #cats", visibility: "private" });
  posts.direct = await post(alice.token, { status: "direct secret #cats", visibility: "direct" });
  posts.local = await post(alice.token, { status: "local only #cats", visibility: "local" });
  posts.warned = await post(alice.token, { status: "spoiled #cats", spoiler_text: "cw: cats", visibility: "public" });
  // a known remote account's public post with the tag is in the tag's feed
  const remote = await server.services.db.account.create({
    data: { id: newId(), nickname: "rem@far.example", domain: "far.example", local: false, apId: "https://far.example/users/rem", inbox: "https://far.example/users/rem/inbox" },
  });
  const tag = await server.services.db.tag.upsert({ where: { name: "cats" }, create: { id: newId(), name: "cats" }, update: {} });
  const remoteId = newId();
  await server.services.db.status.create({
    data: { id: remoteId, accountId: remote.id, uri: "https://far.example/objects/1", url: "https://far.example/@rem/1", content: "<p>remote #cats</p>", context: "https://far.example/contexts/1", visibility: "public", local: false, tags: { create: { tagId: tag.id } } },
  });
  posts.remote = { id: remoteId, uri: "https://far.example/objects/1", url: "https://far.example/@rem/1" };
}, 90_000);
afterAll(() => server?.close());

const hidden = () => [posts.private!, posts.direct!, posts.local!];

describe("landing page", () => {
  test("`/` names the instance, its description, rules, figures, how to join and the staff's sign-in at /admin", async () => {
    await server.services.db.rule.create({ data: { text: "Be <kind>", hint: "really", priority: 1 } });
    await server.services.db.configEntry.upsert({
      where: { group_key: { group: "instance", key: "name" } },
      create: { group: "instance", key: "name", value: "Cat & Co" },
      update: { value: "Cat & Co" },
    });
    await server.services.config.reload();
    const res = await page("/");
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/html/);
    expect(res.text).toContain("<title>Cat &#38; Co</title>");
    expect(res.text).toContain("A federated microblogging server");
    expect(res.text).toContain("<li>Be &#60;kind&#62;<br><small>really</small></li>");
    expect(res.text).toMatch(/<span id="users">1<\/span> users/);
    expect(res.text).toMatch(/<span id="statuses">\d+<\/span> posts/);
    expect(res.text).toContain(`<a id="sign-in" href="${BASE}/admin">`);
    expect(res.text).toContain(`<link rel="manifest" href="${BASE}/manifest.json">`);
    expect(meta(res.text, "og:title")).toEqual(["Cat &#38; Co"]);
    expect(res.text).not.toContain("<script");
    // /admin stays the admin UI
    expect((await page("/admin/")).text).not.toContain('id="sign-in"');
  });

  test("the joining paragraph follows the registration settings", async () => {
    const set = async (key: string, value: boolean) => {
      await server.services.db.configEntry.upsert({ where: { group_key: { group: "instance", key } }, create: { group: "instance", key, value }, update: { value } });
      await server.services.config.reload();
    };
    await set("registrations_open", true);
    const open = (await page("/")).text;
    expect(open).toContain('<p id="register">Registrations are open');
    expect(open).toContain(`<a id="registration" href="${BASE}/registration">create an account</a>`);
    await set("registrations_open", false);
    expect((await page("/")).text).toContain("Registrations are closed.");
    await set("invites_enabled", true);
    expect((await page("/")).text).toContain("Registration is by invitation only");
  });
});

describe("account pages", () => {
  test("/@nickname and /users/nickname carry OpenGraph, rel=me links for the bio's and fields' links, sanitised bio, no hidden posts", async () => {
    for (const path of ["/@alice", "/users/alice"]) {
      const res = await page(path);
      expect(res.status).toBe(200);
      expect(meta(res.text, "og:title")).toEqual(["Alice &#60;b&#62;A&#60;/b&#62; (@alice@localhost:4000)"]);
      expect(meta(res.text, "og:url")).toEqual([`${BASE}/users/alice`]); // the actor's url, as the family writes it
      expect(meta(res.text, "og:description")).toEqual(["Cats &#38; dogs. &#60;script&#62;x()&#60;/script&#62;"]);
      expect(meta(res.text, "og:image")).toHaveLength(1);
      expect(res.text).toContain('<link rel="me" href="https://social.example/@me">');
      expect(res.text).toContain('<link rel="me" href="https://alice.example/?a=1&#38;b=2">');
      expect(res.text).toContain('<dd><a href="https://alice.example/?a=1&#38;b=2" rel="me nofollow noopener noreferrer">');
      expect(res.text).toContain("<dd>fine</dd>");
      expect(res.text).toContain(`<link rel="alternate" type="application/atom+xml" href="${BASE}/users/alice/feed.atom">`);
      expect(res.text).not.toContain("<script>");
      expect(res.text).not.toContain('name="robots"');
      expect(res.text).toContain("hello");
      for (const text of ["followers only", "direct secret", "local only"]) expect(res.text).not.toContain(text);
    }
  });

  test("an account that is not discoverable asks search engines not to index its page", async () => {
    await server.services.db.account.update({ where: { id: alice.id }, data: { discoverable: false } });
    try {
      expect(meta((await page("/@alice")).text, "robots")).toEqual(["noindex, noarchive"]);
    } finally {
      await server.services.db.account.update({ where: { id: alice.id }, data: { discoverable: true } });
    }
  });

  test("the followers and follows counts follow hide_followers_count and hide_follows_count", async () => {
    const bob = await server.createUser("bob");
    await server.services.db.follow.create({ data: { id: newId(), followerId: bob.id, followingId: alice.id, state: "accept" } });
    expect((await page("/@alice")).text).toContain('<span id="followers">1 followers</span>');
    await server.services.db.account.update({ where: { id: alice.id }, data: { hideFollowersCount: true, hideFollowsCount: true } });
    const hiddenCounts = (await page("/@alice")).text;
    expect(hiddenCounts).toContain('<span id="followers">followers hidden</span>');
    expect(hiddenCounts).toContain('<span id="following">follows hidden</span>');
    await server.services.db.account.update({ where: { id: alice.id }, data: { hideFollowersCount: false, hideFollowsCount: false } });
  });

  test("an author's no_rich_text shows their bio and posts as plain text on the pages and in the feeds", async () => {
    const dora = await server.createUser("dora");
    const token = (await passwordToken(server, "dora")).access_token;
    const rich = await post(token, { status: "**bold** and <em>em</em>\nnext line", content_type: "text/markdown" });
    await server.services.db.account.update({ where: { id: dora.id }, data: { note: "my bio" } });
    const before = (await page(`/notice/${rich.id}`)).text;
    expect(before).toContain("<strong>bold</strong>");
    await server.services.db.account.update({ where: { id: dora.id }, data: { noRichText: true } });
    const after = (await page(`/notice/${rich.id}`)).text;
    expect(after).not.toContain("<strong>bold</strong>");
    expect(after).toMatch(/<div><p>bold and [^<]*em[^<]*(<br>)+next line<\/p><\/div>/);
    const profile = (await page("/@dora")).text;
    expect(profile).toContain("<div><p>my bio</p></div>");
    expect((await feed("/users/dora/feed.atom")).entries[0].content["#text"] ?? "").not.toContain("<strong>bold");
  });
});

describe("status pages", () => {
  test("/notice/:id, /users/:nickname/statuses/:id, /@:nickname/:id and /@:nickname/posts/:id are the status's page with OpenGraph", async () => {
    for (const path of [`/notice/${posts.public!.id}`, `/users/alice/statuses/${posts.public!.id}`, `/@alice/${posts.public!.id}`, `/@alice/posts/${posts.public!.id}`]) {
      const res = await page(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.text).toContain(`<link rel="alternate" type="application/activity+json" href="${posts.public!.uri}">`);
      expect(meta(res.text, "og:description")).toEqual(["hello #Cats &#60;3"]);
      expect(meta(res.text, "og:url")).toEqual([posts.public!.url]);
      expect(meta(res.text, "og:title")[0]).toContain("(@alice@localhost:4000)");
    }
    // a content warning is the description, not the hidden text
    expect(meta((await page(`/notice/${posts.warned!.id}`)).text, "og:description")).toEqual(["cw: cats"]);
  });

  test("private, direct and local-only statuses are 404 at every address; another author's nickname is 404", async () => {
    for (const s of hidden()) {
      for (const path of [`/notice/${s.id}`, `/users/alice/statuses/${s.id}`, `/@alice/${s.id}`]) expect([path, (await page(path)).status]).toEqual([path, 404]);
    }
    await server.createUser("carol");
    expect((await page(`/@carol/${posts.public!.id}`)).status).toBe(404);
    expect((await page(`/users/carol/statuses/${posts.public!.id}`)).status).toBe(404);
  });

  test("servers asking for ActivityStreams at the status's page addresses are sent to its ActivityPub id", async () => {
    for (const path of [`/users/alice/statuses/${posts.public!.id}`, `/@alice/${posts.public!.id}`, `/notice/${posts.public!.id}`]) {
      const res = await page(path, AP);
      expect([path, res.status, res.location]).toEqual([path, 302, posts.public!.uri]);
    }
    const actor = await page("/users/alice", AP);
    expect(actor.status).toBe(200);
    expect(JSON.parse(actor.text)).toMatchObject({ id: `${BASE}/users/alice`, type: "Person" });
  });
});

describe("feeds", () => {
  test("/users/:nickname/feed.atom is an Atom feed of the public and unlisted posts, newest first", async () => {
    const { type, doc, entries } = await feed("/users/alice/feed.atom");
    expect(type).toMatch(/^application\/atom\+xml/);
    expect(doc.feed.id).toBe(`${BASE}/users/alice/feed.atom`);
    expect(doc.feed.author).toMatchObject({ uri: `${BASE}/users/alice` });
    expect(entries.map((e) => e.id)).toEqual([posts.warned!.uri, posts.unlisted!.uri, posts.public!.uri]);
    expect(entries[2]).toMatchObject({ title: "hello #Cats <3" });
    expect(entries[2].content["#text"]).toContain("hello");
    expect(entries[0].title).toBe("cw: cats");
  });

  test("/users/:nickname/feed.rss is RSS; without a suffix the Accept header chooses, Atom by default", async () => {
    const rss = await feed("/users/alice/feed.rss");
    expect(rss.type).toMatch(/^application\/rss\+xml/);
    expect(rss.entries.map((i) => i.guid["#text"])).toEqual([posts.warned!.uri, posts.unlisted!.uri, posts.public!.uri]);
    expect(rss.entries[2].link).toEqual([posts.public!.url]);
    expect(new Date(rss.entries[2].pubDate).getTime()).not.toBeNaN();
    expect((await feed("/users/alice/feed")).type).toMatch(/^application\/atom\+xml/);
    expect((await feed("/users/alice/feed", { accept: "application/rss+xml" })).type).toMatch(/^application\/rss\+xml/);
    expect((await page("/users/nobody/feed.atom")).status).toBe(404);
    // a feed reader given the profile's address is sent to the feed
    expect((await page("/users/alice", { accept: "application/atom+xml" })).location).toBe(`${BASE}/users/alice/feed.atom`);
    expect((await page("/@alice", { accept: "application/rss+xml" })).location).toBe(`${BASE}/users/alice/feed.rss`);
    expect((await page("/users/alice/feed.xml")).status).toBe(400);
  });

  test("/tags/:tag is RSS of the tag's public posts, local and remote; .atom gives Atom; hidden posts stay out", async () => {
    const rss = await feed("/tags/cats");
    expect(rss.type).toMatch(/^application\/rss\+xml/);
    const ids = rss.entries.map((i) => i.guid["#text"]);
    expect(ids).toEqual([posts.remote!.uri, posts.warned!.uri, posts.public!.uri]);
    expect((await feed("/tags/cats.rss")).entries.map((i) => i.guid["#text"])).toEqual(ids);
    const atom = await feed("/tags/Cats.atom");
    expect(atom.type).toMatch(/^application\/atom\+xml/);
    expect(atom.entries.map((e) => e.id)).toEqual(ids);
    for (const text of ["followers only", "direct secret", "local only", "quiet"]) expect(rss.text + atom.text).not.toContain(text);
    expect((await feed("/tags/nothing-here")).entries).toEqual([]);
  });

  test("a feed and an account page cost the same number of queries for one entry as for many", async () => {
    const one = await server.countQueries(() => server.fetch(`/tags/cats.atom?max_id=${posts.warned!.id}`));
    const many = await server.countQueries(() => server.fetch("/tags/cats.atom"));
    expect((await one.result.text()).match(/<entry>/g)).toHaveLength(1);
    expect((await many.result.text()).match(/<entry>/g)).toHaveLength(3);
    expect(many.queries).toBe(one.queries);
    const userOne = await server.countQueries(() => server.fetch(`/users/alice/feed.rss?max_id=${posts.unlisted!.id}`));
    const userMany = await server.countQueries(() => server.fetch("/users/alice/feed.rss"));
    expect(userMany.queries).toBe(userOne.queries);
  });

  test("feeds page back with max_id and link the next page", async () => {
    const first = await feed("/users/alice/feed.atom?max_id=" + posts.unlisted!.id);
    expect(first.entries.map((e) => e.id)).toEqual([posts.public!.uri]);
  });
});

describe("embedded player", () => {
  test("/notice/:id/embed_player plays a public status's video in a frame other sites may embed; the page names it as its twitter:player", async () => {
    // the video row is stored first and attached by posting (a row written under an already rendered status
    // would miss the status cache's invalidation, which the domain's writes publish)
    const media = async (visibility: string) => {
      const id = newId();
      await server.services.db.mediaAttachment.create({ data: { id, accountId: alice.id, type: "video", mimeType: "video/mp4", url: `/media/clip-${visibility}.mp4` } });
      return post(alice.token, { status: `clip (${visibility})`, visibility, media_ids: [id] });
    };
    const shown = await media("public");
    const res = await server.fetch(`/notice/${shown.id}/embed_player`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(await res.text()).toMatch(/<video controls loop src="[^"]*\/media\/clip-public\.mp4">/);
    const html = (await page(`/notice/${shown.id}`)).text;
    expect(meta(html, "twitter:player")).toEqual([`${BASE}/notice/${shown.id}/embed_player`]);
    expect(meta(html, "og:video")[0]).toMatch(/\/media\/clip-public\.mp4$/);
    // unlisted statuses, statuses without playable media, hidden ones: no player
    for (const s of [await media("unlisted"), posts.public!, posts.private!]) expect((await page(`/notice/${s.id}/embed_player`)).status).toBe(404);
  });
});

describe("embedded statuses", () => {
  test("/embed/:id is a public status's page that other sites may frame; unlisted and hidden statuses are 404", async () => {
    const res = await server.fetch(`/embed/${posts.public!.id}`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(await res.text()).toMatch(/hello .*Cats.* &lt;3/);
    for (const s of [posts.unlisted!, ...hidden()]) expect((await page(`/embed/${s.id}`)).status).toBe(404);
    // other pages stay unframable
    expect((await server.fetch(`/notice/${posts.public!.id}`, { headers: HTML })).headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("a private instance", () => {
  test("with instance.public off, account and status pages and feeds are 404 for anonymous readers; the landing page stays", async () => {
    const set = async (value: boolean) => {
      await server.services.db.configEntry.upsert({ where: { group_key: { group: "instance", key: "public" } }, create: { group: "instance", key: "public", value }, update: { value } });
      await server.services.config.reload();
    };
    await set(false);
    try {
      for (const path of ["/@alice", `/notice/${posts.public!.id}`, `/embed/${posts.public!.id}`, `/@alice/${posts.public!.id}`, "/users/alice/feed.atom", "/tags/cats"]) expect([path, (await page(path)).status]).toEqual([path, 404]);
      expect((await page("/")).status).toBe(200);
      // servers still find the ActivityPub ids
      expect((await page("/@alice", AP)).location).toBe(`${BASE}/users/alice`);
    } finally {
      await set(true);
    }
    expect((await page("/@alice")).status).toBe(200);
  });
});
