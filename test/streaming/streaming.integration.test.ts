// The streaming API end to end: each stream receives what its timeline lists and nothing else (blocks,
// mutes, private posts, irreversible filters, lists, hashtags, remote instances), the user-side events
// (notifications, conversations, chats, follow updates, announcements, filter changes), payloads
// rendered for each subscriber, and the multiplexed protocol with its error answers. That each stream
// lists what its timeline lists is test/domain/visibility-scenarios.integration.test.ts (one table
// run against both).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createAnnouncement, deleteAnnouncement } from "../../src/domain/announcements/announcements.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { loadAudience, loadStatusFacts } from "../../src/domain/streams/streams.read.ts";
import { openStream, type StreamClient } from "./helpers.ts";

describe.each(suiteKinds(import.meta.url))("streaming API (%s)", (kind) => {
  let server: TestServer;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const streams: StreamClient[] = [];

  const as = (who: string, path: string, init: { json?: unknown; method?: string } = {}) => server.fetch(path, { ...init, headers: { authorization: `Bearer ${token[who]}` } });
  const ok = async (res: Response | Promise<Response>) => {
    const r = await res;
    const body = await r.json();
    expect(r.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const post = (who: string, status: string, extra: Record<string, unknown> = {}) => ok(as(who, "/api/v1/statuses", { json: { status, ...extra } }));
  const open = async (path: string, opts?: Parameters<typeof openStream>[2]) => {
    const c = await openStream(server, path, opts);
    streams.push(c);
    return c;
  };
  const stream = (query: string, who?: string) => open(`/api/v1/streaming?${query}${who ? `&access_token=${token[who]}` : ""}`);
  const timelineIds = async (who: string, path: string) => ((await ok(as(who, path))) as { id: string }[]).map((s) => s.id);

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const nick of ["alice", "bob", "carol", "dave", "eve", "s1", "s2", "s3", "s4", "s5", "s6"]) {
      id[nick] = (await server.createUser(nick)).id;
      token[nick] = (await passwordToken(server, nick)).access_token;
    }
    token.writeOnly = (await passwordToken(server, "carol", "write")).access_token;
    await ok(as("bob", `/api/v1/accounts/${id.alice}/follow`, { json: {} }));
  });
  afterEach(() => {
    for (const c of streams.splice(0)) c.close();
  });
  afterAll(() => server?.close());

  test("user: a follower gets the followed account's private post; a stranger's user and public streams do not", async () => {
    const bobUser = await stream("stream=user", "bob");
    const carolUser = await stream("stream=user", "carol");
    const carolPublic = await stream("stream=public", "carol");
    const priv = await post("alice", "private hello t1", { visibility: "private" });
    await post("alice", "public sentinel t1");
    await post("carol", "carol own t1");

    const got = await bobUser.status("private hello t1");
    expect(got.stream).toEqual(["user"]);
    expect(got.payload).toMatchObject({ id: priv.id, visibility: "private", account: { acct: "alice" }, favourited: false, reblogged: false });
    await bobUser.status("public sentinel t1");
    await carolPublic.status("public sentinel t1");
    await carolUser.status("carol own t1");
    expect(carolPublic.hasStatus("private hello t1")).toBe(false);
    expect(carolUser.hasStatus("private hello t1")).toBe(false);
    expect(carolUser.hasStatus("public sentinel t1")).toBe(false); // carol follows nobody
  });

  test("public: a blocked author's post and a muted account's post are absent for the subscriber, present for others", async () => {
    await ok(as("bob", `/api/v1/accounts/${id.dave}/block`, { json: {} }));
    await ok(as("bob", `/api/v1/accounts/${id.eve}/follow`, { json: {} }));
    await ok(as("bob", `/api/v1/accounts/${id.eve}/mute`, { json: {} }));
    const bobPublic = await stream("stream=public", "bob");
    const bobUser = await stream("stream=user", "bob");
    const anonymous = await stream("stream=public");
    const blocked = await post("dave", "from a blocked author t2");
    const muted = await post("eve", "from a muted account t2");
    await post("alice", "sentinel t2");

    await anonymous.status("from a blocked author t2");
    await anonymous.status("from a muted account t2");
    await bobPublic.status("sentinel t2");
    await bobUser.status("sentinel t2");
    expect(bobPublic.messages.map((m) => m.payload.content)).toEqual([expect.stringContaining("sentinel t2")]);
    expect(bobUser.hasStatus("from a muted account t2")).toBe(false);
    expect(anonymous.messages.map((m) => m.payload.id)).toEqual(expect.arrayContaining([blocked.id, muted.id]));
  });

  test("an irreversible filter drops matching posts from the subscriber's streams, and its change is announced", async () => {
    const bobUser = await stream("stream=user", "bob");
    const bobPublic = await stream("stream=public", "bob");
    const anonymous = await stream("stream=public");
    await ok(as("bob", "/api/v1/filters", { json: { phrase: "brocolli", context: ["home", "public"], irreversible: true } }));
    const changed = await bobUser.next((m) => m.event === "filters_changed");
    expect(changed).toMatchObject({ stream: ["user"], raw: undefined });

    const filtered = await post("alice", "I love brocolli t3");
    await post("alice", "sentinel t3");
    await anonymous.status("I love brocolli t3");
    await bobUser.status("sentinel t3");
    await bobPublic.status("sentinel t3");
    expect(bobUser.hasStatus("brocolli")).toBe(false);
    expect(bobPublic.hasStatus("brocolli")).toBe(false);
    expect(anonymous.messages.map((m) => m.payload.id)).toContain(filtered.id);
  });

  test("status.update and delete reach the streams that had the status", async () => {
    const bobUser = await stream("stream=user", "bob");
    const anonymous = await stream("stream=public");
    const s = await post("alice", "edit me t4");
    await bobUser.status("edit me t4");
    await ok(as("alice", `/api/v1/statuses/${s.id}`, { method: "PUT", json: { status: "edited t4" } }));
    const edited = await bobUser.status("edited t4", "status.update");
    expect(edited.payload).toMatchObject({ id: s.id, edited_at: expect.any(String) });
    await anonymous.status("edited t4", "status.update");

    await ok(as("alice", `/api/v1/statuses/${s.id}`, { method: "DELETE" }));
    const gone = await bobUser.next((m) => m.event === "delete");
    expect(gone).toMatchObject({ stream: ["user"], raw: s.id });
    expect(await anonymous.next((m) => m.event === "delete")).toMatchObject({ stream: ["public"], raw: s.id });
  });

  test("notifications arrive on user and user:notification; the latter carries nothing else; muted accounts' are not streamed", async () => {
    const bobUser = await stream("stream=user", "bob");
    const bobNotes = await stream("stream=user:notification", "bob");
    await post("eve", "@bob from a muted account t5");
    const mention = await post("carol", "@bob hello t5");
    const n = await bobNotes.next((m) => m.event === "notification");
    expect(n.stream).toEqual(["user:notification"]);
    expect(n.payload).toMatchObject({ type: "mention", account: { acct: "carol" }, status: { id: mention.id } });
    const onUser = await bobUser.next((m) => m.event === "notification");
    expect(onUser.payload.id).toBe(n.payload.id);
    await bobUser.status("hello t5"); // addressed to bob, so in his home
    expect(bobNotes.has((m) => m.event !== "notification")).toBe(false);
    expect(bobNotes.messages).toHaveLength(1); // eve's mention came first and was not streamed
    expect(bobUser.has((m) => m.event === "notification" && m.payload.account.acct === "eve")).toBe(false);
  });

  test("hashtag, hashtag:local and list streams", async () => {
    const tag = await stream("stream=hashtag&tag=Cats");
    const tagLocal = await stream("stream=hashtag:local&tag=cats");
    await ok(as("bob", `/api/v1/accounts/${id.carol}/follow`, { json: {} }));
    const list = await ok(as("bob", "/api/v1/lists", { json: { title: "friends" } }));
    await ok(as("bob", `/api/v1/lists/${list.id}/accounts`, { json: { account_ids: [id.alice] } }));
    const bobList = await stream(`stream=list&list=${list.id}`, "bob");
    // someone else's list: the reference server's error frame, and nothing from the list
    expect(await (await stream(`stream=list&list=${list.id}`, "carol")).errorFrame()).toEqual({ error: "Not authorized to stream this list", status: 401 });

    await post("carol", "not in the list t6");
    await post("alice", "in the list #cats t6");
    const tagged = await tag.status("in the list #cats t6");
    expect(tagged.stream).toEqual(["hashtag", "Cats"]);
    expect((await tagLocal.status("#cats t6")).stream).toEqual(["hashtag:local", "cats"]);
    const listed = await bobList.status("in the list #cats t6");
    expect(listed.stream).toEqual(["list", list.id]);
    expect(bobList.hasStatus("not in the list t6")).toBe(false);
    expect(tag.hasStatus("not in the list t6")).toBe(false);
  });

  test("public:remote with instance, public:local and hashtag:local, for a post from another instance", async () => {
    const db = server.services.db;
    const remote = async (host: string, text: string) => {
      const nick = `zed${newId().slice(-6)}`;
      const account = await db.account.create({ data: { id: newId(), nickname: `${nick}@${host}`, domain: host, local: false, apId: `https://${host}/users/${nick}` } });
      const tag = await db.tag.upsert({ where: { name: "cats" }, create: { id: newId(), name: "cats" }, update: {} });
      const sid = newId();
      await db.status.create({
        data: { id: sid, uri: `https://${host}/objects/${sid}`, accountId: account.id, local: false, content: `<p>${text} #cats</p>`, visibility: "public", context: `https://${host}/contexts/${sid}`, tags: { create: [{ tagId: tag.id }] } },
      });
      // what inbound federation will do once it stores remote posts
      server.services.bus.publish("status_created", { statusId: sid });
      return sid;
    };
    const fromRemote = await stream("stream=public:remote&instance=remote.example");
    const fromOther = await stream("stream=public:remote&instance=other.example");
    const local = await open("/api/v1/streaming/public/local"); // the stream as path segments
    const tagLocal = await stream("stream=hashtag:local&tag=cats");
    const everything = await stream("stream=public");

    const sid = await remote("remote.example", "remote post t7");
    await remote("other.example", "other post t7");
    await post("alice", "local post #cats t7");

    const got = await fromRemote.status("remote post t7");
    expect(got).toMatchObject({ stream: ["public:remote", "remote.example"], payload: { id: sid, account: { acct: expect.stringMatching(/@remote\.example$/) } } });
    await fromOther.status("other post t7");
    expect(fromOther.hasStatus("remote post t7")).toBe(false);
    expect((await local.status("local post #cats t7")).stream).toEqual(["public:local"]);
    await tagLocal.status("local post #cats t7");
    await everything.status("local post #cats t7");
    expect(everything.hasStatus("remote post t7")).toBe(true);
    expect(local.hasStatus("remote post t7") || tagLocal.hasStatus("remote post t7")).toBe(false);
    expect(await timelineIds("carol", "/api/v1/timelines/public?instance=remote.example")).toEqual([sid]);
  });

  test("a stream subscribed by message gets what was published after the socket was accepted, before the subscription took effect", async () => {
    const c = await open("/api/v1/streaming", { protocol: token.bob });
    // published and handled by the hub while bob's connection has no stream yet
    await post("alice", "before the subscribe t8r");
    await streamHub(server.services).idle();
    expect(c.hasStatus("before the subscribe t8r")).toBe(false);
    expect(await c.request({ type: "subscribe", stream: "user" })).toEqual({ type: "subscribe", result: "success" });
    expect((await c.status("before the subscribe t8r", "update", "user")).stream).toEqual(["user"]);
    await post("alice", "after the subscribe t8r");
    await c.status("after the subscribe t8r", "update", "user");
    expect(c.messages.filter((m) => m.event === "update" && JSON.stringify(m.payload).includes("before the subscribe t8r"))).toHaveLength(1);
  });

  test("multiplexed: token in Sec-WebSocket-Protocol (echoed), subscribe and unsubscribe with the family's answers", async () => {
    const c = await open("/api/v1/streaming", { protocol: token.bob });
    expect(c.ws.protocol).toBe(token.bob);
    expect(await c.request({ type: "subscribe", stream: "user" })).toEqual({ type: "subscribe", result: "success" });
    expect(await c.request({ type: "subscribe", stream: "hashtag", tag: "dogs" })).toEqual({ type: "subscribe", result: "success" });
    expect(await c.request({ type: "subscribe", stream: "hashtag", tag: "dogs" })).toEqual({ type: "subscribe", result: "ignored" });
    expect(await c.request({ type: "subscribe", stream: "nonsense" })).toEqual({ type: "subscribe", result: "error", error: "bad_topic" });
    // the reference server's frame came just before the family's answer
    expect(c.messages.filter((m) => m.error)).toEqual([expect.objectContaining({ error: "Unknown stream type", status: 400 })]);

    await post("alice", "woof #dogs t8");
    expect((await c.status("woof #dogs t8", "update", "user")).stream).toEqual(["user"]);
    expect((await c.status("woof #dogs t8", "update", "hashtag")).stream).toEqual(["hashtag", "dogs"]);

    expect(await c.request({ type: "unsubscribe", stream: "hashtag", tag: "dogs" })).toEqual({ type: "unsubscribe", result: "success" });
    expect(await c.request({ type: "unsubscribe", stream: "hashtag", tag: "dogs" })).toEqual({ type: "unsubscribe", result: "ignored" });
    await post("alice", "again #dogs t8b");
    await post("alice", "sentinel t8c");
    await c.status("again #dogs t8b", "update", "user");
    await c.status("sentinel t8c", "update", "user");
    expect(c.has((m) => m.stream[0] === "hashtag" && m.payload?.content?.includes("t8b"))).toBe(false);
  });

  test("multiplexed: user streams need a token; <ns>:authenticate adds one", async () => {
    const c = await open("/api/v1/streaming");
    expect(await c.request({ type: "subscribe", stream: "user" })).toEqual({ type: "subscribe", result: "error", error: "unauthorized" });
    expect(await c.request({ type: "ext:authenticate", token: "nope" })).toEqual({ type: "ext:authenticate", result: "error", error: "unauthorized" });
    expect(await c.request({ type: "ext:authenticate", token: token.bob })).toEqual({ type: "ext:authenticate", result: "success" });
    expect(await c.request({ type: "ext:authenticate", token: token.bob })).toEqual({ type: "ext:authenticate", result: "error", error: "already_authenticated" });
    expect(await c.request({ type: "subscribe", stream: "user" })).toEqual({ type: "subscribe", result: "success" });
    await post("alice", "after authenticate t9");
    await c.status("after authenticate t9");
  });

  test("a connection holds at most 50 subscriptions", async () => {
    const c = await open("/api/v1/streaming");
    for (let i = 0; i < 50; i++) expect(await c.request({ type: "subscribe", stream: "hashtag", tag: `limit${i}` })).toMatchObject({ result: "success" });
    expect(await c.request({ type: "subscribe", stream: "hashtag", tag: "limit50" })).toEqual({ type: "subscribe", result: "error", error: "too_many_subscriptions" });
    expect(await c.request({ type: "unsubscribe", stream: "hashtag", tag: "limit0" })).toMatchObject({ result: "success" });
    expect(await c.request({ type: "subscribe", stream: "hashtag", tag: "limit50" })).toMatchObject({ result: "success" });
  });

  test("refusals before the upgrade: 401 for bad or missing credentials; unknown streams accepted with the reference server's error frame", async () => {
    const refused = (path: string, headers?: Record<string, string>) => openStream(server, path, { headers }).then(
      (c) => (c.close(), 101),
      (e) => e.status as number,
    );
    expect(await refused("/api/v1/streaming?stream=user&access_token=bad")).toBe(401);
    expect(await refused("/api/v1/streaming?access_token=bad")).toBe(401);
    expect(await refused("/api/v1/streaming?stream=user")).toBe(401);
    expect(await refused("/api/v1/streaming?stream=direct")).toBe(401);
    expect(await refused(`/api/v1/streaming?stream=user&access_token=${token.writeOnly}`)).toBe(401);
    expect(await refused("/api/v1/streaming?stream=nonsense")).toBe(101);
    expect(await refused("/api/v1/streaming?stream=public")).toBe(101);
    expect(await refused("/api/v1/streaming/")).toBe(101);
    expect(await refused("/api/v1/streaming?stream=user", { authorization: `Bearer ${token.bob}` })).toBe(101);
  });

  test("invalid stream names get the reference server's error frame, by query, path and multiplexed subscribe; the connection stays usable", async () => {
    const byQuery = await stream("stream=nonsense", "bob");
    expect(await byQuery.errorFrame()).toEqual({ error: "Unknown stream type", status: 400 });
    expect(await (await open("/api/v1/streaming/public/nowhere")).errorFrame()).toEqual({ error: "Unknown stream type", status: 400 });
    expect(await (await stream("stream=hashtag")).errorFrame()).toEqual({ error: "Missing tag name parameter", status: 400 });
    expect(await (await stream("stream=list", "bob")).errorFrame()).toEqual({ error: "Missing list name parameter", status: 400 });

    const multiplexed = await stream("", "bob");
    multiplexed.send({ type: "subscribe", stream: "bogus" });
    expect(await multiplexed.errorFrame()).toEqual({ error: "Unknown stream type", status: 400 });
    const anonymous = await stream("");
    anonymous.send({ type: "subscribe", stream: "user" });
    expect(await anonymous.errorFrame()).toEqual({ error: "Missing access token", status: 401 });

    // the refused connection still subscribes and receives
    expect(await byQuery.request({ type: "subscribe", stream: "public" })).toEqual({ type: "subscribe", result: "success" });
    await post("alice", "after the error frame t9e");
    await byQuery.status("after the error frame t9e");
  });

  test("direct, user:<ns>_chat and user streams: conversations, chat updates, follow updates and announcements", async () => {
    const bobDirect = await stream("stream=direct", "bob");
    const carolDirect = await stream("stream=direct", "carol");
    const bobChat = await stream("stream=user:ext_chat", "bob");
    const bobUser = await stream("stream=user", "bob");

    const dm = await post("alice", "@bob secret t10", { visibility: "direct" });
    await post("alice", "@carol other secret t10", { visibility: "direct" });
    const convo = await bobDirect.next((m) => m.event === "conversation");
    expect(convo.stream).toEqual(["direct"]);
    expect(convo.payload).toMatchObject({ accounts: [expect.objectContaining({ acct: "alice" })], last_status: { id: dm.id }, unread: true });
    await bobDirect.status("@bob secret t10");
    await carolDirect.next((m) => m.event === "conversation");
    expect(carolDirect.has((m) => m.payload?.id === dm.id || m.payload?.last_status?.id === dm.id)).toBe(false);

    const chat = await ok(as("carol", `/api/v1/ext/chats/by-account-id/${id.bob}`, { json: {} }));
    await ok(as("carol", `/api/v1/ext/chats/${chat.id}/messages`, { json: { content: "chat t10" } }));
    const update = await bobChat.next((m) => m.event === "ext:chat_update");
    expect(update.stream).toEqual(["user:ext_chat"]);
    expect(update.payload).toMatchObject({ account: { acct: "carol" }, last_message: { content: "chat t10" } });
    await bobUser.next((m) => m.event === "ext:chat_update");

    await ok(as("s1", `/api/v1/accounts/${id.bob}/follow`, { json: {} }));
    const follow = await bobUser.next((m) => m.event === "ext:follow_relationships_update");
    expect(follow.payload).toMatchObject({ state: "follow_accept", follower: { id: id.s1, following_count: 1 }, following: { id: id.bob, follower_count: expect.any(Number) } });

    const a = await createAnnouncement(systemCtx(server.services), { content: "maintenance t10" });
    const announced = await bobUser.next((m) => m.event === "announcement");
    expect(announced.payload).toMatchObject({ id: a.id, content: expect.stringContaining("maintenance t10") });
    await deleteAnnouncement(systemCtx(server.services), { id: a.id });
    expect(await bobUser.next((m) => m.event === "announcement.delete")).toMatchObject({ raw: a.id });
  });

  test("payloads are rendered for each subscriber: their own flags, and the author's own view", async () => {
    await ok(as("dave", `/api/v1/accounts/${id.carol}/follow`, { json: {} }));
    await ok(as("bob", `/api/v1/accounts/${id.carol}/follow`, { json: {} }));
    const s = await post("alice", "favourite me t11");
    await ok(as("bob", `/api/v1/statuses/${s.id}/favourite`, { json: {} }));
    await server.services.db.account.update({ where: { id: id.alice }, data: { hideFollowersCount: true } });
    const bobUser = await stream("stream=user", "bob");
    const daveUser = await stream("stream=user", "dave");
    const aliceUser = await stream("stream=user", "alice");

    const reblog = await ok(as("carol", `/api/v1/statuses/${s.id}/reblog`, { json: {} }));
    const forBob = await bobUser.next((m) => m.event === "update" && m.payload.id === reblog.id);
    const forDave = await daveUser.next((m) => m.event === "update" && m.payload.id === reblog.id);
    expect(forBob.payload.reblog).toMatchObject({ id: s.id, favourited: true, favourites_count: 1 });
    expect(forDave.payload.reblog).toMatchObject({ id: s.id, favourited: false, favourites_count: 1 });

    await post("alice", "own view t11");
    const own = await aliceUser.status("own view t11");
    expect(own.payload.account.followers_count).toBe(1); // bob; hidden from others
    const seenByBob = await bobUser.status("own view t11");
    expect(seenByBob.payload.account.followers_count).toBe(0);
  });

  test("one event costs the same queries whatever the number of subscribers", async () => {
    const cost = async (subscribers: string[], text: string) => {
      const clients = await Promise.all(subscribers.map((who) => stream("stream=public", who)));
      const { queries } = await server.countQueries(async () => {
        await post("alice", text);
        await Promise.all(clients.map((c) => c.status(text)));
      });
      for (const c of clients) c.close();
      return queries;
    };
    const few = await cost(["s1", "s2"], "counted t12a");
    const many = await cost(["s1", "s2", "s3", "s4", "s5", "s6"], "counted t12b");
    expect(many).toBe(few);
  });

  test("a reblog shows each subscriber its own bookmark and poll votes on the original (the status view's flags)", async () => {
    for (const who of ["bob", "dave"]) await ok(as(who, `/api/v1/accounts/${id.carol}/follow`, { json: {} }));
    const s = await post("alice", "vote on me t13", { poll: { options: ["yes", "no", "maybe"], expires_in: 3600, multiple: true } });
    await ok(as("bob", `/api/v1/polls/${s.poll.id}/votes`, { json: { choices: ["2", "0"] } }));
    await ok(as("bob", `/api/v1/statuses/${s.id}/bookmark`, { json: {} }));
    const bobUser = await stream("stream=user", "bob");
    const daveUser = await stream("stream=user", "dave");

    const reblog = await ok(as("carol", `/api/v1/statuses/${s.id}/reblog`, { json: {} }));
    const forBob = await bobUser.next((m) => m.event === "update" && m.payload.id === reblog.id);
    const forDave = await daveUser.next((m) => m.event === "update" && m.payload.id === reblog.id);
    expect(forBob.payload.reblog).toMatchObject({ id: s.id, bookmarked: true, favourited: false, reblogged: false, poll: { voted: true, own_votes: [0, 2] } });
    expect(forDave.payload.reblog).toMatchObject({ id: s.id, bookmarked: false, poll: { voted: false, own_votes: [] } });
    // what the REST view says to each of them, for the same status
    expect((await ok(as("bob", `/api/v1/statuses/${s.id}`))).poll.own_votes).toEqual(forBob.payload.reblog.poll.own_votes);
  });

  test("the user stream keeps home's own rules: followed hashtags, exclusive lists, muted threads", async () => {
    for (const nick of ["fay", "gus", "hal", "ivy"]) {
      id[nick] = (await server.createUser(nick)).id;
      token[nick] = (await passwordToken(server, nick)).access_token;
    }
    for (const who of ["gus", "hal"]) await ok(as("fay", `/api/v1/accounts/${id[who]}/follow`, { json: {} }));
    await ok(as("fay", "/api/v1/tags/kiwi/follow", { json: {} }));
    const exclusive = await ok(as("fay", "/api/v1/lists", { json: { title: "only here", exclusive: true } }));
    await ok(as("fay", `/api/v1/lists/${exclusive.id}/accounts`, { json: { account_ids: [id.hal] } }));
    const root = await post("fay", "a thread fay mutes t20");
    await ok(as("fay", `/api/v1/statuses/${root.id}/mute`, { json: {} }));
    const fayUser = await stream("stream=user", "fay");
    const fayList = await stream(`stream=list&list=${exclusive.id}`, "fay");

    await post("ivy", "a stranger's #kiwi t20");
    await post("ivy", "a stranger's unlisted #kiwi t20", { visibility: "unlisted" });
    await post("hal", "hal, in an exclusive list t20");
    await post("gus", "@fay gus, in the muted thread t20", { in_reply_to_id: root.id });
    await post("gus", "sentinel t20");

    await fayUser.status("a stranger's #kiwi t20");
    await fayUser.status("sentinel t20");
    await fayList.status("hal, in an exclusive list t20");
    expect(fayUser.hasStatus("unlisted #kiwi t20")).toBe(false);
    expect(fayUser.hasStatus("hal, in an exclusive list t20")).toBe(false);
    expect(fayUser.hasStatus("gus, in the muted thread t20")).toBe(false);
  });

  // the hub's reads run for every new status while anyone streams or has a page kept (the page cache)
  test("the hub reads a status's facts in one statement and its audience's relations in two, whatever the number of viewers", async () => {
    const ctx = systemCtx(server.services);
    const original = await post("alice", "facts of #Cats t21", { poll: { options: ["a", "b"], expires_in: 3600 } });
    const reply = await post("bob", "@alice a reply t21", { in_reply_to_id: original.id });
    const reblog = await ok(as("carol", `/api/v1/statuses/${reply.id}/reblog`, { json: {} }));
    const read = await server.countQueries(() => loadStatusFacts(ctx, reblog.id));
    expect(read.queries).toBe(1);
    expect(read.result).toMatchObject({
      status: { id: reblog.id, accountId: id.carol, reblogOfId: reply.id },
      author: { id: id.carol, domain: null, deactivated: false },
      tags: [],
      hasMedia: false,
      reblogOf: { status: { id: reply.id, inReplyToId: original.id }, author: { id: id.bob }, hasMedia: false },
      parent: { id: original.id, accountId: id.alice, visibility: "public", authorDeactivated: false },
    });
    expect(read.result!.status.createdAt).toBeInstanceOf(Date);
    expect((await loadStatusFacts(ctx, original.id))!.tags).toEqual(["cats"]);

    const viewers = ["bob", "carol", "dave", "eve", "s1", "s2", "s3"].map((who) => id[who]);
    const audience = await server.countQueries(() => loadAudience(ctx, viewers, read.result!));
    expect(audience.queries).toBe(2);
    // bob follows alice (set up above) and carol does not: the view of each
    expect(audience.result.view(id.bob).follows(id.alice)).toBe(true);
    expect(audience.result.view(id.carol).follows(id.alice)).toBe(false);
  });
});
