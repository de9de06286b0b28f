// The inbox's refusals, over the real TLS test network: unsigned requests, a key that is not the actor's,
// a body changed after signing get 401 and change nothing; the same activity twice changes nothing more;
// servers in the instance's reject list (the family's `:mrf_simple, :reject`) get 403 before any
// processing — no key fetch, no account stored. RFC 9421 signatures are accepted as draft-cavage ones are.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_TOKEN, queueIdle, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer, type Peer } from "../support/federation/peer.ts";

let net: FederationNet;
let a: TestInstance;
let peer: Peer;
let blocked: Peer;
let bob: { id: string; token: string };
let n = 0;
const uid = () => `${Date.now().toString(36)}-${++n}`;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

beforeAll(async () => {
  net = await startFederationNet();
  a = await net.start("a", { CONFIGURABLE_FROM_DATABASE: "true" });
  peer = await startPeer(net);
  blocked = await startPeer(net, "blocked");
  bob = await a.createUser("bob");
  await peer.actor("alice");
  await peer.actor("mallory");
  await blocked.actor("spammer");
  const res = await a.api("/api/v1/ext/admin/config", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    json: { configs: [{ group: ":pleroma", key: ":mrf_simple", value: [{ tuple: [":reject", [{ tuple: ["blocked.fed.test", "spam"] }]] }] }] },
  });
  expect(res.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await peer?.close();
  await blocked?.close();
  await net?.close();
});

const inbox = `https://a.fed.test/inbox`;
const count = async (sql: string, params: unknown[] = []) => Number((await a.sql<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params))[0].n);

function mentionCreate(from: Peer, name: string) {
  const actor = `${from.baseUrl}/users/${name}`;
  const object = { id: `${from.baseUrl}/notes/${uid()}`, type: "Note", attributedTo: actor, content: "<p>@bob hi</p>", to: [PUBLIC], cc: ["https://a.fed.test/users/bob"], tag: [{ type: "Mention", href: "https://a.fed.test/users/bob" }] };
  return { "@context": "https://www.w3.org/ns/activitystreams", id: `${object.id}/activity`, type: "Create", actor, to: object.to, cc: object.cc, object };
}

// first in the file: the server records a host's first verified activity (then at most every ten minutes)
test("an instance marked unreachable is reachable again once a verified activity comes from it", async () => {
  const host = new URL(peer.baseUrl).host;
  await a.sql(
    `INSERT INTO instances (domain, unreachable_since, failure_count, last_failure_at, created_at, updated_at)
     VALUES ($1, now() - interval '9 days', 7, now() - interval '1 hour', now(), now())`,
    [host],
  );
  const admin = () => a.api(`/api/v1/ext/admin/instances/${host}`, { headers: { "x-admin-token": ADMIN_TOKEN } });
  expect(await (await admin()).json()).toMatchObject({ reachable: false, failure_count: 7 });
  const activity = mentionCreate(peer, "alice");
  expect((await peer.send("alice", inbox, activity)).status).toBe(202);
  await waitFor(async () => (await a.sql<{ unreachable_since: Date | null }>("SELECT unreachable_since FROM instances WHERE domain = $1 AND failure_count = 0", [host]))[0]?.unreachable_since === null, "reachable again");
  expect(await (await admin()).json()).toMatchObject({ reachable: true, unreachable_since: null, failure_count: 0 });
});

describe("inbox refusals", () => {
  test("unsigned: 401 with a reason, nothing stored", async () => {
    const activity = mentionCreate(peer, "alice");
    const res = await peer.send("alice", inbox, activity, { unsigned: true });
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/signature/i);
    expect(await count("statuses WHERE uri = $1", [activity.object.id])).toBe(0);
  });

  test("signed with another actor's key (key owner is not the actor): 401, nothing stored", async () => {
    const activity = mentionCreate(peer, "alice");
    const res = await peer.send("alice", inbox, activity, { signAs: "mallory" });
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/signer and the actor do not match/i);
    expect(await count("statuses WHERE uri = $1", [activity.object.id])).toBe(0);
  });

  test("body changed after signing (digest mismatch): 401, nothing stored", async () => {
    const activity = mentionCreate(peer, "alice");
    const res = await peer.send("alice", inbox, activity, { tamper: true });
    expect(res.status).toBe(401);
    expect(await count("statuses WHERE uri = $1", [activity.object.id])).toBe(0);
  });

  test("RFC 9421 signatures are accepted; the same activity twice changes nothing more", async () => {
    const activity = mentionCreate(peer, "alice");
    expect((await peer.send("alice", inbox, activity, { spec: "rfc9421" })).status).toBe(202);
    await waitFor(async () => (await count("statuses WHERE uri = $1", [activity.object.id])) === 1, "stored");
    // the mention's notification follows the stored row (statusStored): counted once it is there
    await waitFor(async () => (await count("notifications WHERE account_id = $1 AND status_id IN (SELECT id FROM statuses WHERE uri = $2)", [bob.id, activity.object.id])) === 1, "notified");
    const notifications = await count("notifications WHERE account_id = $1", [bob.id]);
    // the remote author's last status date, as for a local post
    expect(await count("accounts WHERE ap_id = $1 AND last_status_at::date = (now() AT TIME ZONE 'UTC')::date", [`${peer.baseUrl}/users/alice`])).toBe(1);
    // again, to the shared inbox and to bob's own: de-duplicated by id, and the writes are idempotent anyway
    expect((await peer.send("alice", inbox, activity)).status).toBe(202);
    expect((await peer.send("alice", "https://a.fed.test/users/bob/inbox", activity)).status).toBe(202);
    // the same object in a Create with another id
    await peer.send("alice", inbox, { ...activity, id: `${activity.id}-again` });
    await queueIdle(a); // the inbox queued them before answering 202, and every job of a has run since
    expect(await count("statuses WHERE uri = $1", [activity.object.id])).toBe(1);
    expect(await count("notifications WHERE account_id = $1", [bob.id])).toBe(notifications);
  });

  test("a Like twice (two ids) is one favourite and one notification", async () => {
    const posted = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "like me twice" } })).json();
    for (const id of [uid(), uid()]) await peer.send("alice", inbox, { "@context": "https://www.w3.org/ns/activitystreams", id: `${peer.baseUrl}/likes/${id}`, type: "Like", actor: `${peer.baseUrl}/users/alice`, object: posted.uri });
    await waitFor(async () => (await count("favourites WHERE status_id = $1", [posted.id])) === 1, "favourite");
    await queueIdle(a); // the inbox queued them before answering 202, and every job of a has run since
    expect(await count("favourites WHERE status_id = $1", [posted.id])).toBe(1);
    expect(await count("notifications WHERE status_id = $1 AND type = 'favourite'", [posted.id])).toBe(1);
  });

  test("a rejected server: 403 before any processing (its actor is never fetched nor stored)", async () => {
    const activity = mentionCreate(blocked, "spammer");
    const res = await blocked.send("spammer", inbox, activity);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/blocked\.fed\.test.*spam/);
    const follow = await blocked.send("spammer", "https://a.fed.test/users/bob/inbox", { "@context": "https://www.w3.org/ns/activitystreams", id: `${blocked.baseUrl}/f/${uid()}`, type: "Follow", actor: `${blocked.baseUrl}/users/spammer`, object: "https://a.fed.test/users/bob" });
    expect(follow.status).toBe(403);
    expect(await count("accounts WHERE domain = 'blocked.fed.test'")).toBe(0);
    expect(await count("statuses WHERE uri = $1", [activity.object.id])).toBe(0);
    // an allowed server's activity naming a rejected server's object does not bring it in either
    const announce = { "@context": "https://www.w3.org/ns/activitystreams", id: `${peer.baseUrl}/announces/${uid()}`, type: "Announce", actor: `${peer.baseUrl}/users/alice`, object: activity.object.id, to: [PUBLIC] };
    expect((await peer.send("alice", inbox, announce)).status).toBe(202);
    await queueIdle(a); // the inbox queued them before answering 202, and every job of a has run since
    expect(await count("statuses WHERE uri = $1", [activity.object.id])).toBe(0);
  });
});
