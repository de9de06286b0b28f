// Outbound delivery from a real server process to remote instances played by a signature-verifying
// sink: who receives what (visibility, shared inboxes), the shapes of the activities, and the
// signature policy (RFC 9421 first, draft-cavage remembered per server for peers that need it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueIdle, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { activitiesOf, post, seedFollow, seedRemoteAccount, startSink, type RemoteAccount, type Sink } from "./outbound-support.ts";

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const isPublic = (t: string) => t === PUBLIC || t === "as:Public" || t === "Public";

let net: FederationNet;
let a: TestInstance;
let sink: Sink;
let alice: { id: string; token: string };
let hostS1: string, hostS2: string, hostS3: string;
let f1: RemoteAccount, f2: RemoteAccount, m1: RemoteAccount, o1: RemoteAccount;

beforeAll(async () => {
  net = await startFederationNet();
  sink = await startSink(net);
  [hostS1, hostS2, hostS3] = [sink.host("s1"), sink.host("s2"), sink.host("s3")];
  a = await net.start("a");
  alice = await a.createUser("alice");
  // two followers on one instance, an account on another that alice mentions, one on a third that nobody addresses
  f1 = await seedRemoteAccount(a, hostS1, "f1");
  f2 = await seedRemoteAccount(a, hostS1, "f2");
  m1 = await seedRemoteAccount(a, hostS2, "m1");
  o1 = await seedRemoteAccount(a, hostS3, "o1");
  await seedFollow(a, f1.id, alice.id);
  await seedFollow(a, f2.id, alice.id);
}, 60_000);

afterAll(async () => {
  await net?.close();
  await sink?.close();
});

const since = (n: number) => sink.deliveries.slice(n);

describe("statuses", () => {
  it("a public post goes once to the followers' shared inbox (two followers, one POST), signed by the author", async () => {
    const before = sink.deliveries.length;
    const status = await post(a, alice.token, { status: "hello fediverse #outbound", visibility: "public" });
    const uri = `${a.baseUrl}/objects/${status.id}`;
    const got = await waitFor(async () => activitiesOf(since(before), "Create").find((d) => d.activity.object?.id === uri), "Create at s1");
    expect(got.host).toBe(hostS1);
    expect(got.path).toBe("/inbox");
    expect(got.keyId).toMatch(new RegExp(`^${a.baseUrl}/users/alice#`));
    expect(got.spec).toBe("rfc9421");
    const note = got.activity.object;
    expect(got.activity.actor).toBe(`${a.baseUrl}/users/alice`);
    expect(note.type).toBe("Note");
    expect(note.attributedTo).toBe(`${a.baseUrl}/users/alice`);
    expect([note.to].flat().some(isPublic)).toBe(true);
    expect([note.cc].flat()).toContain(`${a.baseUrl}/users/alice/followers`);
    expect(note.content).toContain("hello fediverse");
    expect([note.tag].flat().some((t: any) => t.type === "Hashtag" && t.name === "#outbound")).toBe(true);
    await queueIdle(a); // every job of a has run, so each delivery it makes has reached the sink: nothing else comes
    const creates = activitiesOf(since(before), "Create").filter((d) => d.activity.object?.id === uri);
    expect(creates).toHaveLength(1);
    expect(since(before).filter((d) => d.host === hostS3)).toHaveLength(0);
  });

  it("a poll goes out as a Question, attachments with their alt text, a content warning as summary", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
    const form = new FormData();
    form.set("file", new Blob([png], { type: "image/png" }), "dot.png");
    form.set("description", "a single dot");
    const uploaded = await a.api("/api/v2/media", { method: "POST", token: alice.token, body: form });
    expect(uploaded.status).toBeLessThan(300);
    const media = await uploaded.json();
    const before = sink.deliveries.length;
    const withMedia = await post(a, alice.token, { status: "look", media_ids: [media.id], spoiler_text: "dots", sensitive: true, visibility: "public" });
    const poll = await post(a, alice.token, { status: "tea or coffee?", poll: { options: ["tea", "coffee"], expires_in: 3600 }, visibility: "public" });
    const note = (await waitFor(async () => activitiesOf(since(before), "Create").find((d) => d.activity.object?.id === `${a.baseUrl}/objects/${withMedia.id}`), "the Create of the status with media")).activity.object;
    expect(note).toMatchObject({ summary: "dots", sensitive: true });
    expect([note.attachment].flat()[0]).toMatchObject({ type: "Document", mediaType: "image/png", name: "a single dot" });
    const question = (await waitFor(async () => activitiesOf(since(before), "Create").find((d) => d.activity.object?.id === `${a.baseUrl}/objects/${poll.id}`), "the Create of the poll")).activity.object;
    expect(question.type).toBe("Question");
    expect(question.oneOf.map((o: any) => o.name)).toEqual(["tea", "coffee"]);
    expect(question.oneOf[0].replies).toMatchObject({ type: "Collection", totalItems: 0 });
    expect(question.endTime).toBeTruthy();
  });

  it("the Create's object is served at its id (the object dispatcher)", async () => {
    const status = await post(a, alice.token, { status: "served object", visibility: "public" });
    const res = await fetch(`${a.baseUrl}/objects/${status.id}`, { headers: { accept: "application/activity+json" } });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.id).toBe(`${a.baseUrl}/objects/${status.id}`);
    expect(doc.type).toBe("Note");
  });

  it("a followers-only post goes to the followers' instance and to mentioned actors, nowhere else", async () => {
    const before = sink.deliveries.length;
    const status = await post(a, alice.token, { status: `for followers and @${m1.nickname}`, visibility: "private" });
    const uri = `${a.baseUrl}/objects/${status.id}`;
    await waitFor(async () => activitiesOf(since(before), "Create").filter((d) => d.activity.object?.id === uri).length >= 2, "two deliveries");
    await queueIdle(a); // every job of a has run, so each delivery it makes has reached the sink: nothing else comes
    const creates = activitiesOf(since(before), "Create").filter((d) => d.activity.object?.id === uri);
    expect(creates.map((d) => d.host).sort()).toEqual([hostS1, hostS2].sort());
    const note = creates[0].activity.object;
    expect(JSON.stringify(note)).not.toContain(PUBLIC);
    expect(JSON.stringify(note)).not.toContain("as:Public");
    expect([note.to].flat()).toContain(`${a.baseUrl}/users/alice/followers`);
    expect([note.cc].flat()).toContain(m1.apId);
    expect(since(before).filter((d) => d.host === hostS3)).toHaveLength(0);
  });

  it("a direct message goes only to the addressed actor", async () => {
    const before = sink.deliveries.length;
    const status = await post(a, alice.token, { status: `@${m1.nickname} just for you`, visibility: "direct" });
    const uri = `${a.baseUrl}/objects/${status.id}`;
    const got = await waitFor(async () => activitiesOf(since(before), "Create").find((d) => d.activity.object?.id === uri), "DM");
    await queueIdle(a); // every job of a has run, so each delivery it makes has reached the sink: nothing else comes
    expect(since(before).filter((d) => d.activity?.object?.id === uri || d.activity?.object === uri).map((d) => d.host)).toEqual([hostS2]);
    expect([got.activity.object.to].flat()).toEqual([m1.apId]);
    expect(got.activity.object.tag).toMatchObject({ type: "Mention", href: m1.apId });
  });

  it("a local-only post never leaves the instance", async () => {
    const before = sink.deliveries.length;
    const status = await post(a, alice.token, { status: "only here", visibility: "local" });
    const jobs = await a.sql<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE name = 'federation.outbox' AND payload->>'statusId' = $1`, [status.id]);
    await queueIdle(a); // every job of a has run, so each delivery it makes has reached the sink: nothing else comes
    expect(since(before)).toHaveLength(0);
    expect(jobs[0].n).toBe(0);
  });

  it("an edit goes out as an Update, a deletion as a Delete with a Tombstone", async () => {
    const before = sink.deliveries.length;
    const status = await post(a, alice.token, { status: "first version", visibility: "public", spoiler_text: "cw" });
    const uri = `${a.baseUrl}/objects/${status.id}`;
    await waitFor(async () => activitiesOf(since(before), "Create").find((d) => d.activity.object?.id === uri), "Create");
    const edited = await a.api(`/api/v1/statuses/${status.id}`, { method: "PUT", token: alice.token, json: { status: "second version" } });
    expect(edited.status).toBe(200);
    const update = await waitFor(async () => activitiesOf(since(before), "Update").find((d) => d.activity.object?.id === uri), "Update");
    expect(update.activity.object.content).toContain("second version");
    expect(update.activity.object.updated).toBeTruthy();
    const del = await a.api(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token });
    expect(del.status).toBe(200);
    const deleted = await waitFor(async () => activitiesOf(since(before), "Delete").find((d) => d.activity.object?.id === uri), "Delete");
    expect(deleted.activity.object.type).toBe("Tombstone");
    expect(deleted.host).toBe(hostS1);
  });
});

describe("interactions with remote accounts", () => {
  let remoteStatusId: string;
  beforeAll(async () => {
    // a status of m1 (remote), known here
    remoteStatusId = `0rstatus${Date.now()}`;
    await a.sql(
      `INSERT INTO statuses (id, uri, account_id, local, content, visibility, context, created_at, updated_at)
       VALUES ($1, $2, $3, false, '<p>remote</p>', 'public', $4, now(), now())`,
      [remoteStatusId, `https://${hostS2}/objects/1`, m1.id, `https://${hostS2}/contexts/1`],
    );
  });

  it("Like and its Undo go to the status's author", async () => {
    const before = sink.deliveries.length;
    expect((await a.api(`/api/v1/statuses/${remoteStatusId}/favourite`, { method: "POST", token: alice.token })).status).toBe(200);
    const like = await waitFor(async () => activitiesOf(since(before), "Like")[0], "Like");
    expect(like.host).toBe(hostS2);
    expect(like.activity).toMatchObject({ actor: `${a.baseUrl}/users/alice`, object: `https://${hostS2}/objects/1` });
    expect((await a.api(`/api/v1/statuses/${remoteStatusId}/unfavourite`, { method: "POST", token: alice.token })).status).toBe(200);
    const undo = await waitFor(async () => activitiesOf(since(before), "Undo")[0], "Undo Like");
    expect(undo.activity.object).toMatchObject({ type: "Like", id: like.activity.id });
  });

  it("an emoji reaction goes out as EmojiReact with content, its removal as Undo", async () => {
    const before = sink.deliveries.length;
    expect((await a.api(`/api/v1/ext/statuses/${remoteStatusId}/reactions/${encodeURIComponent("👍")}`, { method: "PUT", token: alice.token })).status).toBe(200);
    const react = await waitFor(async () => activitiesOf(since(before), "EmojiReact")[0], "EmojiReact");
    expect(react.activity).toMatchObject({ content: "👍", object: `https://${hostS2}/objects/1` });
    expect((await a.api(`/api/v1/ext/statuses/${remoteStatusId}/reactions/${encodeURIComponent("👍")}`, { method: "DELETE", token: alice.token })).status).toBe(200);
    const undo = await waitFor(async () => activitiesOf(since(before), "Undo").find((d) => d.activity.object?.type === "EmojiReact"), "Undo EmojiReact");
    expect(undo.activity.object.id).toBe(react.activity.id);
  });

  it("a reblog goes out as Announce to the followers and the author; unreblogging as Undo", async () => {
    const before = sink.deliveries.length;
    expect((await a.api(`/api/v1/statuses/${remoteStatusId}/reblog`, { method: "POST", token: alice.token })).status).toBe(200);
    await waitFor(async () => activitiesOf(since(before), "Announce").length >= 2, "Announce ×2");
    const announces = activitiesOf(since(before), "Announce");
    expect(announces.map((d) => d.host).sort()).toEqual([hostS1, hostS2].sort());
    expect(announces[0].activity.object).toBe(`https://${hostS2}/objects/1`);
    expect((await a.api(`/api/v1/statuses/${remoteStatusId}/unreblog`, { method: "POST", token: alice.token })).status).toBe(200);
    const undo = await waitFor(async () => activitiesOf(since(before), "Undo").find((d) => d.activity.object?.type === "Announce"), "Undo Announce");
    expect(undo.activity.object.id).toBe(announces[0].activity.id);
  });

  it("a vote on a remote poll goes to its author as a Create of a Note named after the option", async () => {
    const statusId = `0rpoll${Date.now()}`;
    const pollId = `0poll${Date.now()}`;
    await a.sql(
      `INSERT INTO statuses (id, uri, account_id, local, content, visibility, context, object_type, created_at, updated_at)
       VALUES ($1, $2, $3, false, '<p>pick one</p>', 'public', $4, 'Question', now(), now())`,
      [statusId, `https://${hostS2}/objects/poll`, m1.id, `https://${hostS2}/contexts/poll`],
    );
    await a.sql(`INSERT INTO polls (id, status_id, options, multiple, expires_at, created_at) VALUES ($1, $2, ARRAY['tea','coffee'], false, now() + interval '1 day', now())`, [pollId, statusId]);
    const before = sink.deliveries.length;
    const voted = await a.api(`/api/v1/polls/${pollId}/votes`, { token: alice.token, json: { choices: [1] } });
    expect(voted.status).toBe(200);
    const vote = await waitFor(async () => activitiesOf(since(before), "Create").find((d) => d.activity.object?.inReplyTo === `https://${hostS2}/objects/poll`), "the vote");
    expect(vote.host).toBe(hostS2);
    expect(vote.activity.object).toMatchObject({ type: "Note", name: "coffee", attributedTo: `${a.baseUrl}/users/alice`, to: m1.apId });
    expect(vote.activity.object.content).toBeUndefined();
  });

  it("Follow goes to the remote account and stays pending; Undo when unfollowed", async () => {
    const before = sink.deliveries.length;
    const res = await a.api(`/api/v1/accounts/${o1.id}/follow`, { method: "POST", token: alice.token });
    expect(res.status).toBe(200);
    expect((await res.json()).requested).toBe(true);
    const follow = await waitFor(async () => activitiesOf(since(before), "Follow")[0], "Follow");
    expect(follow.host).toBe(hostS3);
    expect(follow.path).toBe("/users/o1/inbox"); // personal inbox for person-to-person activities
    expect(follow.activity).toMatchObject({ actor: `${a.baseUrl}/users/alice`, object: o1.apId });
    const [row] = await a.sql<{ ap_id: string; state: string }>(`SELECT ap_id, state FROM follows WHERE follower_id = $1 AND following_id = $2`, [alice.id, o1.id]);
    expect(row).toEqual({ ap_id: follow.activity.id, state: "pending" });
    expect((await a.api(`/api/v1/accounts/${o1.id}/unfollow`, { method: "POST", token: alice.token })).status).toBe(200);
    const undo = await waitFor(async () => activitiesOf(since(before), "Undo").find((d) => d.activity.object?.type === "Follow"), "Undo Follow");
    expect(undo.activity.object.id).toBe(follow.activity.id);
  });

  it("Accept and Reject answer remote followers of a locked account", async () => {
    const locked = await a.createUser("lockedcarol", { locked: true });
    const r1 = await seedRemoteAccount(a, hostS3, "req1");
    const r2 = await seedRemoteAccount(a, hostS3, "req2");
    for (const r of [r1, r2])
      await a.sql(`INSERT INTO follows (id, follower_id, following_id, state, ap_id, created_at, updated_at) VALUES ($1, $2, $3, 'pending', $4, now(), now())`, [`0f${r.id}`, r.id, locked.id, `${r.apId}#follow-1`]);
    const before = sink.deliveries.length;
    expect((await a.api(`/api/v1/follow_requests/${r1.id}/authorize`, { method: "POST", token: locked.token })).status).toBe(200);
    expect((await a.api(`/api/v1/follow_requests/${r2.id}/reject`, { method: "POST", token: locked.token })).status).toBe(200);
    const accept = await waitFor(async () => activitiesOf(since(before), "Accept")[0], "Accept");
    const reject = await waitFor(async () => activitiesOf(since(before), "Reject")[0], "Reject");
    expect(accept.activity.object).toMatchObject({ type: "Follow", id: `${r1.apId}#follow-1`, actor: r1.apId });
    expect(reject.activity.object).toMatchObject({ type: "Follow", id: `${r2.apId}#follow-1`, actor: r2.apId });
    expect(accept.path).toBe("/users/req1/inbox");
  });

  it("Block and its Undo go to the blocked account", async () => {
    const before = sink.deliveries.length;
    expect((await a.api(`/api/v1/accounts/${o1.id}/block`, { method: "POST", token: alice.token })).status).toBe(200);
    const block = await waitFor(async () => activitiesOf(since(before), "Block")[0], "Block");
    expect(block.activity).toMatchObject({ actor: `${a.baseUrl}/users/alice`, object: o1.apId });
    expect((await a.api(`/api/v1/accounts/${o1.id}/unblock`, { method: "POST", token: alice.token })).status).toBe(200);
    const undo = await waitFor(async () => activitiesOf(since(before), "Undo").find((d) => d.activity.object?.type === "Block"), "Undo Block");
    expect(undo.activity.object.id).toBe(block.activity.id);
  });

  it("a profile change goes out as an Update of the actor to the followers", async () => {
    const before = sink.deliveries.length;
    expect((await a.api("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, json: { display_name: "Alice Outbound" } })).status).toBe(200);
    const update = await waitFor(async () => activitiesOf(since(before), "Update").find((d) => d.activity.object?.id === `${a.baseUrl}/users/alice`), "Update actor");
    expect(update.host).toBe(hostS1);
    expect(update.activity.object.name).toBe("Alice Outbound");
  });
});

describe("signatures", () => {
  it("a peer that refuses RFC 9421 gets draft-cavage, and the choice is remembered for its server", async () => {
    const cavage = sink.host("cav");
    sink.behave(cavage, { cavageOnly: true });
    const follower = await seedRemoteAccount(a, cavage, "old");
    await seedFollow(a, follower.id, alice.id);
    const before = sink.deliveries.length;
    const first = await post(a, alice.token, { status: "to an old server", visibility: "public" });
    await waitFor(async () => sink.to(cavage).some((d) => d.activity?.object?.id === `${a.baseUrl}/objects/${first.id}`), "cavage delivery");
    const tries = since(before).filter((d) => d.host === cavage);
    expect(tries.map((d) => [d.spec, d.status])).toEqual([["rfc9421", 401], ["cavage", 202]]);
    const kv = await a.sql<{ value: unknown }>(`SELECT value FROM federation_kv WHERE key LIKE '%httpMessageSignaturesSpec%' AND key LIKE '%cav.fed.test%'`);
    expect(kv.map((r) => r.value)).toEqual(["draft-cavage-http-signatures-12"]);
    const middle = sink.deliveries.length;
    const second = await post(a, alice.token, { status: "again", visibility: "public" });
    await waitFor(async () => sink.to(cavage).some((d) => d.activity?.object?.id === `${a.baseUrl}/objects/${second.id}`), "second cavage delivery");
    expect(since(middle).filter((d) => d.host === cavage).map((d) => d.spec)).toEqual(["cavage"]); // no second knock
    await a.sql(`DELETE FROM follows WHERE follower_id = $1`, [follower.id]);
  });
});
