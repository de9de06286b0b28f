// Two of our servers, each a real process with its own database, federating over HTTPS with real
// signatures (criterion 8): every scenario is driven through the client API, as people on each server
// would, and checked through the client API and the databases on the other side.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_TOKEN, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";

type User = { id: string; nickname: string; token: string };
let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
let alice: User; // a, open
let carol: User; // a, locked
let bob: User; // b, follows alice
let dave: User; // b, follows no one

const json = async (res: Response) => {
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
};

/** The status with ActivityPub id `uri` as `user` on `server` sees it through the API (search resolves only what is stored when the server already has it). */
async function statusOn(server: TestInstance, user: User, uri: string) {
  const found = await json(await server.api(`/api/v2/search?q=${encodeURIComponent(uri)}&type=statuses&resolve=false`, { token: user.token }));
  return found.statuses[0] ?? null;
}

const homeOf = async (server: TestInstance, user: User) => (await json(await server.api("/api/v1/timelines/home?limit=40", { token: user.token }))) as { id: string; uri: string; content: string; visibility: string }[];
const notificationsOf = async (server: TestInstance, user: User) => (await json(await server.api("/api/v1/notifications?limit=40", { token: user.token }))) as { type: string; account: { acct: string }; status?: { uri: string } }[];
const post = (server: TestInstance, user: User, body: Record<string, unknown>) => server.api("/api/v1/statuses", { token: user.token, json: body }).then(json);
const relationship = async (server: TestInstance, user: User, id: string) => (await json(await server.api(`/api/v1/accounts/relationships?id[]=${id}`, { token: user.token })))[0];

/** The remote account's id on `server` (resolved by handle). */
async function remoteId(server: TestInstance, viewer: User, handle: string) {
  return (await json(await server.api(`/api/v1/accounts/lookup?acct=${handle}`, { token: viewer.token }))).id as string;
}

beforeAll(async () => {
  net = await startFederationNet();
  [a, b] = await Promise.all([net.start("a"), net.start("b")]);
  [alice, carol, bob, dave] = await Promise.all([a.createUser("alice"), a.createUser("carol", { locked: true }), b.createUser("bob"), b.createUser("dave")]);
}, 120_000);

afterAll(async () => {
  if (process.env.FED_LOGS) console.log(`---- a\n${a?.logs()}\n---- b\n${b?.logs()}`);
  await net?.close();
});

describe("follows", () => {
  test("bob on b follows alice on a by handle: a records the follower, b learns of the Accept", async () => {
    const rel = await json(await b.api("/api/v1/follows", { token: bob.token, json: { uri: "alice@a.fed.test" } }));
    expect(rel.id).toBeTruthy();
    await waitFor(async () => {
      const followers = await json(await a.api(`/api/v1/accounts/${alice.id}/followers`, { token: alice.token }));
      return followers.some((f: { acct: string }) => f.acct === "bob@b.fed.test");
    }, "a to record bob as alice's follower");
    const aliceOnB = await remoteId(b, bob, "alice@a.fed.test");
    await waitFor(async () => (await relationship(b, bob, aliceOnB)).following === true, "bob's follow to be accepted on b");
    const notes = await notificationsOf(a, alice);
    expect(notes.some((n) => n.type === "follow" && n.account.acct === "bob@b.fed.test")).toBe(true);
  });

  test("a follow of a locked account stays a request until the owner authorizes it", async () => {
    await json(await b.api("/api/v1/follows", { token: bob.token, json: { uri: "carol@a.fed.test" } }));
    const bobOnA = await waitFor(async () => {
      const requests = await json(await a.api("/api/v1/follow_requests", { token: carol.token }));
      return requests.find((r: { acct: string }) => r.acct === "bob@b.fed.test")?.id as string | undefined;
    }, "the follow request on a");
    const carolOnB = await remoteId(b, bob, "carol@a.fed.test");
    expect(await relationship(b, bob, carolOnB)).toMatchObject({ following: false, requested: true });
    await json(await a.api(`/api/v1/follow_requests/${bobOnA}/authorize`, { method: "POST", token: carol.token }));
    await waitFor(async () => (await relationship(b, bob, carolOnB)).following === true, "the Accept to reach b");
  });

  test("alice on a follows dave on b (the other way round)", async () => {
    await json(await a.api("/api/v1/follows", { token: alice.token, json: { uri: "dave@b.fed.test" } }));
    await waitFor(async () => {
      const followers = await json(await b.api(`/api/v1/accounts/${dave.id}/followers`, { token: dave.token }));
      return followers.some((f: { acct: string }) => f.acct === "alice@a.fed.test");
    }, "b to record alice as dave's follower");
  });
});

describe("statuses", () => {
  test("a public post reaches the follower's home timeline; edits and deletion follow it", async () => {
    const status = await post(a, alice, { status: "hello from a #fedtest", visibility: "public" });
    const seen = await waitFor(async () => (await homeOf(b, bob)).find((s) => s.uri === status.uri), "the post in bob's home on b");
    expect(seen.content).toContain("hello from a");
    // the hashtag timeline of b shows it too
    const tagged = await json(await b.api("/api/v1/timelines/tag/fedtest", { token: bob.token }));
    expect(tagged.some((s: { uri: string }) => s.uri === status.uri)).toBe(true);

    await json(await a.api(`/api/v1/statuses/${status.id}`, { method: "PUT", token: alice.token, json: { status: "hello again from a" } }));
    await waitFor(async () => (await statusOn(b, bob, status.uri))?.content.includes("hello again"), "the edit on b");

    await json(await a.api(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token }));
    await waitFor(async () => !(await homeOf(b, bob)).some((s) => s.uri === status.uri), "the deletion on b");
    const rows = await b.sql("SELECT id FROM statuses WHERE uri = $1", [status.uri]);
    expect(rows).toEqual([]);
  });

  test("a followers-only post reaches followers only", async () => {
    const status = await post(a, alice, { status: "for my followers", visibility: "private" });
    const seen = await waitFor(async () => (await homeOf(b, bob)).find((s) => s.uri === status.uri), "the private post for bob");
    expect(seen.visibility).toBe("private");
    // dave (on the same server, not a follower) cannot read it
    const stored = await b.sql<{ id: string }>("SELECT id FROM statuses WHERE uri = $1", [status.uri]);
    expect(stored).toHaveLength(1);
    expect((await b.api(`/api/v1/statuses/${stored[0].id}`, { token: dave.token })).status).toBe(404);
    expect((await b.api(`/api/v1/statuses/${stored[0].id}`)).status).toBe(404);
  });

  test("a direct message reaches only the mentioned account, as a mention and a conversation", async () => {
    const status = await post(a, alice, { status: "@bob@b.fed.test a secret", visibility: "direct" });
    await waitFor(async () => (await notificationsOf(b, bob)).some((n) => n.type === "mention" && n.status?.uri === status.uri), "bob's mention");
    // the conversation is recorded just after the status and its mention notification (statusStored)
    const inConversation = async () => (await json(await b.api("/api/v1/conversations", { token: bob.token }))).some((c: { last_status: { uri: string } | null }) => c.last_status?.uri === status.uri);
    await waitFor(inConversation, "bob's conversation to show the message");
    const stored = await b.sql<{ id: string; visibility: string }>("SELECT id, visibility FROM statuses WHERE uri = $1", [status.uri]);
    expect(stored[0].visibility).toBe("direct");
    expect((await b.api(`/api/v1/statuses/${stored[0].id}`, { token: dave.token })).status).toBe(404);
  });

  test("a reply from b is threaded under its parent on a, and interactions notify the author", async () => {
    const parent = await post(a, alice, { status: "parent on a", visibility: "public" });
    const onB = await waitFor(() => statusOn(b, bob, parent.uri), "the parent on b");
    const reply = await post(b, bob, { status: "@alice@a.fed.test a reply from b", in_reply_to_id: onB.id, visibility: "public" });
    await waitFor(async () => {
      const context = await json(await a.api(`/api/v1/statuses/${parent.id}/context`, { token: alice.token }));
      return context.descendants.some((s: { uri: string }) => s.uri === reply.uri);
    }, "the reply threaded on a");

    await json(await b.api(`/api/v1/statuses/${onB.id}/favourite`, { method: "POST", token: bob.token }));
    await json(await b.api(`/api/v1/statuses/${onB.id}/reblog`, { method: "POST", token: bob.token }));
    await json(await b.api(`/api/v1/ext/statuses/${onB.id}/reactions/👍`, { method: "PUT", token: bob.token }));
    await waitFor(async () => {
      const types = new Set((await notificationsOf(a, alice)).filter((n) => n.account.acct === "bob@b.fed.test" && n.status?.uri === parent.uri).map((n) => n.type));
      return types.has("favourite") && types.has("reblog") && (types.has("ext:emoji_reaction"));
    }, "favourite, reblog and reaction notifications on a");
    const counts = await json(await a.api(`/api/v1/statuses/${parent.id}`, { token: alice.token }));
    expect(counts).toMatchObject({ favourites_count: 1, reblogs_count: 1 });

    // undoing them on b removes them on a
    await json(await b.api(`/api/v1/statuses/${onB.id}/unfavourite`, { method: "POST", token: bob.token }));
    await json(await b.api(`/api/v1/statuses/${onB.id}/unreblog`, { method: "POST", token: bob.token }));
    await waitFor(async () => {
      const s = await json(await a.api(`/api/v1/statuses/${parent.id}`, { token: alice.token }));
      return s.favourites_count === 0 && s.reblogs_count === 0;
    }, "the undos on a");
  });

  test("a quote posted on b carries quoteUrl: a stores the relation to its own status and renders it", async () => {
    const original = await post(a, alice, { status: "quote me from b", visibility: "public" });
    const found = await json(await b.api(`/api/v2/search?q=${encodeURIComponent(original.uri)}&type=statuses&resolve=true`, { token: bob.token }));
    const onB = found.statuses[0];
    expect(onB.uri).toBe(original.uri);
    // the mention delivers it to a
    const quote = await post(b, bob, { status: "@alice@a.fed.test quoting you", quote_id: onB.id, visibility: "public" });
    expect(quote.quote.quoted_status.uri).toBe(original.uri);
    const stored = await waitFor(async () => (await a.sql<{ id: string; quote_id: string | null }>("SELECT id, quote_id FROM statuses WHERE uri = $1", [quote.uri]))[0], "the quote on a");
    expect(stored.quote_id).toBe(original.id);
    const onA = await json(await a.api(`/api/v1/statuses/${stored.id}`, { token: alice.token }));
    expect(onA.quote).toMatchObject({ state: "accepted", quoted_status: { id: original.id } });
    expect(onA.ext).toMatchObject({ quote_id: original.id, quote_visible: true });
    const quotes = await json(await a.api(`/api/v1/ext/statuses/${original.id}/quotes`, { token: alice.token }));
    expect(quotes.map((s: { uri: string }) => s.uri)).toEqual([quote.uri]);
  });

  test("a poll posted on a is voted on from b, and the vote counts on a", async () => {
    const status = await post(a, alice, { status: "which one?", poll: { options: ["this", "that"], expires_in: 3600 }, visibility: "public" });
    const onB = await waitFor(async () => (await statusOn(b, bob, status.uri))?.poll ? statusOn(b, bob, status.uri) : null, "the poll on b");
    await json(await b.api(`/api/v1/polls/${onB.poll.id}/votes`, { token: bob.token, json: { choices: [1] } }));
    await waitFor(async () => {
      const poll = await json(await a.api(`/api/v1/polls/${status.poll.id}`, { token: alice.token }));
      return poll.options[1].votes_count === 1 && poll.votes_count === 1;
    }, "the vote counted on a");
  });
});

describe("accounts", () => {
  test("a block from a ends bob's follow on both sides", async () => {
    const bobOnA = await remoteId(a, alice, "bob@b.fed.test");
    await json(await a.api(`/api/v1/accounts/${bobOnA}/block`, { method: "POST", token: alice.token }));
    const aliceOnB = await remoteId(b, bob, "alice@a.fed.test");
    await waitFor(async () => (await relationship(b, bob, aliceOnB)).following === false, "the follow dropped on b");
    await json(await a.api(`/api/v1/accounts/${bobOnA}/unblock`, { method: "POST", token: alice.token }));
  });

  test("a profile update on a reaches b", async () => {
    await json(await a.api("/api/v1/accounts/update_credentials", { method: "PATCH", token: carol.token, json: { display_name: "Carol on A", note: "new bio" } }));
    const carolOnB = await remoteId(b, bob, "carol@a.fed.test");
    await waitFor(async () => (await json(await b.api(`/api/v1/accounts/${carolOnB}`, { token: bob.token }))).display_name === "Carol on A", "the profile update on b");
  });

  test("a deleted actor's content is removed on the other server", async () => {
    const status = await post(a, carol, { status: "soon gone", visibility: "public" });
    await waitFor(() => statusOn(b, bob, status.uri), "carol's post on b");
    const res = await a.api("/api/v1/ext/admin/users?nickname=carol", { method: "DELETE", headers: { "x-admin-token": ADMIN_TOKEN } });
    expect(res.status).toBe(200);
    await waitFor(async () => (await b.sql("SELECT id FROM statuses WHERE uri = $1", [status.uri])).length === 0, "carol's statuses removed on b");
    const [row] = await b.sql<{ deactivated: boolean }>("SELECT deactivated FROM accounts WHERE ap_id = 'https://a.fed.test/users/carol'");
    expect(row?.deactivated ?? true).toBe(true);
  });

  test("a Delete of an actor whose key its server no longer serves (410) is verified with the stored key", async () => {
    const erin = await a.createUser("erin");
    await json(await b.api("/api/v1/follows", { token: bob.token, json: { uri: "erin@a.fed.test" } }));
    await waitFor(async () => (await json(await a.api(`/api/v1/accounts/${erin.id}/followers`, { token: erin.token }))).length === 1, "bob following erin on a");
    const status = await post(a, erin, { status: "erin was here", visibility: "public" });
    await waitFor(() => statusOn(b, bob, status.uri), "erin's post on b", { timeoutMs: 45_000 });
    // b forgets the keys it cached: the Delete's key must be fetched, and a answers 410 for the deleted actor
    // (a restart also empties the process's read-through copy of those rows, see src/federation/kv-store.ts)
    await b.sql("DELETE FROM federation_kv WHERE key LIKE '%publicKey%' OR key LIKE '%remoteDocument%'");
    await b.restart();
    const res = await a.api("/api/v1/ext/admin/users?nickname=erin", { method: "DELETE", headers: { "x-admin-token": ADMIN_TOKEN } });
    expect(res.status).toBe(200);
    expect((await fetch("https://a.fed.test/users/erin", { headers: { accept: "application/activity+json" } })).status).toBe(410);
    await waitFor(async () => (await b.sql("SELECT id FROM statuses WHERE uri = $1", [status.uri])).length === 0, "erin's statuses removed on b", { timeoutMs: 45_000 });
  }, 90_000);
});
