// Admin API chats: a user's chats, one chat, its messages (max_id / min_id), deleting a message with
// its moderation-log entry; privileges messages_read / messages_delete; both prefixes.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { bearer, cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

const ADMIN_TOKEN = "admin-token-for-chat-tests";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];

describe.each(suiteKinds(import.meta.url))("admin chats on %s", (kind) => {
  let server: TestServer;
  let id: Cast["id"];
  let token: Cast["token"];
  let chatId: string;
  let otherChatId: string;
  const sent: string[] = [];

  const call = async (who: string | null, method: string, path: string, prefix = PREFIXES[0]) => {
    const res = await server.fetch(prefix + path, { method, headers: who ? bearer(token[who]) : {} });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const lastLog = async () => (await server.services.db.moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).message;

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN });
    ({ id, token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, rita: {}, tom: {} }));
    token.weak = (await passwordToken(server, "ada", "read write")).access_token;
    // rita writes to tom three times; tom answers once
    const chat = await server.fetch(`/api/v1/ext/chats/by-account-id/${id.tom}`, { method: "POST", headers: bearer(token.rita) });
    chatId = (await chat.json()).id;
    for (const content of ["one", "two", "three"]) {
      const r = await server.fetch(`/api/v1/ext/chats/${chatId}/messages`, { json: { content }, headers: bearer(token.rita) });
      sent.push((await r.json()).id);
    }
    otherChatId = (await server.services.db.chat.findUniqueOrThrow({ where: { accountId_recipientId: { accountId: id.tom, recipientId: id.rita } } })).id;
    await server.fetch(`/api/v1/ext/chats/${otherChatId}/messages`, { json: { content: "hi rita" }, headers: bearer(token.tom) });
  });
  afterAll(() => server?.close());

  test("GET /users/:nickname/chats: the user's chats with sender and receiver; by nickname or id; both prefixes", async () => {
    const [a, b] = await Promise.all(PREFIXES.map((p) => call("ada", "GET", "/users/rita/chats", p)));
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toEqual([
      {
        id: chatId,
        sender: expect.objectContaining({ id: id.rita, acct: "rita" }),
        receiver: expect.objectContaining({ id: id.tom, acct: "tom" }),
        account: expect.objectContaining({ id: id.tom }),
        unread: 1,
        last_message: expect.objectContaining({ chat_id: chatId, content: "hi rita", account_id: id.tom, unread: true }),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect((await call("ada", "GET", `/users/${id.tom}/chats`)).body.map((c: any) => c.id)).toEqual([otherChatId]);
    expect(await call("ada", "GET", "/users/nobody/chats")).toEqual({ status: 404, body: { error: "Not found" } });
    // the admin token acts as an admin
    const viaToken = await server.fetch(`${PREFIXES[0]}/users/rita/chats`, { headers: { "X-Admin-Token": ADMIN_TOKEN } });
    expect(viaToken.status).toBe(200);
  });

  test("GET /chats/:id answers any chat; unknown is 404 Not found", async () => {
    const [a, b] = await Promise.all(PREFIXES.map((p) => call("ada", "GET", `/chats/${otherChatId}`, p)));
    expect(a).toMatchObject({ status: 200, body: { id: otherChatId, sender: { id: id.tom }, receiver: { id: id.rita }, unread: 3, last_message: { content: "hi rita", unread: false } } });
    expect(b.body).toEqual(a.body);
    expect(await call("ada", "GET", `/chats/${newId()}`)).toEqual({ status: 404, body: { error: "Not found" } });
  });

  test("GET /chats/:id/messages: newest first with max_id / min_id; unknown chat 404 not found", async () => {
    const all = await call("ada", "GET", `/chats/${chatId}/messages`);
    expect(all.status).toBe(200);
    expect(all.body.map((m: any) => m.content)).toEqual(["hi rita", "three", "two", "one"]);
    expect(all.body[1]).toMatchObject({ id: sent[2], chat_id: chatId, account_id: id.rita, unread: false, emojis: [] });
    const older = await call("ada", "GET", `/chats/${chatId}/messages?max_id=${sent[2]}`);
    expect(older.body.map((m: any) => m.content)).toEqual(["two", "one"]);
    const newer = await call("ada", "GET", `/chats/${chatId}/messages?min_id=${sent[0]}&max_id=${sent[2]}`, PREFIXES[1]);
    expect(newer.body.map((m: any) => m.content)).toEqual(["two"]);
    expect(await call("ada", "GET", `/chats/${newId()}/messages`)).toEqual({ status: 404, body: { error: "not found" } });
  });

  test("DELETE /chats/:id/messages/:message_id deletes it for both sides and logs it; a moderator may", async () => {
    const ref = await server.services.db.chatMessageRef.findUniqueOrThrow({ where: { id: sent[1] } });
    const res = await call("mo", "DELETE", `/chats/${chatId}/messages/${sent[1]}`);
    expect(res).toMatchObject({ status: 200, body: { id: sent[1], content: "two", chat_id: chatId } });
    expect(await server.services.db.chatMessage.count({ where: { id: ref.messageId } })).toBe(0);
    expect(await server.services.db.chatMessageRef.count({ where: { messageId: ref.messageId } })).toBe(0);
    expect(await lastLog()).toBe(`@mo deleted chat message #${sent[1]}`);
    const entry = await server.services.db.moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(entry.action).toBe("chat_message_delete");

    // the other prefix, by an admin; then the same message again, or one of another chat, is refused
    expect((await call("ada", "DELETE", `/chats/${chatId}/messages/${sent[0]}`, PREFIXES[1])).status).toBe(200);
    expect(await lastLog()).toBe(`@ada deleted chat message #${sent[0]}`);
    const logs = await server.services.db.moderationLogEntry.count();
    expect(await call("ada", "DELETE", `/chats/${chatId}/messages/${sent[0]}`)).toEqual({ status: 400, body: { error: "could_not_delete" } });
    expect(await call("ada", "DELETE", `/chats/${otherChatId}/messages/${sent[2]}`)).toEqual({ status: 400, body: { error: "could_not_delete" } });
    expect(await server.services.db.moderationLogEntry.count()).toBe(logs);
  });

  test("privileges: moderators lack messages_read by default; users, anonymous and unscoped tokens are refused", async () => {
    const reads = ["/users/rita/chats", `/chats/${chatId}`, `/chats/${chatId}/messages`];
    for (const p of reads) {
      expect(await call("mo", "GET", p)).toEqual({ status: 403, body: { error: "User isn't privileged." } });
      expect(await call("rita", "GET", p)).toEqual({ status: 403, body: { error: "User is not a staff member." } });
      expect(await call(null, "GET", p)).toEqual({ status: 403, body: { error: "Invalid credentials." } });
      expect(await call("weak", "GET", p)).toEqual({ status: 403, body: { error: "Insufficient permissions: admin:read:chats." } });
    }
    const del = `/chats/${chatId}/messages/${sent[2]}`;
    expect(await call("rita", "DELETE", del)).toEqual({ status: 403, body: { error: "User is not a staff member." } });
    expect(await call(null, "DELETE", del)).toEqual({ status: 403, body: { error: "Invalid credentials." } });
    expect(await call("weak", "DELETE", del)).toEqual({ status: 403, body: { error: "Insufficient permissions: admin:write:chats." } });
    expect(await server.services.db.chatMessageRef.count({ where: { id: sent[2] } })).toBe(1);
  });
});
