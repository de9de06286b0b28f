// Chats: by-account-id (one chat per pair), show, both list variants (with_muted, paging), messages
// newest first, posting (escaping, line breaks, custom emoji, media, limits, refusals, Idempotency-Key),
// read marking, deletion, chat_mention notifications, bus events and constant query counts.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { loadEmojiRegistry } from "../../src/domain/emoji/registry.ts";
import type { BusEvents } from "../../src/realtime/bus.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { user, type User } from "./relationships-helpers.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

const V1 = "/api/v1/ext/chats";
const V2 = "/api/v2/ext/chats";

describe.each(suiteKinds(import.meta.url))("chats on %s", (kind) => {
  let server: TestServer;
  let ana: User, ben: User, cal: User, dan: User, eve: User;

  /** A JSON request as `who`; resolves to status, body and headers. */
  const call = async (who: User | null, method: string, p: string, json?: unknown, headers: Record<string, string> = {}) => {
    const res = await server.fetch(p, { method, json, headers: { ...(who ? who.auth : {}), ...headers } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  const open = async (who: User, other: User) => {
    const r = await call(who, "POST", `${V1}/by-account-id/${other.id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const send = async (who: User, chatId: string, json: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const r = await call(who, "POST", `${V1}/${chatId}/messages`, json, headers);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const chatOf = (owner: User, other: User) => server.services.db.chat.findUnique({ where: { accountId_recipientId: { accountId: owner.id, recipientId: other.id } } });
  const withChatLimit = async (value: number, fn: () => Promise<void>) => {
    await server.services.db.configEntry.create({ data: { group: "instance", key: "chat_limit", value } });
    await server.services.config.reload();
    try {
      await fn();
    } finally {
      await server.services.db.configEntry.deleteMany({ where: { key: "chat_limit" } });
      await server.services.config.reload();
    }
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    [ana, ben, cal, dan, eve] = await Promise.all(["ana", "ben", "cal", "dan", "eve"].map((n) => user(server, n)));
    // one custom emoji on disk
    const pack = path.join(server.dataDir, "emoji", "packs", "blobs");
    fs.mkdirSync(pack, { recursive: true });
    fs.writeFileSync(path.join(pack, "blobcat.png"), "png");
    fs.writeFileSync(path.join(pack, "pack.json"), JSON.stringify({ files: { blobcat: "blobcat.png" }, pack: {} }));
    loadEmojiRegistry(server.services.settings);
  });
  afterAll(() => server?.close());

  test("by-account-id opens one chat per pair, idempotently; only the opener's side exists until a message", async () => {
    const first = await open(ana, ben);
    expect(first).toEqual({
      id: expect.any(String),
      account: expect.objectContaining({ id: ben.id, acct: "ben" }),
      unread: 0,
      last_message: null,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const again = await open(ana, ben);
    expect(again.id).toBe(first.id);
    expect(await server.services.db.chat.count({ where: { accountId: ana.id, recipientId: ben.id } })).toBe(1);
    expect(await chatOf(ben, ana)).toBeNull();

    expect(await call(ana, "POST", `${V1}/by-account-id/${newId()}`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect(await call(null, "POST", `${V1}/by-account-id/${ben.id}`)).toMatchObject({ status: 403, body: { error: "Invalid credentials." } });
  });

  test("GET /chats/:id answers the viewer's chat; another's is 404", async () => {
    const chat = await open(ana, ben);
    expect(await call(ana, "GET", `${V1}/${chat.id}`)).toMatchObject({ status: 200, body: { id: chat.id, account: { id: ben.id } } });
    expect(await call(cal, "GET", `${V1}/${chat.id}`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
  });

  test("posting: basic escaping, line breaks and custom emoji only; both sides get a ref, the recipient's unread", async () => {
    const chat = await open(ana, ben);
    const msg = await send(ana, chat.id, { content: "hi <b>ben</b> & 'you'\nhttps://x.test :blobcat: :nope:" });
    expect(msg).toEqual({
      id: expect.any(String),
      chat_id: chat.id,
      account_id: ana.id,
      content: "hi &lt;b&gt;ben&lt;/b&gt; &amp; &#39;you&#39;<br/>https://x.test :blobcat: :nope:",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      emojis: [{ shortcode: "blobcat", url: "http://localhost:4000/emoji/packs/blobs/blobcat.png", static_url: "http://localhost:4000/emoji/packs/blobs/blobcat.png", visible_in_picker: false }],
      attachment: null,
      unread: false,
      card: null,
    });
    const stored = await server.services.db.chatMessageRef.findUniqueOrThrow({ where: { id: msg.id }, include: { message: { include: { refs: true } } } });
    expect(stored.message.refs).toHaveLength(2);
    const benChat = (await chatOf(ben, ana))!;
    const benRef = stored.message.refs.find((r) => r.chatId === benChat.id)!;
    expect(benRef.unread).toBe(true);

    const listed = await call(ben, "GET", V1);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: benChat.id, account: expect.objectContaining({ id: ana.id }), unread: 1, last_message: expect.objectContaining({ id: benRef.id, chat_id: benChat.id, content: msg.content, unread: true }) }),
    ]);
    const mine = await call(ana, "GET", `${V1}/${chat.id}`);
    expect(mine.body).toMatchObject({ unread: 0, last_message: { id: msg.id, unread: false } });
  });

  test("posting: no content and no media is 400 no_content; over chat_limit 400 content_too_long; another's chat 400 not_found", async () => {
    const chat = await open(ana, cal);
    const before = await server.services.db.chatMessage.count();
    expect(await call(ana, "POST", `${V1}/${chat.id}/messages`, {})).toMatchObject({ status: 400, body: { error: "no_content" } });
    expect(await call(ana, "POST", `${V1}/${chat.id}/messages`, { content: "" })).toMatchObject({ status: 400, body: { error: "no_content" } });
    await withChatLimit(5, async () => {
      expect(await call(ana, "POST", `${V1}/${chat.id}/messages`, { content: "123456" })).toMatchObject({ status: 400, body: { error: "content_too_long" } });
      expect((await call(ana, "POST", `${V1}/${chat.id}/messages`, { content: "12345" })).status).toBe(200);
    });
    expect(await call(dan, "POST", `${V1}/${chat.id}/messages`, { content: "hijack" })).toMatchObject({ status: 400, body: { error: "not_found" } });
    expect(await server.services.db.chatMessage.count()).toBe(before + 1);
  });

  test("posting media: one's own upload is attached (content optional); another's is 400 forbidden", async () => {
    const chat = await open(ana, cal);
    const media = (owner: User) =>
      server.services.db.mediaAttachment.create({ data: { id: newId(), accountId: owner.id, type: "image", mimeType: "image/png", url: `http://localhost:4000/media/${newId()}/file.png` } });
    const mine = await media(ana);
    const msg = await send(ana, chat.id, { media_id: mine.id });
    expect(msg).toMatchObject({ content: null, attachment: { id: mine.id, type: "image", url: mine.url, ext: { mime_type: "image/png" } } });
    expect((await server.services.db.chatMessageRef.findUniqueOrThrow({ where: { id: msg.id }, include: { message: true } })).message.mediaId).toBe(mine.id);
    const theirs = await media(dan);
    expect(await call(ana, "POST", `${V1}/${chat.id}/messages`, { content: "look", media_id: theirs.id })).toMatchObject({ status: 400, body: { error: "forbidden" } });
  });

  test("a recipient with accepts_chat_messages false, or a block either way, refuses (422, nothing stored)", async () => {
    const patched = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json: { accepts_chat_messages: false }, headers: eve.auth });
    expect(patched.status).toBe(200);
    expect((await patched.json()).ext.accepts_chat_messages).toBe(false);
    const toEve = await open(dan, eve);
    const before = await server.services.db.chatMessage.count();
    expect(await call(dan, "POST", `${V1}/${toEve.id}/messages`, { content: "hello?" })).toMatchObject({ status: 422, body: { error: "recipient does not accept chat messages" } });

    const toCal = await open(dan, cal);
    expect((await call(cal, "POST", `/api/v1/accounts/${dan.id}/block`)).status).toBe(200);
    expect(await call(dan, "POST", `${V1}/${toCal.id}/messages`, { content: "hey" })).toMatchObject({ status: 422, body: { error: "actor is blocked by recipient" } });
    expect((await call(cal, "POST", `/api/v1/accounts/${dan.id}/unblock`)).status).toBe(200);
    expect((await call(dan, "POST", `/api/v1/accounts/${cal.id}/block`)).status).toBe(200);
    expect(await call(dan, "POST", `${V1}/${toCal.id}/messages`, { content: "hey" })).toMatchObject({ status: 422, body: { error: "recipient is blocked by actor" } });
    expect((await call(dan, "POST", `/api/v1/accounts/${cal.id}/unblock`)).status).toBe(200);
    expect(await server.services.db.chatMessage.count()).toBe(before);
    expect(await chatOf(eve, dan)).toBeNull();
  });

  test("Idempotency-Key: the same key answers the same message with idempotency_key; past the window the key is gone", async () => {
    const chat = await open(ben, dan);
    const a = await send(ben, chat.id, { content: "once" }, { "Idempotency-Key": "key-123" });
    const b = await send(ben, chat.id, { content: "once" }, { "Idempotency-Key": "key-123" });
    expect(a.idempotency_key).toBe("key-123");
    expect(b).toEqual(a);
    expect(await server.services.db.chatMessage.count({ where: { idempotencyKey: "key-123" } })).toBe(1);
    expect(await server.services.db.chatMessageRef.count({ where: { chatId: chat.id } })).toBe(1);
    const plain = await send(ben, chat.id, { content: "no key" });
    expect(plain).not.toHaveProperty("idempotency_key");
    // the recipient's copy carries it too, as the family caches it per ref
    const danChat = (await chatOf(dan, ben))!;
    const danView = (await call(dan, "GET", `${V1}/${danChat.id}/messages`)).body;
    expect(danView.find((m: any) => m.content === "once").idempotency_key).toBe("key-123");

    // three minutes later (the server's clock): the key is no longer shown, and reusing it makes a new message
    const realClock = server.services.clock;
    server.services.clock = () => new Date(Date.now() + 3 * 60_000);
    try {
      const later = (await call(ben, "GET", `${V1}/${chat.id}/messages`)).body;
      expect(later.find((m: any) => m.id === a.id)).not.toHaveProperty("idempotency_key");
      const c = await send(ben, chat.id, { content: "once" }, { "Idempotency-Key": "key-123" });
      expect(c.id).not.toBe(a.id);
      expect(await server.services.db.chatMessage.count({ where: { idempotencyKey: "key-123" } })).toBe(2);
    } finally {
      server.services.clock = realClock;
    }
  });

  test("messages: newest first, paged with limit / max_id / min_id and a Link header; another's chat 404", async () => {
    const chat = await open(cal, ana);
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await send(cal, chat.id, { content: `m${i}` })).id);
    const first = await call(cal, "GET", `${V1}/${chat.id}/messages?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.map((m: any) => m.content)).toEqual(["m4", "m3"]);
    const link = first.headers.get("link")!;
    expect(link).toContain(`max_id=${sent[3]}`);
    expect(link).toContain(`min_id=${sent[4]}`);
    const next = await call(cal, "GET", `${V1}/${chat.id}/messages?limit=2&max_id=${sent[3]}`);
    expect(next.body.map((m: any) => m.content)).toEqual(["m2", "m1"]);
    const newer = await call(cal, "GET", `${V1}/${chat.id}/messages?limit=2&min_id=${sent[1]}`);
    expect(newer.body.map((m: any) => m.content)).toEqual(["m3", "m2"]);
    expect(await call(ben, "GET", `${V1}/${chat.id}/messages`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
  });

  test("read: up to last_read_id (chat answered without last_message) and one message; unread counts follow the DB", async () => {
    const chat = await open(dan, ana);
    for (const content of ["r1", "r2", "r3"]) await send(dan, chat.id, { content });
    const anaChat = (await chatOf(ana, dan))!;
    const refs = await server.services.db.chatMessageRef.findMany({ where: { chatId: anaChat.id }, orderBy: { id: "asc" } });
    expect(refs.map((r) => r.unread)).toEqual([true, true, true]);

    const read = await call(ana, "POST", `${V1}/${anaChat.id}/read`, { last_read_id: refs[1].id });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id: anaChat.id, account: expect.objectContaining({ id: dan.id }), unread: 1, updated_at: expect.any(String) });
    const after = await server.services.db.chatMessageRef.findMany({ where: { chatId: anaChat.id }, orderBy: { id: "asc" } });
    expect(after.map((r) => r.unread)).toEqual([false, false, true]);
    expect(await call(ana, "POST", `${V1}/${anaChat.id}/read`, {})).toMatchObject({ status: 400, body: { error: "Missing field: last_read_id." } });

    const one = await call(ana, "POST", `${V1}/${anaChat.id}/messages/${refs[2].id}/read`);
    expect(one).toMatchObject({ status: 200, body: { id: refs[2].id, unread: false, content: "r3" } });
    expect((await server.services.db.chatMessageRef.findUniqueOrThrow({ where: { id: refs[2].id } })).unread).toBe(false);
    expect((await call(ana, "GET", `${V1}/${anaChat.id}`)).body.unread).toBe(0);
    expect(await call(ana, "POST", `${V1}/${anaChat.id}/messages/${newId()}/read`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    // the sender's ref of the same message lives in the sender's chat, not here
    expect((await call(dan, "POST", `${V1}/${chat.id}/messages/${refs[0].id}/read`)).status).toBe(404);
  });

  test("delete: one's own message goes for both sides (and its notification); the other's only from the viewer's chat", async () => {
    const [eve, ben] = await Promise.all(["deleter", "answerer"].map((n) => user(server, n)));
    const chat = await open(eve, ben);
    const own = await send(eve, chat.id, { content: "oops" });
    const message = (await server.services.db.chatMessageRef.findUniqueOrThrow({ where: { id: own.id } })).messageId;
    const benChat = (await chatOf(ben, eve))!;
    const benRef = await server.services.db.chatMessageRef.findFirstOrThrow({ where: { chatId: benChat.id, messageId: message } });
    expect(await server.services.db.notification.count({ where: { chatMessageRefId: benRef.id, type: "chat_mention" } })).toBe(1);

    const deleted = await call(eve, "DELETE", `${V1}/${chat.id}/messages/${own.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { id: own.id, content: "oops" } });
    expect(await server.services.db.chatMessage.count({ where: { id: message } })).toBe(0);
    expect(await server.services.db.chatMessageRef.count({ where: { messageId: message } })).toBe(0);
    expect(await server.services.db.notification.count({ where: { chatMessageRefId: benRef.id } })).toBe(0);

    // ben answers; eve removes ben's message from her chat only
    const reply = await send(ben, benChat.id, { content: "what?" });
    const replyMessage = (await server.services.db.chatMessageRef.findUniqueOrThrow({ where: { id: reply.id } })).messageId;
    const eveRef = await server.services.db.chatMessageRef.findFirstOrThrow({ where: { chatId: chat.id, messageId: replyMessage } });
    expect((await call(eve, "DELETE", `${V1}/${chat.id}/messages/${eveRef.id}`)).status).toBe(200);
    expect(await server.services.db.chatMessageRef.count({ where: { id: eveRef.id } })).toBe(0);
    expect(await server.services.db.chatMessageRef.count({ where: { id: reply.id } })).toBe(1);

    expect(await call(eve, "DELETE", `${V1}/${chat.id}/messages/${reply.id}`)).toMatchObject({ status: 400, body: { error: "could_not_delete" } });
    expect(await call(dan, "DELETE", `${V1}/${chat.id}/messages/${own.id}`)).toMatchObject({ status: 400, body: { error: "could_not_delete" } });
  });

  test("lists: newest update first; muted accounts' chats only with_muted; blocked never; v2 pages with a Link header", async () => {
    const owner = await user(server, "lister");
    const others = await Promise.all(["l1", "l2", "l3"].map((n) => user(server, n)));
    for (const o of others) await open(owner, o);
    const chatL1 = (await chatOf(owner, others[0]))!;
    await send(owner, chatL1.id, { content: "bump" }); // l1's chat becomes the newest
    const ids = async (p: string) => ((await call(owner, "GET", p)).body as any[]).map((c) => c.account.acct);
    expect(await ids(V1)).toEqual(["l1", "l3", "l2"]);
    expect(await ids(V2)).toEqual(["l1", "l3", "l2"]);

    expect((await call(owner, "POST", `/api/v1/accounts/${others[2].id}/mute`)).status).toBe(200);
    expect((await call(owner, "POST", `/api/v1/accounts/${others[1].id}/block`)).status).toBe(200);
    expect(await ids(V1)).toEqual(["l1"]);
    expect(await ids(`${V1}?with_muted=true`)).toEqual(["l1", "l3"]);
    expect(await ids(`${V2}?with_muted=true`)).toEqual(["l1", "l3"]);
    expect((await call(owner, "POST", `/api/v1/accounts/${others[1].id}/unblock`)).status).toBe(200);

    const page1 = await call(owner, "GET", `${V2}?with_muted=true&limit=2`);
    expect(page1.body.map((c: any) => c.account.acct)).toEqual(["l1", "l3"]);
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get("link")!)![1];
    const page2 = await call(owner, "GET", new URL(next).pathname + new URL(next).search);
    expect(page2.body.map((c: any) => c.account.acct)).toEqual(["l2"]);
    // a bare chat id works as a cursor too (the family's Link header carries chat ids)
    const byId = await call(owner, "GET", `${V2}?with_muted=true&max_id=${page1.body[1].id}`);
    expect(byId.body.map((c: any) => c.account.acct)).toEqual(["l2"]);
  });

  test("chat_mention: stored for the recipient, listed only when asked for (include_types or types), with chat_message", async () => {
    const sender = await user(server, "pinger");
    const target = await user(server, "pinged");
    const chat = await open(sender, target);
    const msg = await send(sender, chat.id, { content: "ping" });
    const targetChat = (await chatOf(target, sender))!;
    const targetRef = await server.services.db.chatMessageRef.findFirstOrThrow({ where: { chatId: targetChat.id } });

    expect((await call(target, "GET", "/api/v1/notifications")).body).toEqual([]);
    for (const q of ["include_types[]=ext:chat_mention", "types[]=ext:chat_mention"]) {
      const listed = await call(target, "GET", `/api/v1/notifications?${q}`);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        expect.objectContaining({
          type: "ext:chat_mention",
          account: expect.objectContaining({ id: sender.id }),
          chat_message: expect.objectContaining({ id: targetRef.id, chat_id: targetChat.id, content: "ping", account_id: sender.id, unread: true }),
        }),
      ]);
    }
    // the sender is not notified, nor is anyone for a chat with oneself
    expect((await call(sender, "GET", "/api/v1/notifications?types[]=ext:chat_mention")).body).toEqual([]);
    const self = await open(sender, sender);
    await send(sender, self.id, { content: "note to self" });
    expect((await call(sender, "GET", "/api/v1/notifications?types[]=ext:chat_mention")).body).toEqual([]);
    expect(msg.id).not.toBe(targetRef.id);
  });

  test("the bus gets chat_update for both sides on a message, and for the reader on read", async () => {
    const events: BusEvents["chat_update"][0][] = [];
    const iterator = server.services.bus.subscribe("chat_update")[Symbol.asyncIterator]();
    const collecting = (async () => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        events.push(next.value);
      }
    })();
    const chat = await open(cal, dan);
    const msg = await send(cal, chat.id, { content: "live" });
    const danChat = (await chatOf(dan, cal))!;
    expect((await call(dan, "POST", `${V1}/${danChat.id}/read`, { last_read_id: "zzzzzzzzzzzzzzzzzzzzzzzzzz" })).status).toBe(200);
    await iterator.return?.();
    await collecting;
    expect(events).toEqual([
      { accountId: cal.id, chatId: chat.id, change: "message" },
      { accountId: dan.id, chatId: danChat.id, change: "message" },
      { accountId: dan.id, chatId: danChat.id, change: "read" },
    ]);
    expect(msg.id).toBeTruthy();
  });

  test("scopes: reading needs read:chats, writing write:chats", async () => {
    const reader = await user(server, "reader", "read");
    expect((await call(reader, "GET", V1)).status).toBe(200);
    expect(await call(reader, "POST", `${V1}/by-account-id/${ana.id}`)).toMatchObject({ status: 403, body: { error: "Insufficient permissions: write:chats." } });
  });

  test("listing chats and messages costs the same number of queries for 3 and 10", async () => {
    const owner = await user(server, "counter");
    const peers = await Promise.all(Array.from({ length: 10 }, (_, i) => user(server, `peer${i}`)));
    const chats: string[] = [];
    for (const p of peers.slice(0, 3)) {
      const c = await open(owner, p);
      chats.push(c.id);
      await send(p, (await open(p, owner)).id, { content: ":blobcat: hello" });
    }
    const measure = async () => ({
      v1: (await server.countQueries(() => call(owner, "GET", V1))).queries,
      v2: (await server.countQueries(() => call(owner, "GET", V2))).queries,
      messages: (await server.countQueries(() => call(owner, "GET", `${V1}/${chats[0]}/messages`))).queries,
    });
    await send(owner, chats[0], { content: "warm" });
    const three = await measure();
    for (const p of peers.slice(3)) {
      await open(owner, p);
      await send(p, (await open(p, owner)).id, { content: "hello" });
    }
    for (let i = 0; i < 7; i++) await send(owner, chats[0], { content: `more ${i}` });
    const ten = await measure();
    expect((await call(owner, "GET", V1)).body).toHaveLength(10);
    expect(ten).toEqual(three);
  });
});
