// Remote instances in the admin API and GraphQL, on real federated data from two Fedify peers over the
// TLS test network: user lists filtered local/external, a remote user's details with its instance,
// statuses by instance, instance stats (accounts, statuses, last reachable); then the purge of an
// instance (a durable job, progress in the moderation log) removing every account, status, media file,
// reaction, follow and notification of it, cached proxy copies included, while new content from it is
// refused as long as the domain block stands.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_TOKEN, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer, type Peer } from "../support/federation/peer.ts";

let net: FederationNet;
let a: TestInstance;
let peer: Peer;
let other: Peer;
let bob: { id: string; token: string };
let bobPost: { id: string; uri: string };
let n = 0;
const uid = () => `${Date.now().toString(36)}-${++n}`;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const inbox = "https://a.fed.test/inbox";
const AS = "https://www.w3.org/ns/activitystreams";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const admin = (path: string, init: RequestInit & { json?: unknown } = {}) => a.api(`/api/v1/ext/admin${path}`, { ...init, headers: { "x-admin-token": ADMIN_TOKEN } });
const gql = async (query: string) => (await a.api("/graphql", { headers: { "x-admin-token": ADMIN_TOKEN }, json: { query } })).json();
const count = async (sql: string, params: unknown[] = []) => Number((await a.sql<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params))[0].n);

function note(from: Peer, name: string, extra: Record<string, unknown> = {}) {
  const actor = `${from.baseUrl}/users/${name}`;
  const object = { id: `${from.baseUrl}/notes/${uid()}`, type: "Note", attributedTo: actor, content: "<p>hi @bob</p>", to: [PUBLIC], cc: ["https://a.fed.test/users/bob"], tag: [{ type: "Mention", href: "https://a.fed.test/users/bob" }], ...extra };
  return { "@context": AS, id: `${object.id}/activity`, type: "Create", actor, to: object.to, cc: object.cc, object };
}
async function deliver(from: Peer, name: string, activity: Record<string, unknown>) {
  expect((await from.send(name, inbox, activity)).status).toBe(202);
}

beforeAll(async () => {
  net = await startFederationNet();
  a = await net.start("a", { CONFIGURABLE_FROM_DATABASE: "true" });
  peer = await startPeer(net);
  other = await startPeer(net, "other");
  bob = await a.createUser("bob");
  peer.serveFile(`${peer.baseUrl}/files/alice.png`, PNG, "image/png");
  peer.serveFile(`${peer.baseUrl}/files/photo.png`, PNG, "image/png");
  await peer.actor("alice", { icon: `${peer.baseUrl}/files/alice.png`, emojis: { blob: `${peer.baseUrl}/files/blob.png` } });
  await peer.actor("carol");
  await other.actor("dave");
  // follows of bob (accepted at once: bob is not locked, so an Accept goes back to the peer)
  for (const name of ["alice", "carol"]) await deliver(peer, name, { "@context": AS, id: `${peer.baseUrl}/follows/${uid()}`, type: "Follow", actor: `${peer.baseUrl}/users/${name}`, object: "https://a.fed.test/users/bob" });
  await deliver(other, "dave", { "@context": AS, id: `${other.baseUrl}/follows/${uid()}`, type: "Follow", actor: `${other.baseUrl}/users/dave`, object: "https://a.fed.test/users/bob" });
  // posts: a mention with a picture and an emoji, a plain one, and one from the other server
  await deliver(peer, "alice", note(peer, "alice", { attachment: [{ type: "Document", mediaType: "image/png", url: `${peer.baseUrl}/files/photo.png` }], content: "<p>hi @bob :blob:</p>", tag: [{ type: "Mention", href: "https://a.fed.test/users/bob" }, { type: "Emoji", name: ":blob:", icon: { type: "Image", url: `${peer.baseUrl}/files/blob.png` } }] }));
  await deliver(peer, "carol", note(peer, "carol"));
  await deliver(other, "dave", note(other, "dave"));
  // bob posts; alice likes it and reacts to it (as Misskey sends reactions)
  bobPost = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "hello fediverse" } })).json();
  await deliver(peer, "alice", { "@context": AS, id: `${peer.baseUrl}/likes/${uid()}`, type: "Like", actor: `${peer.baseUrl}/users/alice`, object: bobPost.uri });
  await deliver(peer, "alice", { "@context": AS, id: `${peer.baseUrl}/reacts/${uid()}`, type: "Like", actor: `${peer.baseUrl}/users/alice`, object: bobPost.uri, _misskey_reaction: "👍" });
  await waitFor(
    async () => {
      const seen = [await count("follows f JOIN accounts x ON x.id = f.follower_id WHERE x.domain IS NOT NULL"), await count("statuses WHERE account_id IN (SELECT id FROM accounts WHERE domain IS NOT NULL)"), await count("reactions"), await count("favourites")];
      return seen.join() === "3,3,1,1";
    }, "federated data stored", { timeoutMs: 40_000, intervalMs: 2000 });
  // the Accepts reached the peers: their instances are known reachable
  await waitFor(async () => (await count("instances WHERE domain IN ('peer.fed.test', 'other.fed.test') AND last_success_at IS NOT NULL")) === 2, "deliveries recorded", { timeoutMs: 40_000 });
}, 120_000);
afterAll(async () => {
  await peer?.close();
  await other?.close();
  await net?.close();
});

describe("remote users and instances in the admin API and GraphQL", () => {
  test("user lists filtered local / external; a remote user's details name its instance", async () => {
    const names = async (filters: string) => ((await (await admin(`/users?filters=${filters}&page_size=100`)).json()).users as { nickname: string }[]).map((u) => u.nickname);
    const external = await names("external");
    expect(external).toEqual(expect.arrayContaining(["alice@peer.fed.test", "carol@peer.fed.test", "dave@other.fed.test"]));
    expect(external).not.toContain("bob");
    const local = await names("local");
    expect(local).toContain("bob");
    expect(local.some((nick) => nick.includes("@"))).toBe(false);
    const alice = await (await admin("/users/alice@peer.fed.test")).json();
    expect(alice).toMatchObject({ nickname: "alice@peer.fed.test", local: false, domain: "peer.fed.test", url: `${peer.baseUrl}/users/alice`, avatar: `${peer.baseUrl}/files/alice.png` });
    const res = await gql(`{ adminUsers(first: 50, filters: ["external"]) { edges { node { nickname local domain } } } }`);
    const nodes = res.data.adminUsers.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toEqual(expect.arrayContaining([{ nickname: "dave@other.fed.test", local: false, domain: "other.fed.test" }]));
    expect(nodes.every((u: { local: boolean }) => !u.local)).toBe(true);
  });

  test("statuses by instance and instance stats (accounts, statuses, last reachable)", async () => {
    const statuses = await (await admin("/instances/peer.fed.test/statuses?page_size=50")).json();
    expect(statuses.total).toBe(2);
    expect(statuses.activities.map((s: { account: { acct: string } }) => s.account.acct).sort()).toEqual(["alice@peer.fed.test", "carol@peer.fed.test"]);
    const shown = await (await admin("/instances/peer.fed.test")).json();
    expect(shown).toMatchObject({ domain: "peer.fed.test", users_count: 2, statuses_count: 2, reachable: true, last_success_at: expect.any(String) });
    const list = await (await admin("/instances")).json();
    expect(list.instances.find((i: { domain: string }) => i.domain === "other.fed.test")).toMatchObject({ users_count: 1, statuses_count: 1 });
    const res = await gql(`{ adminInstance(domain: "peer.fed.test") { domain usersCount statusesCount lastSuccessAt } adminInstanceStatuses(instance: "other.fed.test", first: 10) { totalCount } }`);
    expect(res.data.adminInstance).toMatchObject({ domain: "peer.fed.test", usersCount: 2, statusesCount: 2, lastSuccessAt: expect.any(String) });
    expect(res.data.adminInstanceStatuses.totalCount).toBe(1);
  });
});

describe("instance purge", () => {
  test("removes everything of the instance in a job, logs its progress, evicts cached media; the block keeps new content out", async () => {
    // a proxied, cached copy of alice's avatar
    expect((await admin("/config", { method: "POST", json: { configs: [{ group: ":pleroma", key: ":media_proxy", value: [{ tuple: [":enabled", true] }] }] } })).status).toBe(200);
    const aliceId = (await a.sql<{ id: string }>("SELECT id FROM accounts WHERE ap_id = $1", [`${peer.baseUrl}/users/alice`]))[0].id;
    const avatar = (await (await a.api(`/api/v1/accounts/${aliceId}`)).json()).avatar as string;
    expect(avatar).toMatch(/\/proxy\//);
    const proxied = () => a.api(new URL(avatar).pathname);
    expect((await proxied()).status).toBe(200);
    const changed = Buffer.concat([PNG, Buffer.from("v2")]);
    peer.serveFile(`${peer.baseUrl}/files/alice.png`, changed, "image/png");
    expect(Buffer.from(await (await proxied()).arrayBuffer()).equals(PNG)).toBe(true); // cached

    // the domain block, then the purge
    expect((await admin("/config", { method: "POST", json: { configs: [{ group: ":pleroma", key: ":mrf_simple", value: [{ tuple: [":reject", [{ tuple: ["peer.fed.test", "purged"] }]] }] }] } })).status).toBe(200);
    const res = await admin("/instances/peer.fed.test", { method: "DELETE" });
    expect(res.status).toBe(200);
    const peerAccounts = "(SELECT id FROM accounts WHERE domain = 'peer.fed.test')";
    await waitFor(async () => (await count("accounts WHERE domain = 'peer.fed.test'")) === 0, "accounts removed", { timeoutMs: 30_000 });
    await waitFor(async () => (await count("moderation_log WHERE action = 'instance_delete_done'")) === 1, "purge finished");
    expect(await count("statuses WHERE uri LIKE 'https://peer.fed.test/%'")).toBe(0);
    expect(await count("media_attachments WHERE remote_url LIKE 'https://peer.fed.test/%' OR url LIKE 'https://peer.fed.test/%'")).toBe(0);
    expect(await count(`follows WHERE follower_id IN ${peerAccounts} OR following_id IN ${peerAccounts}`)).toBe(0);
    expect(await count("follows")).toBe(1); // dave's stays
    expect(await count("reactions")).toBe(0);
    expect(await count("favourites")).toBe(0);
    expect(await count("notifications WHERE account_id = $1 AND type IN ('mention', 'favourite', 'pleroma:emoji_reaction', 'follow')", [bob.id])).toBe(2); // dave's follow and mention
    expect(await count("remote_emojis WHERE domain = 'peer.fed.test'")).toBe(0);
    expect(await count("statuses WHERE uri LIKE 'https://other.fed.test/%'")).toBe(1);
    // bob's post survives, its counters too
    const post = await (await a.api(`/api/v1/statuses/${bobPost.id}`)).json();
    expect(post).toMatchObject({ favourites_count: 0 });

    // the moderation log tells who asked, the progress and the end
    const log = await (await admin("/moderation_log")).json();
    const messages = (log.items as { data: { message: string } }[]).map((i) => i.data.message);
    expect(messages).toEqual(expect.arrayContaining([
      "@admin_token requested deletion of instance peer.fed.test",
      "@admin_token's deletion of instance peer.fed.test: 2 accounts and 2 statuses removed so far",
      "@admin_token deleted instance peer.fed.test: 2 accounts and 2 statuses removed",
    ]));

    // the cached copy of its avatar is gone: the proxy fetches the file again
    expect(Buffer.from(await (await proxied()).arrayBuffer()).equals(changed)).toBe(true);

    // new content is refused while the block stands
    const again = note(peer, "alice");
    const refused = await peer.send("alice", inbox, again);
    expect(refused.status).toBe(403);
    expect(await count("accounts WHERE domain = 'peer.fed.test'")).toBe(0);
    expect(await count("statuses WHERE uri = $1", [again.object.id])).toBe(0);
  });
});

test("a large instance is purged in batches that resume after a restart, with progress after each batch", async () => {
  const host = "bulk.fed.test";
  await a.sql(
    `INSERT INTO accounts (id, nickname, domain, local, ap_id, updated_at)
     SELECT 'bulk' || lpad(i::text, 6, '0'), 'u' || i || '@${host}', '${host}', false, 'https://${host}/users/u' || i, now() FROM generate_series(1, 450) AS i`,
  );
  await a.sql(
    `INSERT INTO statuses (id, uri, account_id, context, updated_at)
     SELECT 'bulkst' || lpad(i::text, 6, '0'), 'https://${host}/notes/' || i, 'bulk' || lpad(i::text, 6, '0'), 'https://${host}/ctx/' || i, now() FROM generate_series(1, 450) AS i`,
  );
  expect((await admin(`/instances/${host}`, { method: "DELETE" })).status).toBe(200);
  // the job is durable: a restart in the middle (or after) leaves nothing behind once it has run
  await a.restart();
  await waitFor(async () => (await count(`moderation_log WHERE action = 'instance_delete_done' AND message LIKE '%${host}%'`)) >= 1, "bulk purge finished", { timeoutMs: 60_000 });
  expect(await count(`accounts WHERE domain = '${host}'`)).toBe(0);
  expect(await count(`statuses WHERE uri LIKE 'https://${host}/%'`)).toBe(0);
  const progress = await a.sql<{ message: string }>(`SELECT message FROM moderation_log WHERE action = 'instance_delete_progress' AND message LIKE '%${host}%' ORDER BY id`);
  // 100 accounts a batch: at least five progress entries (a batch redone after a restart may add one)
  expect(progress.length).toBeGreaterThanOrEqual(5);
  expect(progress.at(-1)!.message).toMatch(/\d+ accounts and \d+ statuses removed so far/);
}, 120_000);
