// Relays over the TLS test network (issue 14, criterion 1): two of our servers subscribe, through the
// admin API (both prefixes and GraphQL), to a relay written with Fedify in the test harness. The relay
// actor's Follow stays pending until the relay's Accept; the relay's follow-back shows as
// `followed_back`; a public post on a reaches b's federated timeline through the relay's Announce, b
// and a knowing nothing of each other; unfollowing sends the Undo, and `force` drops a relay that no
// longer answers.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_TOKEN, queueIdle, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer } from "../support/federation/peer.ts";
import { startRelay, type TestRelay } from "../support/federation/relay.ts";

let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
let relay: TestRelay;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
const admin = { "x-admin-token": ADMIN_TOKEN };

/** Federation crosses several jobs and servers: waits sized for a loaded machine. */
const SLOW = { timeoutMs: 45_000 };
const json = async (res: Response) => {
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
};
const gql = async (server: TestInstance, query: string, variables: Record<string, unknown> = {}) => json(await server.api("/graphql", { headers: admin, json: { query, variables } }));
const relaysOf = async (server: TestInstance, prefix = "/api/v1/ext/admin") => (await json(await server.api(`${prefix}/relay`, { headers: admin }))) as { actor: string; followed_back: boolean }[];
const relayRow = async (server: TestInstance) => (await server.sql<{ state: string; followed_back: boolean }>("SELECT state, followed_back FROM relays WHERE actor = $1", [relay.actorId]))[0];

beforeAll(async () => {
  net = await startFederationNet();
  [a, b] = await Promise.all([net.start("a"), net.start("b")]);
  relay = await startRelay(net, "relay", { autoAccept: false });
  [alice, bob] = await Promise.all([a.createUser("alice"), b.createUser("bob")]);
}, 120_000);

afterAll(async () => {
  if (process.env.FED_LOGS) console.log(`---- a\n${a?.logs()}\n---- b\n${b?.logs()}`);
  await relay?.close();
  await net?.close();
});

describe("relays", () => {
  test("following a relay sends the relay actor's Follow; pending until the Accept, followed_back once the relay follows back", async () => {
    const res = await a.api("/api/ext/admin/relay", { headers: admin, json: { relay_url: relay.actorId } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ actor: relay.actorId, followed_back: false });
    const follow = await waitFor(async () => relay.received.find((x) => x.type === "Follow" && x.actor === `${a.baseUrl}/relay`), "the relay to receive a's Follow", SLOW);
    await waitFor(async () => relay.pending().includes(`${a.baseUrl}/relay`), "the relay to verify a's Follow", SLOW);
    expect(follow.object).toBe(relay.actorId);
    // held by the relay: still pending, in GraphQL and in the database
    const listed = await gql(a, "{ adminRelays { actor state followedBack } }");
    expect(listed.data.adminRelays).toEqual([{ actor: relay.actorId, state: "pending", followedBack: false }]);
    expect(await relaysOf(a)).toEqual([{ actor: relay.actorId, followed_back: false }]);

    await relay.acceptPending();
    await waitFor(async () => (await relayRow(a))?.state === "accepted", "a to record the relay's Accept", SLOW);
    await waitFor(async () => (await relaysOf(a, "/api/ext/admin"))[0]?.followed_back === true, "followed_back on a", SLOW);
    // the relay follows back and its Follow is accepted by the relay actor
    // (the Accept is a delivery job of its own, sent after followed_back is recorded)
    await waitFor(async () => relay.received.some((x) => x.type === "Accept" && x.actor === `${a.baseUrl}/relay`), "a's Accept of the relay's Follow", SLOW);
    expect(relay.subscribers()).toContain(`${a.baseUrl}/relay`);
  }, 120_000);

  test("b subscribes through GraphQL; a public post on a reaches b's federated timeline through the relay's Announce", async () => {
    const followed = await gql(b, "mutation($u: String!) { followRelay(relayUrl: $u) { actor state followedBack } }", { u: relay.actorId });
    expect(followed.data.followRelay).toEqual({ actor: relay.actorId, state: "pending", followedBack: false });
    await waitFor(async () => relay.pending().includes(`${b.baseUrl}/relay`), "b's Follow", SLOW);
    await relay.acceptPending();
    await waitFor(async () => (await relayRow(b))?.followed_back === true && (await relayRow(b))?.state === "accepted", "b to be subscribed", SLOW);

    // bob reads the federated timeline before the post exists: b keeps that page, and the relayed post must drop it
    const federated = () => b.api("/api/v1/timelines/public?remote=true&limit=40", { token: bob.token });
    expect((await federated()).status).toBe(200);
    expect((await federated()).status).toBe(200);
    const posted = await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "through the relay", visibility: "public" } }));
    const create = await waitFor(async () => relay.received.find((x) => x.type === "Create" && x.object?.id === posted.uri), "the relay to receive alice's post", SLOW);
    expect(create.actor).toBe(`${a.baseUrl}/users/alice`);
    const onB = await waitFor(async () => {
      const timeline = await json(await federated());
      return timeline.find((s: { uri: string }) => s.uri === posted.uri);
    }, "alice's post on b's federated timeline", SLOW).catch(async (error) => {
      // which side failed: b never stored the post (the Announce or the fetch of the note), or b's page did not show it
      const stored = await b.sql("SELECT id, created_at FROM statuses WHERE uri = $1", [posted.uri]);
      const announces = relay.received.filter((x) => x.type === "Create").length;
      console.error(`---- a\n${a.logs()}\n---- b\n${b.logs()}`);
      throw new Error(`${(error as Error).message}; stored on b: ${JSON.stringify(stored)}; Creates at the relay: ${announces}`);
    });
    expect(onB).toMatchObject({ content: expect.stringContaining("through the relay"), account: { acct: "alice@a.fed.test" }, reblog: null });
    // a plain status, not a reblog by the relay's account
    expect(await b.sql("SELECT s.id FROM statuses s JOIN accounts x ON x.id = s.account_id WHERE x.ap_id = $1", [relay.actorId])).toEqual([]);
    // nobody on b follows alice: the relay is what brought it
    expect(await b.sql("SELECT 1 FROM follows f JOIN accounts x ON x.id = f.following_id WHERE x.ap_id = $1", [`${a.baseUrl}/users/alice`])).toEqual([]);

    // unlisted and followers-only posts are not given to relays
    const unlisted = await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "not for relays", visibility: "unlisted" } }));
    const marker = await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "marker", visibility: "public" } }));
    await waitFor(async () => relay.received.some((x) => x.type === "Create" && x.object?.id === marker.uri), "the marker post", SLOW);
    expect(relay.received.some((x) => x.object?.id === unlisted.uri)).toBe(false);
  }, 120_000);

  test("a relayed post whose server does not answer at first is stored once it does (b handles the Announce again)", async () => {
    const origin = await startPeer(net, "origin");
    await origin.actor("carol");
    const note = { "@context": "https://www.w3.org/ns/activitystreams", id: `${origin.baseUrl}/notes/late`, type: "Note", attributedTo: `${origin.baseUrl}/users/carol`, content: "<p>relayed while its server was down</p>", to: ["https://www.w3.org/ns/activitystreams#Public"], published: new Date().toISOString() };
    origin.publish(note);
    // two answers: Fedify's signed fetch knocks twice (RFC 9421, then draft-cavage) before it gives up
    const down = origin.failNext(note.id, 2, 503);
    await relay.announce(note.id, [`${b.baseUrl}/relay`]);
    await waitFor(async () => down.failed() === 2, "b's first fetches of the note (answered 503)", SLOW);
    // Fedify's inbox retry policy: the Announce is handled again about 10 s later
    const stored = await waitFor(async () => (await b.sql<{ content: string }>("SELECT content FROM statuses WHERE uri = $1", [note.id]))[0], "the note stored on b", SLOW);
    expect(stored.content).toContain("relayed while its server was down");
    await origin.close();
  }, 120_000);

  test("unfollow sends Undo Follow from the relay actor and removes the relay", async () => {
    const res = await a.api("/api/ext/admin/relay", { method: "DELETE", headers: admin, json: { relay_url: relay.actorId } });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe(relay.actorId);
    expect(await relaysOf(a)).toEqual([]);
    const undo = await waitFor(async () => relay.received.find((x) => x.type === "Undo" && x.actor === `${a.baseUrl}/relay`), "the Undo", SLOW);
    expect(undo.object).toMatchObject({ type: "Follow", actor: `${a.baseUrl}/relay`, object: relay.actorId });
    await waitFor(async () => !relay.subscribers().includes(`${a.baseUrl}/relay`), "the relay to drop a", SLOW);
    // a's public posts no longer go to the relay
    const after = await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "after unfollowing", visibility: "public" } }));
    await queueIdle(a); // every job of a has run, so a delivery to the relay would have reached it
    expect(relay.received.some((x) => x.object?.id === after.uri)).toBe(false);
  }, 120_000);

  test("force=true removes a relay that no longer answers; without force an unknown relay is a 404", async () => {
    await relay.close();
    const unknown = await b.api("/api/v1/ext/admin/relay", { method: "DELETE", headers: admin, json: { relay_url: "https://nowhere.fed.test/relay" } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/Not following relay/);
    const forced = await gql(b, "mutation($u: String!) { unfollowRelay(relayUrl: $u, force: true) }", { u: relay.actorId });
    expect(forced.data.unfollowRelay).toBe(relay.actorId);
    expect(await relaysOf(b)).toEqual([]);
    expect(await b.sql("SELECT * FROM relays")).toEqual([]);
  }, 120_000);
});
