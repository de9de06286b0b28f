// Issue 14's person-to-person features between two of our servers over the TLS test network, driven
// through the client and admin APIs on each side: forwarded reports (Flag), account moves (Move and
// aliases), chats (ChatMessage) and emoji reactions (EmojiReact with custom emoji, Undo).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { ADMIN_TOKEN, queueIdle, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer, type Peer } from "../support/federation/peer.ts";
import { PNG } from "../rest/emoji-helpers.ts";

type User = { id: string; nickname: string; token: string };
let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
let alice: User; // a
let bob: User; // b
let mod: User; // b, admin (reports)
let peer: Peer;

/** Federation crosses several jobs and servers: waits sized for a loaded machine. */
const SLOW = { timeoutMs: 45_000 };
const json = async (res: Response) => {
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
};
const post = (server: TestInstance, user: User, body: Record<string, unknown>) => server.api("/api/v1/statuses", { token: user.token, json: body }).then(json);
/** The id on `server` of a remote account or status, resolved by handle or URL through search. */
async function resolved(server: TestInstance, viewer: User, q: string, type: "accounts" | "statuses") {
  const found = await json(await server.api(`/api/v2/search?q=${encodeURIComponent(q)}&type=${type}&resolve=true`, { token: viewer.token }));
  return found[type][0]?.id as string;
}

/** A token with admin scopes for an admin of `server`. */
async function adminUser(server: TestInstance, nickname: string): Promise<User> {
  const user = await server.createUser(nickname);
  await server.sql("UPDATE accounts SET is_admin = true WHERE id = $1", [user.id]);
  const app = await json(await server.api("/api/v1/apps", { json: { client_name: "admin", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write admin" } }));
  const tok = await json(await server.api("/oauth/token", { json: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: nickname, password: `pw-${nickname}-long-enough`, scope: "read write admin" } }));
  return { ...user, token: tok.access_token };
}

beforeAll(async () => {
  net = await startFederationNet();
  [a, b] = await Promise.all([net.start("a"), net.start("b")]);
  [alice, bob] = await Promise.all([a.createUser("alice"), b.createUser("bob")]);
  mod = await adminUser(b, "mod");
  peer = await startPeer(net);
  await peer.actor("carl");
}, 120_000);

afterAll(async () => {
  if (process.env.FED_LOGS) console.log(`---- a\n${a?.logs()}\n---- b\n${b?.logs()}`);
  await peer?.close();
  await net?.close();
});

describe("reports", () => {
  test("a forwarded report reaches the reported account's server as a Flag from the instance actor: a report there, live on reportFiled", async () => {
    const status = await post(b, bob, { status: "reportable", visibility: "public" });
    const bobOnA = await resolved(a, alice, "bob@b.fed.test", "accounts");
    const statusOnA = await resolved(a, alice, status.uri, "statuses");
    expect(statusOnA).toBeTruthy();

    const client = createClient({ url: `${b.directUrl.replace(/^http/, "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${mod.token}` } });
    const live: any[] = [];
    const stop = client.subscribe({ query: "subscription { reportFiled { id content account { nickname } actor { nickname } statuses { id } } }" }, { next: (m) => live.push(m), error: () => {}, complete: () => {} });
    try {
      // a sentinel: once a report filed on b itself reaches the subscription, the subscription is listening
      const sentinel = "sentinel: the subscription listens";
      const witness = await b.createUser("witness");
      await json(await b.api("/api/v1/reports", { token: witness.token, json: { account_id: bob.id, comment: sentinel } }));
      await waitFor(async () => live.some((m) => m.data?.reportFiled?.content === sentinel), "the sentinel report on the subscription", SLOW);
      // not forwarded: stays on a
      await json(await a.api("/api/v1/reports", { token: alice.token, json: { account_id: bobOnA, status_ids: [statusOnA], comment: "kept here" } }));
      await json(await a.api("/api/v1/reports", { token: alice.token, json: { account_id: bobOnA, status_ids: [statusOnA], comment: "spam, forwarded", forward: true } }));

      const report = await waitFor(async () => (await json(await b.api("/api/v1/ext/admin/reports", { token: mod.token }))).reports.find((r: { content: string }) => r.content !== sentinel), "the report on b", SLOW);
      expect(report).toMatchObject({ content: "spam, forwarded", state: "open", account: { id: bob.id, acct: "bob" }, actor: { acct: "internal.fetch@a.fed.test" } });
      expect(report.statuses.map((s: { id: string }) => s.id)).toEqual([status.id]);
      // the reporter stays anonymous: the instance actor signs, alice appears nowhere on b
      expect(await b.sql("SELECT 1 FROM accounts WHERE ap_id = $1", [`${a.baseUrl}/users/alice`])).toEqual([]);
      const event = await waitFor(async () => live.find((m) => m.data?.reportFiled?.content !== sentinel), "reportFiled", SLOW);
      expect(event.data.reportFiled).toMatchObject({ content: "spam, forwarded", account: { nickname: "bob" }, actor: { nickname: "internal.fetch@a.fed.test" }, statuses: [{ id: status.id }] });
      // only the forwarded one left a
      // every job of a has run (a Flag it sent has been answered by b's inbox), then every job of b
      await queueIdle(a);
      await queueIdle(b);
      expect(await b.sql("SELECT comment FROM reports WHERE comment <> $1", [sentinel])).toEqual([{ comment: "spam, forwarded" }]);
      // the staff's report notification, from the reporting instance's actor
      expect(await b.sql("SELECT n.type, x.nickname FROM notifications n JOIN accounts x ON x.id = n.from_account_id WHERE n.account_id = $1 AND x.id <> $2", [mod.id, witness.id])).toEqual([{ type: "report", nickname: "internal.fetch@a.fed.test" }]);
    } finally {
      stop();
      await client.dispose();
    }
  }, 120_000);
});

describe("reports from elsewhere", () => {
  test("a Mastodon-style Flag (its instance actor, object = account and statuses) becomes a report by that actor's account", async () => {
    await peer.actor("peer.fed.test", { name: "peer.fed.test" }); // Mastodon's instance actor is named after its host
    const reported = await post(b, bob, { status: "flag me", visibility: "public" });
    const other = await post(b, mod, { status: "not bob's", visibility: "public" });
    const before = (await b.sql("SELECT id FROM reports")).length;
    const flag = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${peer.baseUrl}/flags/${Date.now()}`,
      type: "Flag",
      actor: `${peer.baseUrl}/users/peer.fed.test`,
      content: "Spam from your user",
      object: [`${b.baseUrl}/users/bob`, reported.uri, other.uri],
    };
    expect((await peer.send("peer.fed.test", `${b.baseUrl}/inbox`, flag)).status).toBe(202);
    const report = await waitFor(async () => {
      const list = (await json(await b.api("/api/v1/ext/admin/reports", { token: mod.token }))).reports;
      return list.length > before ? list.find((r: { content: string }) => r.content === "Spam from your user") : null;
    }, "the peer's report on b", SLOW);
    expect(report).toMatchObject({ state: "open", account: { acct: "bob" }, actor: { acct: "peer.fed.test@peer.fed.test", url: expect.any(String) } });
    // only the reported account's own statuses are kept
    expect(report.statuses.map((s: { id: string }) => s.id)).toEqual([reported.id]);
  }, 120_000);
});

describe("chats", () => {
  test("a chat message to a remote account goes out as a ChatMessage addressed to that one actor", async () => {
    const carlOnA = await resolved(a, alice, `${peer.baseUrl}/users/carl`, "accounts");
    const chat = await json(await a.api(`/api/v1/ext/chats/by-account-id/${carlOnA}`, { token: alice.token, json: {} }));
    const sent = await json(await a.api(`/api/v1/ext/chats/${chat.id}/messages`, { token: alice.token, json: { content: "hello carl" } }));
    const create = await waitFor(async () => peer.received.find((x) => x.type === "Create" && x.object?.type === "ChatMessage"), "the ChatMessage at the peer", SLOW);
    expect(create.actor).toBe(`${a.baseUrl}/users/alice`);
    expect(create.to).toBe(`${peer.baseUrl}/users/carl`);
    expect(create.cc ?? []).toEqual([]);
    expect(create.object).toMatchObject({ type: "ChatMessage", attributedTo: `${a.baseUrl}/users/alice`, to: `${peer.baseUrl}/users/carl`, content: sent.content });
    expect(create.object.cc ?? []).toEqual([]);
    expect((await a.sql<{ ap_id: string }>("SELECT ap_id FROM chat_messages WHERE id = (SELECT message_id FROM chat_message_refs WHERE id = $1)", [sent.id]))[0].ap_id).toBe(create.object.id);
  }, 120_000);

  test("between our servers: the message becomes a chat message on the other side, streamed as ext:chat_update, never a status; the answer comes back", async () => {
    const events: any[] = [];
    const ws = new WebSocket(`${b.directUrl.replace(/^http/, "ws")}/api/v1/streaming?stream=user:ext_chat&access_token=${bob.token}`);
    ws.on("message", (d) => events.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once("open", r));
    try {
      const bobOnA = await resolved(a, alice, "bob@b.fed.test", "accounts");
      const chat = await json(await a.api(`/api/v1/ext/chats/by-account-id/${bobOnA}`, { token: alice.token, json: {} }));
      await json(await a.api(`/api/v1/ext/chats/${chat.id}/messages`, { token: alice.token, json: { content: "hi bob, from a" } }));

      const update = await waitFor(async () => events.find((e) => e.event === "ext:chat_update"), "ext:chat_update on b", SLOW);
      const payload = JSON.parse(update.payload);
      expect(payload).toMatchObject({ account: { acct: "alice@a.fed.test" }, unread: 1, last_message: { content: expect.stringContaining("hi bob, from a") } });
      const chats = await json(await b.api("/api/v1/ext/chats", { token: bob.token }));
      expect(chats.map((c: any) => c.account.acct)).toEqual(["alice@a.fed.test"]);
      const messages = await json(await b.api(`/api/v1/ext/chats/${chats[0].id}/messages`, { token: bob.token }));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ account_id: payload.account.id, chat_id: chats[0].id });
      // a chat, not a post: nothing of alice's among b's statuses, timelines or conversations
      expect(await b.sql("SELECT s.id FROM statuses s JOIN accounts x ON x.id = s.account_id WHERE x.ap_id = $1", [`${a.baseUrl}/users/alice`])).toEqual([]);
      expect((await json(await b.api("/api/v1/timelines/home", { token: bob.token }))).filter((x: any) => x.account.acct !== "bob")).toEqual([]);
      expect(await json(await b.api("/api/v1/conversations", { token: bob.token }))).toEqual([]);
      const notes = await b.sql<{ type: string }>("SELECT type FROM notifications WHERE account_id = $1", [bob.id]);
      expect(notes.map((n) => n.type)).toContain("chat_mention");

      // bob answers in the same chat: alice gets it on a
      await json(await b.api(`/api/v1/ext/chats/${chats[0].id}/messages`, { token: bob.token, json: { content: "hello alice" } }));
      await waitFor(async () => {
        const list = await json(await a.api(`/api/v1/ext/chats/${chat.id}/messages`, { token: alice.token }));
        return list.length === 2 && list[0].content.includes("hello alice");
      }, "bob's answer on a", SLOW);

      // an attachment travels as a Document; b keeps a media row pointing at a's file
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "pic.png");
      form.append("description", "a picture");
      const media = await json(await a.api("/api/v1/media", { method: "POST", token: alice.token, body: form }));
      await json(await a.api(`/api/v1/ext/chats/${chat.id}/messages`, { token: alice.token, json: { media_id: media.id } }));
      const withMedia = await waitFor(async () => {
        const list = await json(await b.api(`/api/v1/ext/chats/${chats[0].id}/messages`, { token: bob.token }));
        return list.length === 3 ? list[0] : null;
      }, "the attachment on b", SLOW);
      expect(withMedia.attachment).toMatchObject({ type: "image", description: "a picture", remote_url: media.url });
    } finally {
      ws.close();
    }
  }, 120_000);
});

describe("chat refusals", () => {
  test("a remote account whose actor says acceptsChatMessages: false is refused like a local one", async () => {
    const quiet = await b.createUser("quiet");
    await json(await b.api("/api/v1/accounts/update_credentials", { method: "PATCH", token: quiet.token, json: { accepts_chat_messages: false } }));
    const quietOnA = await resolved(a, alice, "quiet@b.fed.test", "accounts");
    expect((await a.sql<{ accepts_chat_messages: boolean }>("SELECT accepts_chat_messages FROM accounts WHERE id = $1", [quietOnA]))[0].accepts_chat_messages).toBe(false);
    const chat = await json(await a.api(`/api/v1/ext/chats/by-account-id/${quietOnA}`, { token: alice.token, json: {} }));
    const refused = await a.api(`/api/v1/ext/chats/${chat.id}/messages`, { token: alice.token, json: { content: "hello?" } });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: "recipient does not accept chat messages" });
    // bob's actor says true: stored as such
    const bobOnA = await resolved(a, alice, "bob@b.fed.test", "accounts");
    expect((await a.sql<{ accepts_chat_messages: boolean }>("SELECT accepts_chat_messages FROM accounts WHERE id = $1", [bobOnA]))[0].accepts_chat_messages).toBe(true);
  }, 120_000);
});

describe("move", () => {
  test("aliases federate with the actor's Update; move_account sends Move; followers who allow it follow the target and unfollow the old account", async () => {
    const [old, target, carol, dan] = await Promise.all([a.createUser("oldme"), b.createUser("newme"), b.createUser("carol"), b.createUser("dan")]);
    await json(await b.api("/api/v1/accounts/update_credentials", { method: "PATCH", token: dan.token, json: { allow_following_move: false } }));
    // carol and dan on b follow oldme on a; oldme follows newme on b (so a hears of newme's profile)
    for (const u of [carol, dan]) await json(await b.api("/api/v1/follows", { token: u.token, json: { uri: "oldme@a.fed.test" } }));
    await json(await a.api("/api/v1/follows", { token: old.token, json: { uri: "newme@b.fed.test" } }));
    await waitFor(async () => (await a.sql("SELECT 1 FROM follows WHERE following_id = $1 AND state = 'accept'", [old.id])).length === 2, "a to record both followers", SLOW);
    await waitFor(async () => (await b.sql("SELECT 1 FROM follows WHERE following_id = $1 AND state = 'accept'", [target.id])).length === 1, "b to record oldme following newme", SLOW);

    // newme names oldme as an alias: a learns it through the actor Update
    expect((await b.api("/api/v1/ext/aliases", { method: "PUT", token: target.token, json: { alias: "oldme@a.fed.test" } })).status).toBe(200);
    await waitFor(async () => {
      const [row] = await a.sql<{ also_known_as: string[] }>("SELECT also_known_as FROM accounts WHERE ap_id = $1", [`${b.baseUrl}/users/newme`]);
      return row?.also_known_as.includes(`${a.baseUrl}/users/oldme`);
    }, "the alias on a", SLOW);

    const moved = await json(await a.api("/api/v1/ext/move_account", { token: old.token, json: { password: "pw-oldme-long-enough", target_account: "newme@b.fed.test" } }));
    expect(moved).toEqual({ status: "success" });

    // b: oldme is marked as moved; carol now follows newme and no longer oldme; dan (allow_following_move off) stays
    const oldOnB = (await b.sql<{ id: string; moved_to_id: string | null }>("SELECT id, moved_to_id FROM accounts WHERE ap_id = $1", [`${a.baseUrl}/users/oldme`]))[0];
    await waitFor(async () => (await b.sql("SELECT moved_to_id FROM accounts WHERE id = $1", [oldOnB.id]))[0]?.moved_to_id === target.id, "the Move on b", SLOW);
    await waitFor(async () => {
      const [rel] = await json(await b.api(`/api/v1/accounts/relationships?id[]=${target.id}&id[]=${oldOnB.id}`, { token: carol.token }));
      const [relOld] = (await json(await b.api(`/api/v1/accounts/relationships?id[]=${oldOnB.id}`, { token: carol.token })));
      return rel.following === true && relOld.following === false;
    }, "carol to follow newme instead", SLOW);
    const [danOld] = await json(await b.api(`/api/v1/accounts/relationships?id[]=${oldOnB.id}`, { token: dan.token }));
    const [danNew] = await json(await b.api(`/api/v1/accounts/relationships?id[]=${target.id}`, { token: dan.token }));
    expect({ old: danOld.following, new: danNew.following }).toEqual({ old: true, new: false });
    const notes = await json(await b.api("/api/v1/notifications", { token: dan.token }));
    expect(notes.find((n: any) => n.type === "move")).toMatchObject({ account: { acct: "oldme@a.fed.test" }, target: { acct: "newme" } });

    // a: the Undo of carol's Follow arrived; dan still follows oldme
    await waitFor(async () => {
      const followers = await a.sql<{ ap_id: string }>("SELECT x.ap_id FROM follows f JOIN accounts x ON x.id = f.follower_id WHERE f.following_id = $1", [old.id]);
      return followers.length === 1 && followers[0].ap_id === `${b.baseUrl}/users/dan`;
    }, "carol's unfollow on a", SLOW);
  }, 120_000);
});

describe("emoji reactions", () => {
  test("a custom emoji reaction goes out as EmojiReact with its Emoji tag (the other server shows its image), unreacting as Undo", async () => {
    // a custom emoji on a: a pack with one image
    const headers = { "x-admin-token": ADMIN_TOKEN };
    // 409 on a retry of this test (vitest retries in CI): the pack and its image are there from the first attempt
    expect([200, 409]).toContain((await a.api("/api/v1/ext/emoji/pack?name=blobs", { method: "POST", headers, json: { name: "blobs" } })).status);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(PNG)]), "blobcat.png");
    expect([200, 409]).toContain((await a.api("/api/v1/ext/emoji/packs/files?name=blobs", { method: "POST", headers, body: form })).status);

    const status = await post(b, bob, { status: "react to me", visibility: "public" });
    const onA = await resolved(a, alice, status.uri, "statuses");
    const react = (emoji: string, method: "PUT" | "DELETE") => a.api(`/api/v1/ext/statuses/${onA}/reactions/${encodeURIComponent(emoji)}`, { method, token: alice.token });
    expect((await react(":blobcat:", "PUT")).status).toBe(200);
    expect((await react("👍", "PUT")).status).toBe(200);

    const reactions = await waitFor(async () => {
      const seen = await json(await b.api(`/api/v1/statuses/${status.id}`, { token: bob.token }));
      return seen.emoji_reactions.length === 2 ? seen.emoji_reactions : null;
    }, "both reactions on b", SLOW);
    expect(reactions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "blobcat", count: 1, url: `${a.baseUrl}/emoji/packs/blobs/blobcat.png` }),
        expect.objectContaining({ name: "👍", count: 1 }),
      ]),
    );
    // the Emoji tag made it a known remote emoji of a's domain
    expect(await b.sql("SELECT shortcode FROM remote_emojis WHERE domain = 'a.fed.test'")).toEqual([{ shortcode: "blobcat" }]);
    // the notification is written just after the reaction row (reactAs, then notify): wait for both
    await waitFor(async () => (await b.sql("SELECT 1 FROM notifications WHERE account_id = $1 AND status_id = $2 AND type::text LIKE '%reaction%'", [bob.id, status.id])).length === 2, "two reaction notifications on b", SLOW);

    expect((await react(":blobcat:", "DELETE")).status).toBe(200);
    await waitFor(async () => {
      const seen = await json(await b.api(`/api/v1/statuses/${status.id}`, { token: bob.token }));
      return seen.emoji_reactions.length === 1 && seen.emoji_reactions[0].name === "👍";
    }, "the Undo on b", SLOW);
  }, 120_000);
});

describe("remote users and instances in the admin API", () => {
  test("after the exchanges above: users filtered local/external, a remote user with its instance, an instance's statuses, stats and health (REST and GraphQL)", async () => {
    const headers = { "x-admin-token": ADMIN_TOKEN };
    const get = async (server: TestInstance, path: string) => json(await server.api(path, { headers }));
    const gql = async (server: TestInstance, query: string) => json(await server.api("/graphql", { headers, json: { query } }));

    const external = await get(b, "/api/v1/ext/admin/users?filters=external&page_size=50");
    const externalNames = external.users.map((u: { nickname: string }) => u.nickname);
    // met through chats, the move and the forwarded report
    expect(externalNames).toEqual(expect.arrayContaining(["alice@a.fed.test", "oldme@a.fed.test", "internal.fetch@a.fed.test"]));
    expect(external.users.every((u: { local: boolean }) => u.local === false)).toBe(true);
    const local = await get(b, "/api/ext/admin/users?filters=local&page_size=50");
    expect(local.users.map((u: { nickname: string }) => u.nickname)).toEqual(expect.arrayContaining(["bob", "newme", "carol"]));
    expect(local.users.some((u: { nickname: string }) => u.nickname.includes("@"))).toBe(false);

    const oldme = await get(b, "/api/v1/ext/admin/users/oldme@a.fed.test");
    expect(oldme).toMatchObject({ nickname: "oldme@a.fed.test", local: false, url: `${a.baseUrl}/users/oldme` });
    const viaGql = await gql(b, '{ adminUser(nicknameOrId: "oldme@a.fed.test") { nickname local domain url } remote: adminUsers(filters: ["external"], first: 50) { totalCount edges { node { nickname domain } } } }');
    expect(viaGql.data.adminUser).toEqual({ nickname: "oldme@a.fed.test", local: false, domain: "a.fed.test", url: `${a.baseUrl}/users/oldme` });
    expect(viaGql.data.remote.totalCount).toBe(external.count ?? external.users.length);
    expect(viaGql.data.remote.edges.every((e: { node: { domain: string | null } }) => e.node.domain === "a.fed.test" || e.node.domain === "peer.fed.test")).toBe(true);

    // a holds b's public statuses that alice resolved (the reported one, the reacted one)
    const statuses = await get(a, "/api/v1/ext/admin/instances/b.fed.test/statuses?page_size=20");
    expect(statuses.total).toBeGreaterThanOrEqual(2);
    const contents = statuses.activities.map((s: { content: string }) => s.content).join(" ");
    expect(contents).toContain("reportable");
    expect(contents).toContain("react to me");
    expect(statuses.activities.every((s: { account: { acct: string } }) => s.account.acct.endsWith("@b.fed.test"))).toBe(true);
    const stats = await get(a, "/api/v1/ext/admin/stats?instance=b.fed.test");
    expect(stats.status_visibility.public).toBe(statuses.total);
    const health = await get(a, "/api/v1/ext/admin/instances/b.fed.test");
    expect(health).toMatchObject({ domain: "b.fed.test", reachable: true, failure_count: 0 });
    expect(health.last_success_at).toBeTruthy();
  }, 120_000);
});
