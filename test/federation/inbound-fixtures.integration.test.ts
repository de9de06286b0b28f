// Payloads in the shapes other servers send (test/federation/fixtures/, written from their public
// documentation): Mastodon (contentMap, Emoji and Hashtag tags, blurhash/focalPoint, Question with anyOf),
// Pleroma/Akkoma (litepub context, source in Markdown, followers-in-`to` unlisted posts, EmojiReact with an
// Emoji tag), Misskey (_misskey_content, _misskey_quote/quoteUrl, Like with content and _misskey_reaction),
// GoToSocial (single-value `to`/`cc`/`tag`, interactionPolicy), Lemmy (Page with a title, attributedTo
// array of Person and Group). The Fedify peer sends each with its ids rewritten to its own host, signed;
// each must be accepted (202) and render through the client API.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { fill, startPeer, type Peer } from "../support/federation/peer.ts";

const DIR = path.join(path.dirname(new URL(import.meta.url).pathname), "fixtures");
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(DIR, name), "utf8"));

let net: FederationNet;
let a: TestInstance;
let peer: Peer;
let bob: { id: string; token: string };
let n = 0;

beforeAll(async () => {
  net = await startFederationNet();
  a = await net.start("a");
  peer = await startPeer(net);
  bob = await a.createUser("bob");
  for (const name of ["gargron", "lain", "9syuilo", "tobi", "nutomic"]) await peer.actor(name);
  peer.serve(`${peer.baseUrl}/schemas/litepub-0.1.jsonld`, fixture("litepub-0.1.jsonld"));
}, 60_000);
afterAll(async () => {
  await peer?.close();
  await net?.close();
});

const values = (extra: Record<string, string> = {}) => ({ peer: peer.baseUrl, target: a.baseUrl, id: `${Date.now().toString(36)}${++n}`, ...extra });

async function deliver(name: string, extra: Record<string, string> = {}) {
  const activity = fill(fixture(name), values(extra));
  const res = await peer.send(String(activity.actor).split("/").pop()!, `${a.baseUrl}/inbox`, activity);
  expect(res.status, await res.clone().text()).toBe(202);
  return activity;
}

async function rendered(uri: string, token = bob.token) {
  const row = await waitFor(async () => (await a.sql<{ id: string }>("SELECT id FROM statuses WHERE uri = $1", [uri]))[0], uri);
  return (await a.api(`/api/v1/statuses/${row.id}`, { token })).json();
}

describe("fixtures in other servers' shapes", () => {
  test("Mastodon Note: mention, hashtag, custom emoji, media with alt text and blurhash, contentMap language, url", async () => {
    const activity = await deliver("mastodon-create-note.json");
    const s = await rendered(activity.object.id);
    expect(s).toMatchObject({ url: activity.object.url, visibility: "public", language: "en", account: { acct: "gargron@peer.fed.test" } });
    expect(s.mentions.map((m: any) => m.acct)).toEqual(["bob"]);
    expect(s.tags.map((t: any) => t.name)).toEqual(["mastodon"]);
    expect(s.emojis[0]).toMatchObject({ shortcode: "party", url: `${peer.baseUrl}/system/custom_emojis/party.png` });
    expect(s.media_attachments[0]).toMatchObject({ type: "image", description: "A cat sitting on a keyboard", blurhash: "U5Fh]|~q00IU00Rj-;t7_3IUxu%M%Mt7M{WB", meta: { focus: { x: 0, y: 0.25 } } });
    const notes = await (await a.api("/api/v1/notifications", { token: bob.token })).json();
    expect(notes.some((x: any) => x.type === "mention" && x.status.id === s.id)).toBe(true);
  });

  test("Mastodon Question (anyOf): a multiple-choice poll with the reported counts", async () => {
    const activity = await deliver("mastodon-question.json");
    const s = await rendered(activity.object.id);
    expect(s.poll).toMatchObject({ multiple: true, voters_count: 10, expired: false, options: [{ title: "Tabs", votes_count: 4 }, { title: "Spaces", votes_count: 7 }] });
  });

  test("Pleroma Note: litepub context, unlisted (public in cc), Markdown source kept, context as thread", async () => {
    const activity = await deliver("pleroma-create-note.json");
    const s = await rendered(activity.object.id);
    expect(s.visibility).toBe("unlisted");
    expect(s.content).toBe("an <strong>unlisted</strong> post in markdown");
    const row = (await a.sql<any>("SELECT source, context FROM statuses WHERE uri = $1", [activity.object.id]))[0];
    expect(row).toEqual({ source: "an **unlisted** post in markdown", context: activity.object.context });
  });

  test("Pleroma EmojiReact with an Emoji tag: a custom-emoji reaction with its image, remembered as a remote emoji", async () => {
    const posted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "react to me" } })).json();
    await deliver("pleroma-emojireact.json", { status: posted.uri });
    const reactions = await waitFor(async () => {
      const s = await (await a.api(`/api/v1/statuses/${posted.id}`, { token: bob.token })).json();
      return s.emoji_reactions.length ? s.emoji_reactions : null;
    }, "reaction");
    expect(reactions[0]).toMatchObject({ name: "blobcatheart", count: 1, url: `${peer.baseUrl}/emoji/blobcat/blobcatheart.png` });
    expect((await a.sql("SELECT 1 FROM remote_emojis WHERE shortcode = 'blobcatheart' AND domain = 'peer.fed.test'")).length).toBe(1);
  });

  test("Misskey Note: _misskey_content kept as source, the quote link in the content", async () => {
    const quoted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "quote me" } })).json();
    const activity = await deliver("misskey-create-note.json", { quoted: quoted.uri });
    const s = await rendered(activity.object.id);
    expect(s.content).toContain(`href="${quoted.uri}"`);
    // the quote relation to the known status: stored and rendered in both shapes
    expect(s.quote).toMatchObject({ state: "accepted", quoted_status: { id: quoted.id } });
    expect(s.ext).toMatchObject({ quote_id: quoted.id, quote_visible: true });
    expect(s.account.acct).toBe("9syuilo@peer.fed.test");
    const row = (await a.sql<any>("SELECT source FROM statuses WHERE uri = $1", [activity.object.id]))[0];
    expect(row.source).toBe("quoting this $[tada note]");
  });

  test("Misskey Like with content/_misskey_reaction: an emoji reaction, not a favourite", async () => {
    const posted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "pudding?" } })).json();
    await deliver("misskey-like-reaction.json", { status: posted.uri });
    const s = await waitFor(async () => {
      const st = await (await a.api(`/api/v1/statuses/${posted.id}`, { token: bob.token })).json();
      return st.emoji_reactions.length ? st : null;
    }, "reaction");
    expect(s.emoji_reactions[0]).toMatchObject({ name: "🍮", count: 1 });
    expect(s.favourites_count).toBe(0);
  });

  test("GoToSocial direct Note: single-value to/cc/tag, addressed only to bob", async () => {
    const activity = await deliver("gotosocial-create-note.json");
    const s = await rendered(activity.object.id);
    expect(s).toMatchObject({ visibility: "direct", language: "en" });
    expect(s.mentions.map((m: any) => m.acct)).toEqual(["bob"]);
    // nobody else sees it
    expect((await a.api(`/api/v1/statuses/${s.id}`)).status).toBe(404);
  });

  test("Lemmy Page: attributedTo [Person, Group] → the person's status, the title heading the content", async () => {
    const activity = await deliver("lemmy-create-page.json");
    const s = await rendered(activity.object.id);
    expect(s.account.acct).toBe("nutomic@peer.fed.test");
    expect(s.content).toBe("<p><strong>A post with a title</strong></p><p>Body of the post</p>");
    expect((await a.sql<any>("SELECT object_type FROM statuses WHERE uri = $1", [activity.object.id]))[0].object_type).toBe("Page");
  });
});
