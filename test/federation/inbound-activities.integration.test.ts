// Inbound federation over the real TLS test network: a Fedify peer in the test process sends each kind of
// activity, with real HTTP signatures, to a spawned server (https://a.fed.test), and the result is read
// back through the client API, the database and the streaming API — the same state a local action makes.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer, type Peer } from "../support/federation/peer.ts";

let net: FederationNet;
let a: TestInstance;
let peer: Peer;
let bob: { id: string; token: string };
let carol: { id: string; token: string };
let n = 0;
const uid = () => `${Date.now().toString(36)}-${++n}`;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

beforeAll(async () => {
  net = await startFederationNet();
  a = await net.start("a");
  peer = await startPeer(net);
  bob = await a.createUser("bob");
  carol = await a.createUser("carol", { locked: true });
  await peer.actor("alice", { name: "Alice :blob:", summary: "<p>hi <script>x</script>there</p>", fields: [{ name: "site", value: '<a href="https://x.example">x</a>' }], emojis: { blob: "https://peer.fed.test/blob.png" } });
}, 60_000);
afterAll(async () => {
  await peer?.close();
  await net?.close();
});

const inbox = (nick?: string) => (nick ? `${a.baseUrl}/users/${nick}/inbox` : `${a.baseUrl}/inbox`);
const actorId = (name: string) => `${peer.baseUrl}/users/${name}`;
const accountRow = async (name: string) => (await a.sql<any>("SELECT * FROM accounts WHERE ap_id = $1", [actorId(name)]))[0];
const statusRow = async (uri: string) => (await a.sql<any>("SELECT * FROM statuses WHERE uri = $1", [uri]))[0];

function note(name: string, id: string, extra: Record<string, unknown> = {}) {
  return { id: `${peer.baseUrl}/notes/${id}`, type: "Note", attributedTo: actorId(name), content: "<p>hello</p>", to: [PUBLIC], cc: [`${actorId(name)}/followers`], published: new Date().toISOString(), ...extra };
}
function create(name: string, object: Record<string, unknown>) {
  return { "@context": "https://www.w3.org/ns/activitystreams", id: `${object.id}/activity`, type: "Create", actor: actorId(name), to: object.to, cc: object.cc, object };
}

describe("inbound activities from a Fedify peer", () => {
  test("Follow of an unlocked account: accepted, a follow notification, the remote account stored from its actor document", async () => {
    const id = `${peer.baseUrl}/follows/${uid()}`;
    const res = await peer.send("alice", inbox("bob"), { "@context": "https://www.w3.org/ns/activitystreams", id, type: "Follow", actor: actorId("alice"), object: `${a.baseUrl}/users/bob` });
    expect(res.status).toBe(202);
    const follow = await waitFor(async () => (await a.sql<any>("SELECT f.* FROM follows f JOIN accounts x ON x.id = f.follower_id WHERE x.ap_id = $1", [actorId("alice")]))[0], "follow row");
    expect(follow).toMatchObject({ state: "accept", ap_id: id, following_id: bob.id });
    const alice = await accountRow("alice");
    expect(alice).toMatchObject({ nickname: "alice@peer.fed.test", domain: "peer.fed.test", local: false, inbox: `${actorId("alice")}/inbox`, shared_inbox: `${peer.baseUrl}/inbox`, followers_url: `${actorId("alice")}/followers`, url: `${peer.baseUrl}/@alice` });
    expect(alice.note).toBe("<p>hi there</p>");
    expect(alice.public_key).toContain("BEGIN PUBLIC KEY");
    expect(alice.emojis).toEqual([{ shortcode: "blob", url: "https://peer.fed.test/blob.png" }]);
    expect((await a.sql("SELECT * FROM remote_emojis WHERE domain = 'peer.fed.test' AND shortcode = 'blob'")).length).toBe(1);
    // the notification is written after the follow row the wait above saw
    const notification = await waitFor(async () => (await (await a.api("/api/v1/notifications", { token: bob.token })).json()).find((x: any) => x.type === "follow") ?? null, "follow notification");
    expect(notification.account).toMatchObject({ acct: "alice@peer.fed.test", url: `${peer.baseUrl}/@alice`, display_name: "Alice :blob:" });
  });

  test("Follow of a locked account: a follow request; Undo withdraws it", async () => {
    const id = `${peer.baseUrl}/follows/${uid()}`;
    const follow = { id, type: "Follow", actor: actorId("alice"), object: `${a.baseUrl}/users/carol` };
    await peer.send("alice", inbox("carol"), { "@context": "https://www.w3.org/ns/activitystreams", ...follow });
    const requests = await waitFor(async () => {
      const list = await (await a.api("/api/v1/follow_requests", { token: carol.token })).json();
      return list.length ? list : null;
    }, "follow request");
    expect(requests[0].acct).toBe("alice@peer.fed.test");
    await peer.send("alice", inbox("carol"), { "@context": "https://www.w3.org/ns/activitystreams", id: `${id}/undo`, type: "Undo", actor: actorId("alice"), object: follow });
    await waitFor(async () => (await (await a.api("/api/v1/follow_requests", { token: carol.token })).json()).length === 0, "request withdrawn");
  });

  test("Create of a public Note mentioning a local account: a status, a mention notification streamed to the user, hashtags, emoji, media", async () => {
    const ws = new WebSocket(`${a.directUrl.replace(/^http/, "ws")}/api/v1/streaming?stream=user&access_token=${bob.token}`);
    const events: any[] = [];
    ws.on("message", (d) => events.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once("open", r));
    const id = uid();
    const object = note("alice", id, {
      content: `<p><span class="h-card"><a class="u-url mention" href="${a.baseUrl}/users/bob">@<span>bob</span></a></span> look :blob: <a href="${peer.baseUrl}/tags/fedi" class="mention hashtag" rel="tag">#<span>Fedi</span></a></p>`,
      tag: [
        { type: "Mention", href: `${a.baseUrl}/users/bob`, name: "@bob@a.fed.test" },
        { type: "Hashtag", href: `${peer.baseUrl}/tags/fedi`, name: "#Fedi" },
        { id: `${peer.baseUrl}/emoji/blob`, type: "Emoji", name: ":blob:", icon: { type: "Image", mediaType: "image/png", url: `${peer.baseUrl}/blob.png` } },
      ],
      cc: [`${actorId("alice")}/followers`, `${a.baseUrl}/users/bob`],
      attachment: [{ type: "Document", mediaType: "image/jpeg", url: `${peer.baseUrl}/media/1.jpg`, name: "a cat", blurhash: "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH" }],
      summary: "cw here",
      sensitive: true,
    });
    expect((await peer.send("alice", inbox(), create("alice", object))).status).toBe(202);
    const row = await waitFor(() => statusRow(object.id), "status");
    const rendered = await (await a.api(`/api/v1/statuses/${row.id}`, { token: bob.token })).json();
    expect(rendered).toMatchObject({ uri: object.id, visibility: "public", spoiler_text: "cw here", sensitive: true, account: { acct: "alice@peer.fed.test" } });
    expect(rendered.mentions.map((m: any) => m.acct)).toEqual(["bob"]);
    expect(rendered.tags.map((t: any) => t.name)).toEqual(["fedi"]);
    expect(rendered.emojis).toEqual([expect.objectContaining({ shortcode: "blob", url: `${peer.baseUrl}/blob.png` })]);
    expect(rendered.media_attachments[0]).toMatchObject({ type: "image", description: "a cat", remote_url: `${peer.baseUrl}/media/1.jpg`, blurhash: "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH" });
    const mention = await waitFor(async () => events.find((e) => e.event === "notification" && JSON.parse(e.payload).type === "mention"), "streamed mention");
    expect(JSON.parse(mention.payload).status.id).toBe(row.id);
    ws.close();
    // the hashtag timeline shows it, as it shows local posts
    const tagged = await (await a.api("/api/v1/timelines/tag/fedi")).json();
    expect(tagged.map((s: any) => s.id)).toContain(row.id);
  });

  test("a reply to a local status is threaded under it; visibility from addressing (followers-only, direct)", async () => {
    const posted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "parent post" } })).json();
    const reply = note("alice", uid(), { inReplyTo: posted.uri, to: [`${actorId("alice")}/followers`], cc: [`${a.baseUrl}/users/bob`], tag: [{ type: "Mention", href: `${a.baseUrl}/users/bob` }] });
    await peer.send("alice", inbox(), create("alice", reply));
    const row = await waitFor(() => statusRow(reply.id), "reply");
    expect(row).toMatchObject({ in_reply_to_id: posted.id, visibility: "private", context: (await statusRow(posted.uri)).context });
    const context = await (await a.api(`/api/v1/statuses/${posted.id}/context`, { token: bob.token })).json();
    expect(context.descendants.map((s: any) => s.id)).toContain(row.id);

    const dm = note("alice", uid(), { to: [`${a.baseUrl}/users/bob`], cc: [], tag: [{ type: "Mention", href: `${a.baseUrl}/users/bob` }] });
    await peer.send("alice", inbox("bob"), create("alice", dm));
    const dmRow = await waitFor(() => statusRow(dm.id), "direct");
    expect(dmRow.visibility).toBe("direct");
    // the conversation is recorded just after the row (statusStored), so it is waited for too
    await waitFor(async () => ((await (await a.api("/api/v1/conversations", { token: bob.token })).json()) as any[]).some((c) => c.last_status?.id === dmRow.id), "conversation");
    // carol, not addressed, cannot see it
    expect((await a.api(`/api/v1/statuses/${dmRow.id}`, { token: carol.token })).status).toBe(404);
  });

  test("Update of a Note: a new version in the edit history; Delete removes it", async () => {
    const object = note("alice", uid());
    await peer.send("alice", inbox(), create("alice", object));
    const row = await waitFor(() => statusRow(object.id), "status");
    const updated = { ...object, content: "<p>hello, edited</p>", updated: new Date().toISOString() };
    await peer.send("alice", inbox(), { "@context": "https://www.w3.org/ns/activitystreams", id: `${object.id}#update-1`, type: "Update", actor: actorId("alice"), to: [PUBLIC], object: updated });
    await waitFor(async () => (await statusRow(object.id)).content === "<p>hello, edited</p>", "edit");
    const history = await (await a.api(`/api/v1/statuses/${row.id}/history`)).json();
    expect(history.map((v: any) => v.content)).toEqual(["<p>hello</p>", "<p>hello, edited</p>"]);
    // someone else cannot delete it
    await peer.actor("mallory");
    await peer.send("mallory", inbox(), { "@context": "https://www.w3.org/ns/activitystreams", id: `${peer.baseUrl}/d/${uid()}`, type: "Delete", actor: actorId("mallory"), object: object.id });
    await peer.send("alice", inbox(), { "@context": "https://www.w3.org/ns/activitystreams", id: `${object.id}#delete`, type: "Delete", actor: actorId("alice"), object: { id: object.id, type: "Tombstone" } });
    await waitFor(async () => !(await statusRow(object.id)), "deleted");
  });

  test("Like, EmojiReact (unicode and custom), Announce, and their Undo", async () => {
    const posted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "like me" } })).json();
    const ctx = "https://www.w3.org/ns/activitystreams";
    const like = { id: `${peer.baseUrl}/likes/${uid()}`, type: "Like", actor: actorId("alice"), object: posted.uri };
    await peer.send("alice", inbox("bob"), { "@context": ctx, ...like });
    await waitFor(async () => (await (await a.api(`/api/v1/statuses/${posted.id}`, { token: bob.token })).json()).favourites_count === 1, "favourite");
    const react = { id: `${peer.baseUrl}/reacts/${uid()}`, type: "EmojiReact", actor: actorId("alice"), object: posted.uri, content: "👍" };
    await peer.send("alice", inbox("bob"), { "@context": [ctx, { EmojiReact: "http://litepub.social/ns#EmojiReact" }], ...react });
    const custom = { id: `${peer.baseUrl}/reacts/${uid()}`, type: "EmojiReact", actor: actorId("alice"), object: posted.uri, content: ":blob:", tag: [{ id: `${peer.baseUrl}/emoji/blob`, type: "Emoji", name: ":blob:", icon: { type: "Image", url: `${peer.baseUrl}/blob.png` } }] };
    await peer.send("alice", inbox("bob"), { "@context": [ctx, { EmojiReact: "http://litepub.social/ns#EmojiReact", Emoji: "toot:Emoji", toot: "http://joinmastodon.org/ns#" }], ...custom });
    const reactions = await waitFor(async () => {
      const s = await (await a.api(`/api/v1/statuses/${posted.id}`, { token: bob.token })).json();
      return s.emoji_reactions.length === 2 ? s.emoji_reactions : null;
    }, "reactions");
    expect(reactions).toEqual([expect.objectContaining({ name: "👍", count: 1 }), expect.objectContaining({ name: "blob", count: 1, url: `${peer.baseUrl}/blob.png` })]);
    const announce = { id: `${peer.baseUrl}/announces/${uid()}`, type: "Announce", actor: actorId("alice"), object: posted.uri, to: [PUBLIC], cc: [`${actorId("alice")}/followers`], published: new Date().toISOString() };
    await peer.send("alice", inbox("bob"), { "@context": ctx, ...announce });
    await waitFor(async () => (await (await a.api(`/api/v1/statuses/${posted.id}`, { token: bob.token })).json()).reblogs_count === 1, "reblog");
    // notifications are written just after the counters the waits above watch: wait for all four
    const types = await waitFor(async () => {
      const list = (await (await a.api("/api/v1/notifications", { token: bob.token })).json()).filter((x: any) => x.status?.id === posted.id);
      return list.length >= 4 ? list.map((x: any) => x.type.replace(/^\w+:/, "")) : null;
    }, "four notifications");
    expect(types.sort()).toEqual(["emoji_reaction", "emoji_reaction", "favourite", "reblog"]);

    for (const object of [like, react, custom, announce]) await peer.send("alice", inbox("bob"), { "@context": ctx, id: `${object.id}/undo`, type: "Undo", actor: actorId("alice"), object });
    await waitFor(async () => {
      const s = await (await a.api(`/api/v1/statuses/${posted.id}`, { token: bob.token })).json();
      return s.favourites_count === 0 && s.reblogs_count === 0 && s.emoji_reactions.length === 0;
    }, "undone");
  });

  test("Block ends follows both ways; Undo Block lifts it", async () => {
    await peer.actor("blocker");
    const ctx = "https://www.w3.org/ns/activitystreams";
    await (await a.api(`/api/v1/accounts/lookup?acct=blocker@peer.fed.test`)).text();
    await peer.send("blocker", inbox("bob"), { "@context": ctx, id: `${peer.baseUrl}/follows/${uid()}`, type: "Follow", actor: actorId("blocker"), object: `${a.baseUrl}/users/bob` });
    await waitFor(async () => (await a.sql("SELECT 1 FROM follows f JOIN accounts x ON x.id = f.follower_id WHERE x.ap_id = $1", [actorId("blocker")])).length === 1, "follow");
    const block = { id: `${peer.baseUrl}/blocks/${uid()}`, type: "Block", actor: actorId("blocker"), object: `${a.baseUrl}/users/bob` };
    await peer.send("blocker", inbox("bob"), { "@context": ctx, ...block });
    await waitFor(async () => (await a.sql("SELECT 1 FROM user_relationships r JOIN accounts x ON x.id = r.source_id WHERE x.ap_id = $1 AND r.type = 'block' AND r.ap_id = $2", [actorId("blocker"), block.id])).length === 1, "block");
    expect((await a.sql("SELECT 1 FROM follows f JOIN accounts x ON x.id = f.follower_id WHERE x.ap_id = $1", [actorId("blocker")])).length).toBe(0);
    const blocker = await accountRow("blocker");
    const rel = (await (await a.api(`/api/v1/accounts/relationships?id[]=${blocker.id}`, { token: bob.token })).json())[0];
    expect(rel.blocked_by).toBe(true);
    await peer.send("blocker", inbox("bob"), { "@context": ctx, id: `${block.id}/undo`, type: "Undo", actor: actorId("blocker"), object: block });
    await waitFor(async () => (await a.sql("SELECT 1 FROM user_relationships WHERE ap_id = $1", [block.id])).length === 0, "unblock");
  });

  test("Update of the actor: profile changes and a rotated key are taken", async () => {
    await peer.actor("rotator", { name: "Before" });
    const ctx = "https://www.w3.org/ns/activitystreams";
    const first = note("rotator", uid());
    await peer.send("rotator", inbox(), create("rotator", first));
    await waitFor(() => statusRow(first.id), "first status");
    const oldKey = (await accountRow("rotator")).public_key;
    await peer.rotateKey("rotator");
    await peer.actor("rotator", { name: "After", summary: "<p>new bio</p>" });
    await peer.send("rotator", inbox(), { "@context": ctx, id: `${actorId("rotator")}#update-${uid()}`, type: "Update", actor: actorId("rotator"), object: actorId("rotator"), to: [PUBLIC] });
    await waitFor(async () => (await accountRow("rotator")).display_name === "After", "profile update");
    const row = await accountRow("rotator");
    expect(row.note).toBe("<p>new bio</p>");
    expect(row.public_key).not.toBe(oldKey);
    const second = note("rotator", uid());
    expect((await peer.send("rotator", inbox(), create("rotator", second))).status).toBe(202);
    await waitFor(() => statusRow(second.id), "status signed with the new key");
  });

  test("Delete of the actor: its account deactivated and its statuses removed", async () => {
    await peer.actor("leaver");
    const object = note("leaver", uid());
    await peer.send("leaver", inbox(), create("leaver", object));
    await waitFor(() => statusRow(object.id), "status");
    await peer.send("leaver", inbox(), { "@context": "https://www.w3.org/ns/activitystreams", id: `${actorId("leaver")}#delete`, type: "Delete", actor: actorId("leaver"), object: actorId("leaver"), to: [PUBLIC] });
    await waitFor(async () => (await accountRow("leaver")).deactivated === true, "deactivated");
    expect(await statusRow(object.id)).toBeUndefined();
  });

  test("a remote vote on a local poll (Create Note with name) counts; Question from the peer becomes a poll with its counts; Update Question updates them", async () => {
    const posted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "pick", poll: { options: ["yes", "no"], expires_in: 3600 } } })).json();
    const vote = { id: `${peer.baseUrl}/votes/${uid()}`, type: "Note", attributedTo: actorId("alice"), name: "no", inReplyTo: posted.uri, to: [`${a.baseUrl}/users/bob`] };
    await peer.send("alice", inbox("bob"), create("alice", vote));
    await waitFor(async () => (await (await a.api(`/api/v1/polls/${posted.poll.id}`)).json()).options[1].votes_count === 1, "vote counted");

    const q = note("alice", uid(), { type: "Question", content: "<p>which?</p>", endTime: new Date(Date.now() + 3600_000).toISOString(), votersCount: 5, oneOf: [{ type: "Note", name: "red", replies: { type: "Collection", totalItems: 3 } }, { type: "Note", name: "blue", replies: { type: "Collection", totalItems: 2 } }] });
    await peer.send("alice", inbox(), create("alice", q));
    const row = await waitFor(() => statusRow(q.id), "question");
    const poll = (await (await a.api(`/api/v1/statuses/${row.id}`)).json()).poll;
    expect(poll).toMatchObject({ multiple: false, votes_count: 5, voters_count: 5, options: [{ title: "red", votes_count: 3 }, { title: "blue", votes_count: 2 }] });
    const q2 = { ...q, votersCount: 7, oneOf: [{ type: "Note", name: "red", replies: { type: "Collection", totalItems: 3 } }, { type: "Note", name: "blue", replies: { type: "Collection", totalItems: 4 } }] };
    await peer.send("alice", inbox(), { "@context": "https://www.w3.org/ns/activitystreams", id: `${q.id}#update`, type: "Update", actor: actorId("alice"), to: [PUBLIC], object: q2 });
    await waitFor(async () => (await (await a.api(`/api/v1/statuses/${row.id}`)).json()).poll.voters_count === 7, "poll update");
    // counts are not edits
    expect((await a.sql("SELECT 1 FROM status_edits WHERE status_id = $1", [row.id])).length).toBe(0);
  });
});
