// The content policies (the family's MRF), configured through the admin config API while the server
// runs, applied to real activities a Fedify peer signs and delivers over the TLS test network: each
// SimplePolicy action, KeywordPolicy, HashtagPolicy and ObjectAgePolicy, and what NodeInfo publishes.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_TOKEN, queueIdle, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer, type Peer } from "../support/federation/peer.ts";

let net: FederationNet;
let a: TestInstance;
let peer: Peer;
let n = 0;
const uid = () => `${Date.now().toString(36)}-${++n}`;
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const inbox = "https://a.fed.test/inbox";
const PEER = "peer.fed.test";

beforeAll(async () => {
  net = await startFederationNet();
  a = await net.start("a", { CONFIGURABLE_FROM_DATABASE: "true" });
  peer = await startPeer(net);
  await peer.actor("alice");
}, 60_000);
afterAll(async () => {
  await peer?.close();
  await net?.close();
});

const rows = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => a.sql<T>(sql, params);

/** Sets family settings (`:mrf_simple`, `:mrf_keyword`, …) as an admin would, at runtime. */
async function configure(key: string, entries: Record<string, unknown>) {
  const value = Object.entries(entries).map(([k, v]) => ({ tuple: [`:${k}`, v] }));
  const res = await a.api("/api/v1/ext/admin/config", { headers: { "x-admin-token": ADMIN_TOKEN }, json: { configs: [{ group: ":pleroma", key, value }] } });
  expect(res.status).toBe(200);
}
const hostList = (...hosts: string[]) => hosts.map((h) => ({ tuple: [h, "test"] }));

interface NoteOptions {
  content?: string;
  summary?: string;
  to?: string[];
  cc?: string[];
  tag?: unknown[];
  attachment?: unknown[];
  published?: string;
  actor?: string;
}
function create(o: NoteOptions = {}) {
  const actor = `${peer.baseUrl}/users/${o.actor ?? "alice"}`;
  const object = {
    id: `${peer.baseUrl}/notes/${uid()}`,
    type: "Note",
    attributedTo: actor,
    content: o.content ?? "<p>hello</p>",
    ...(o.summary ? { summary: o.summary } : {}),
    published: o.published ?? new Date().toISOString(),
    to: o.to ?? [PUBLIC],
    cc: o.cc ?? [`${actor}/followers`],
    tag: o.tag ?? [],
    attachment: o.attachment ?? [],
  };
  return { "@context": "https://www.w3.org/ns/activitystreams", id: `${object.id}/activity`, type: "Create", actor, to: object.to, cc: object.cc, object };
}

type Row = { id: string; visibility: string; sensitive: boolean; content: string; spoiler_text: string; media: string };
const statusRow = async (uri: string) =>
  (await rows<Row>(`SELECT s.id, s.visibility::text AS visibility, s.sensitive, s.content, s.spoiler_text, (SELECT count(*) FROM media_attachments m WHERE m.status_id = s.id)::text AS media FROM statuses s WHERE s.uri = $1`, [uri]))[0] ?? null;

/** Delivers and waits until the status is stored. */
async function delivered(activity: ReturnType<typeof create>): Promise<Row> {
  expect((await peer.send(activity.actor.split("/").pop()!, inbox, activity)).status).toBe(202);
  return waitFor(() => statusRow(activity.object.id), `stored ${activity.object.id}`);
}

/** Delivers, then a plain post after it; once that one is stored and a's queue is idle, the first is checked absent. */
async function refused(activity: ReturnType<typeof create>) {
  expect((await peer.send("alice", inbox, activity)).status).toBe(202);
  await delivered(create({ content: "<p>marker</p>" }));
  await queueIdle(a); // the inbox queued it before answering 202, and every job of a has run since
  expect(await statusRow(activity.object.id)).toBeNull();
}

const image = () => ({ type: "Document", mediaType: "image/png", url: `${peer.baseUrl}/media/${uid()}.png`, name: "a picture" });

describe("SimplePolicy", () => {
  test("accept (allow-list mode): other servers are refused with 403 until the list is emptied, without a restart", async () => {
    await configure(":mrf_simple", { accept: hostList("friends.fed.test") });
    const activity = create();
    const res = await peer.send("alice", inbox, activity);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/peer\.fed\.test/);
    await configure(":mrf_simple", { accept: hostList("friends.fed.test", PEER) });
    expect((await delivered(create())).visibility).toBe("public");
    await configure(":mrf_simple", { accept: [] });
    expect((await delivered(activity)).visibility).toBe("public");
  });

  test("media_removal drops the attachments; media_nsfw marks posts with media sensitive", async () => {
    await configure(":mrf_simple", { media_removal: hostList(PEER) });
    const stripped = await delivered(create({ attachment: [image()] }));
    expect(stripped.media).toBe("0");
    await configure(":mrf_simple", { media_removal: [], media_nsfw: hostList(PEER) });
    const marked = await delivered(create({ attachment: [image()] }));
    expect(marked).toMatchObject({ media: "1", sensitive: true });
    // without media nothing is marked
    expect((await delivered(create())).sensitive).toBe(false);
    await configure(":mrf_simple", { media_nsfw: [] });
    expect((await delivered(create({ attachment: [image()] }))).sensitive).toBe(false);
  });

  test("federated_timeline_removal stores public posts unlisted (off the public timeline); followers_only stores them followers-only", async () => {
    await configure(":mrf_simple", { federated_timeline_removal: hostList(PEER) });
    const delisted = await delivered(create({ content: "<p>delisted</p>" }));
    expect(delisted.visibility).toBe("unlisted");
    const timeline = await (await a.api("/api/v1/timelines/public?limit=40")).json();
    expect(timeline.map((s: { id: string }) => s.id)).not.toContain(delisted.id);
    await configure(":mrf_simple", { federated_timeline_removal: [], followers_only: hostList(PEER) });
    expect((await delivered(create())).visibility).toBe("private");
    expect((await delivered(create({ to: [`${peer.baseUrl}/users/alice/followers`], cc: [PUBLIC] }))).visibility).toBe("private");
    await configure(":mrf_simple", { followers_only: [] });
    expect((await delivered(create())).visibility).toBe("public");
  });

  test("reject_deletes: a Delete from the server changes nothing", async () => {
    const post = create();
    await delivered(post);
    await configure(":mrf_simple", { reject_deletes: hostList(PEER) });
    const del = { "@context": "https://www.w3.org/ns/activitystreams", id: `${peer.baseUrl}/deletes/${uid()}`, type: "Delete", actor: `${peer.baseUrl}/users/alice`, object: { id: post.object.id, type: "Tombstone" }, to: [PUBLIC] };
    expect((await peer.send("alice", inbox, del)).status).toBe(202);
    await delivered(create({ content: "<p>marker</p>" }));
    await queueIdle(a); // the inbox queued it before answering 202, and every job of a has run since
    expect(await statusRow(post.object.id)).not.toBeNull();
    await configure(":mrf_simple", { reject_deletes: [] });
    expect((await peer.send("alice", inbox, { ...del, id: `${del.id}-again` })).status).toBe(202);
    await waitFor(async () => (await statusRow(post.object.id)) === null, "deleted once allowed");
  });

  test("report_removal: a Flag from the server files no report while it stands", async () => {
    const bob = await a.createUser(`bob${uid().replace(/[^a-z0-9]/g, "")}`);
    const flag = (content: string) => ({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${peer.baseUrl}/flags/${uid()}`,
      type: "Flag",
      actor: `${peer.baseUrl}/users/alice`,
      content,
      object: [`${a.baseUrl}/users/${bob.nickname}`],
    });
    const reports = async (content: string) => Number((await rows<{ n: string }>("SELECT count(*) AS n FROM reports WHERE comment = $1", [content]))[0].n);
    await configure(":mrf_simple", { report_removal: hostList(PEER) });
    expect((await peer.send("alice", inbox, flag("removed report"))).status).toBe(202);
    await delivered(create({ content: "<p>marker after the flag</p>" })); // handled after the Flag's job
    await queueIdle(a); // the inbox queued it before answering 202, and every job of a has run since
    expect(await reports("removed report")).toBe(0);
    await configure(":mrf_simple", { report_removal: [] });
    expect((await peer.send("alice", inbox, flag("kept report"))).status).toBe(202);
    await waitFor(async () => (await reports("kept report")) === 1, "the report once allowed");
  }, 120_000);

  test("avatar_removal and banner_removal store the server's accounts without them", async () => {
    await configure(":mrf_simple", { avatar_removal: hostList(PEER), banner_removal: hostList(PEER) });
    await peer.actor("pictured", { icon: `${peer.baseUrl}/avatar.png`, image: `${peer.baseUrl}/header.png` });
    await delivered(create({ actor: "pictured" }));
    const [stripped] = await rows<{ avatar: string | null; header: string | null }>("SELECT avatar, header FROM accounts WHERE ap_id = $1", [`${peer.baseUrl}/users/pictured`]);
    expect(stripped).toEqual({ avatar: null, header: null });
    await configure(":mrf_simple", { avatar_removal: [], banner_removal: [] });
    await peer.actor("pictured2", { icon: `${peer.baseUrl}/avatar.png`, image: `${peer.baseUrl}/header.png` });
    await delivered(create({ actor: "pictured2" }));
    const [kept] = await rows<{ avatar: string | null; header: string | null }>("SELECT avatar, header FROM accounts WHERE ap_id = $1", [`${peer.baseUrl}/users/pictured2`]);
    expect(kept).toEqual({ avatar: `${peer.baseUrl}/avatar.png`, header: `${peer.baseUrl}/header.png` });
  });
});

describe("KeywordPolicy, HashtagPolicy, ObjectAgePolicy", () => {
  test("keywords: reject (string and regex), federated_timeline_removal, replace — only while KeywordPolicy is enabled", async () => {
    await configure(":mrf_keyword", { reject: ["forbidden", "~r/buy\\s+now/i"], federated_timeline_removal: ["quiet"], replace: [{ tuple: ["darn", "gosh"] }, { tuple: ["~r/colou?r/", "hue"] }] });
    // not enabled yet: nothing happens
    expect((await delivered(create({ content: "<p>forbidden darn</p>" }))).content).toContain("forbidden darn");
    await configure(":mrf", { policies: ["Pleroma.Web.ActivityPub.MRF.KeywordPolicy"] });
    await refused(create({ content: "<p>a forbidden word</p>" }));
    await refused(create({ content: "<p>BUY  NOW cheap</p>" }));
    await refused(create({ summary: "forbidden", content: "<p>behind a warning</p>" }));
    expect((await delivered(create({ content: "<p>keep it quiet</p>" }))).visibility).toBe("unlisted");
    const replaced = await delivered(create({ content: "<p>darn that colour</p>", summary: "darn" }));
    expect(replaced.content).toContain("gosh that hue");
    expect(replaced.spoiler_text).toBe("gosh");
    await configure(":mrf", { policies: [] });
    await configure(":mrf_keyword", { reject: [], federated_timeline_removal: [], replace: [] });
  });

  test("hashtags: reject, federated_timeline_removal, sensitive (nsfw by default)", async () => {
    const tag = (name: string) => ({ type: "Hashtag", name: `#${name}`, href: `${peer.baseUrl}/tags/${name}` });
    expect((await delivered(create({ content: "<p>#nsfw</p>", tag: [tag("nsfw")] }))).sensitive).toBe(true);
    await configure(":mrf_hashtag", { reject: ["spam"], federated_timeline_removal: ["hidden"] });
    await refused(create({ content: "<p>#Spam</p>", tag: [tag("Spam")] }));
    expect((await delivered(create({ content: "<p>#hidden</p>", tag: [tag("hidden")] }))).visibility).toBe("unlisted");
    await configure(":mrf_hashtag", { reject: [], federated_timeline_removal: [], sensitive: [] });
    expect((await delivered(create({ content: "<p>#nsfw</p>", tag: [tag("nsfw")] }))).sensitive).toBe(false);
    await configure(":mrf_hashtag", { sensitive: ["nsfw"] });
  });

  test("object age: old posts are delisted, followers-only ones lose their followers, and rejected with :reject", async () => {
    await configure(":mrf", { policies: ["Pleroma.Web.ActivityPub.MRF.ObjectAgePolicy"] });
    await configure(":mrf_object_age", { threshold: 3600, actions: [":delist", ":strip_followers"] });
    const old = new Date(Date.now() - 2 * 3600_000).toISOString();
    expect((await delivered(create({ published: old }))).visibility).toBe("unlisted");
    expect((await delivered(create({ published: old, to: [`${peer.baseUrl}/users/alice/followers`], cc: [] }))).visibility).toBe("direct");
    expect((await delivered(create())).visibility).toBe("public");
    await configure(":mrf_object_age", { actions: [":reject"] });
    await refused(create({ published: old }));
    await configure(":mrf", { policies: [] });
    expect((await delivered(create({ published: old }))).visibility).toBe("public");
  });
});

test("NodeInfo publishes the policies in force as the family does, leaving out excluded hosts", async () => {
  await configure(":mrf", { policies: ["Pleroma.Web.ActivityPub.MRF.KeywordPolicy", "Pleroma.Web.ActivityPub.MRF.ObjectAgePolicy"], transparency_exclusions: hostList("secret.fed.test") });
  await configure(":mrf_simple", { media_removal: [{ tuple: ["media.fed.test", "too big"] }, { tuple: ["secret.fed.test", "hush"] }] });
  await configure(":mrf_keyword", { reject: ["foo"], replace: [{ tuple: ["a", "b"] }] });
  await configure(":mrf_object_age", { threshold: 600, actions: [":delist"] });
  const nodeinfo = await (await a.api("/nodeinfo/2.1.json")).json();
  const federation = nodeinfo.metadata.federation;
  expect(federation.mrf_policies).toEqual(expect.arrayContaining(["KeywordPolicy", "ObjectAgePolicy", "SimplePolicy", "HashtagPolicy"]));
  expect(federation).toMatchObject({
    enabled: true,
    exclusions: true,
    mrf_simple: { media_removal: ["media.fed.test"], reject: [], accept: [], reject_deletes: [] },
    mrf_simple_info: { media_removal: { "media.fed.test": { reason: "too big" } } },
    mrf_keyword: { reject: ["foo"], federated_timeline_removal: [], replace: [{ pattern: "a", replacement: "b" }] },
    mrf_hashtag: { reject: [], federated_timeline_removal: [], sensitive: ["nsfw"] },
    mrf_object_age: { threshold: 600, actions: ["delist"] },
    quarantined_instances: [],
  });
  const instance = await (await a.api("/api/v1/instance")).json();
  expect((instance.pleroma ?? instance.ext).metadata.federation.mrf_keyword.reject).toEqual(["foo"]);
  await configure(":mrf", { transparency: false });
  const hidden = (await (await a.api("/nodeinfo/2.1.json")).json()).metadata.federation;
  expect(hidden.mrf_policies).toBeUndefined();
  expect(hidden.mrf_simple).toBeUndefined();
});

test("outgoing: nothing is delivered to a rejected server (checked when the delivery runs)", async () => {
  const bob = await a.createUser("bob");
  await peer.actor("fan");
  expect((await peer.send("fan", inbox, { "@context": "https://www.w3.org/ns/activitystreams", id: `${peer.baseUrl}/follows/${uid()}`, type: "Follow", actor: `${peer.baseUrl}/users/fan`, object: "https://a.fed.test/users/bob" })).status).toBe(202);
  // the follow is stored once its Accept went out
  await waitFor(async () => peer.received.some((r) => r.type === "Accept"), "follow accepted");
  const createOf = (uri: string) => peer.received.some((r) => r.type === "Create" && (r.object?.id ?? r.object) === uri);
  const first = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "to my follower" } })).json();
  await waitFor(async () => createOf(first.uri), "delivered while allowed", { timeoutMs: 30_000 });
  await configure(":mrf_simple", { reject: hostList(PEER) });
  const second = await (await a.api("/api/v1/statuses", { token: bob.token, json: { status: "not for you" } })).json();
  // the job ran (no delivery job of this status waits any more), and nothing reached the peer
  // (the peer records a delivery before it answers, so a delivery made is a delivery seen)
  await waitFor(async () => Number((await rows<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE name IN ('federation.outbox', 'federation.task') AND state IN ('pending', 'running')"))[0]!.n) === 0, "queue drained", { timeoutMs: 30_000 });
  expect(createOf(second.uri)).toBe(false);
  await configure(":mrf_simple", { reject: [] });
}, 90_000);

test("local posts pass KeywordPolicy and HashtagPolicy too, as in the family", async () => {
  const carl = await a.createUser("carl");
  const post = (status: string) => a.api("/api/v1/statuses", { token: carl.token, json: { status } });
  await configure(":mrf", { policies: ["Pleroma.Web.ActivityPub.MRF.KeywordPolicy"] });
  await configure(":mrf_keyword", { reject: ["forbidden"], federated_timeline_removal: ["quiet"], replace: [{ tuple: ["darn", "gosh"] }] });
  const refusedPost = await post("a forbidden thought");
  expect(refusedPost.status).toBe(422);
  expect(await refusedPost.json()).toMatchObject({ error: expect.stringMatching(/KeywordPolicy/) });
  const replaced = await (await post("darn it")).json();
  expect(replaced.content).toContain("gosh it");
  expect((await (await post("keep it quiet")).json()).visibility).toBe("unlisted");
  expect((await (await post("spicy #nsfw")).json()).sensitive).toBe(true);
  await configure(":mrf", { policies: [] });
  await configure(":mrf_keyword", { reject: [], federated_timeline_removal: [], replace: [] });
  expect((await post("a forbidden thought, allowed now")).status).toBe(200);
});
