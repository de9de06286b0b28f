// Chats over GraphQL: the same operations as REST (open, send with an idempotency key, read marking,
// refusals), chats and messages as Relay connections, and the chatMessageReceived subscription end to
// end over graphql-ws (only the viewer's chats are delivered).
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 90_000 });

const MESSAGE = "id chatId accountId content unread idempotencyKey emojis { shortcode } account { nickname }";

describe.each(suiteKinds(import.meta.url))("GraphQL chats on %s", (kind) => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const gql = (query: string, variables?: Record<string, unknown>, bearer: string | null = tokens.ann) =>
    server.fetch("/graphql", { json: { query, variables }, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then((r) => r.json());
  const ok = async (query: string, variables?: Record<string, unknown>, bearer?: string | null) => {
    const r = await gql(query, variables, bearer);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data;
  };
  const openChat = async (who: string, other: string) =>
    (await ok("mutation($a: ID!) { openChat(accountId: $a) { id account { nickname } unread } }", { a: ids[other] }, tokens[who])).openChat as { id: string };
  const send = async (who: string, chatId: string, content: string, idempotencyKey?: string) =>
    (await ok(`mutation($c: ID!, $t: String, $k: String) { sendChatMessage(chatId: $c, content: $t, idempotencyKey: $k) { ${MESSAGE} } }`, { c: chatId, t: content, k: idempotencyKey }, tokens[who]))
      .sendChatMessage;

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const name of ["ann", "bob", "cat", "dan"]) {
      ids[name] = (await server.createUser(name)).id;
      tokens[name] = (await passwordToken(server, name)).access_token;
    }
  });
  afterAll(() => server?.close());

  test("openChat, sendChatMessage (idempotent by key), chats / chat / chatMessages and markChatRead", async () => {
    const chat = await openChat("ann", "bob");
    expect(chat).toMatchObject({ account: { nickname: "bob" }, unread: 0 });
    expect((await openChat("ann", "bob")).id).toBe(chat.id);

    const first = await send("ann", chat.id, "hello <bob>", "gql-key");
    expect(first).toMatchObject({ chatId: chat.id, accountId: ids.ann, content: "hello &lt;bob&gt;", unread: false, idempotencyKey: "gql-key", account: { nickname: "ann" } });
    expect((await send("ann", chat.id, "hello <bob>", "gql-key")).id).toBe(first.id);
    expect(await server.services.db.chatMessage.count({ where: { idempotencyKey: "gql-key" } })).toBe(1);
    await send("ann", chat.id, "second");
    await send("ann", chat.id, "third");

    const bobChats = (await ok("{ chats { edges { cursor node { id unread account { nickname } lastMessage { content unread } } } } }", {}, tokens.bob)).chats.edges;
    expect(bobChats).toHaveLength(1);
    const bobChat = bobChats[0].node;
    expect(bobChat).toMatchObject({ unread: 3, account: { nickname: "ann" }, lastMessage: { content: "third", unread: true } });
    expect((await ok("query($id: ID!) { chat(id: $id) { id unread } }", { id: bobChat.id }, tokens.bob)).chat).toEqual({ id: bobChat.id, unread: 3 });

    const page1 = (await ok("query($c: ID!) { chatMessages(chatId: $c, first: 2) { pageInfo { hasNextPage endCursor } edges { node { id content } } } }", { c: bobChat.id }, tokens.bob)).chatMessages;
    expect(page1.edges.map((e: any) => e.node.content)).toEqual(["third", "second"]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await ok("query($c: ID!, $a: String) { chatMessages(chatId: $c, first: 2, after: $a) { pageInfo { hasNextPage } edges { node { id content } } } }", { c: bobChat.id, a: page1.pageInfo.endCursor }, tokens.bob)).chatMessages;
    expect(page2.edges.map((e: any) => e.node.content)).toEqual(["hello &lt;bob&gt;"]);
    expect(page2.pageInfo.hasNextPage).toBe(false);

    const read = (await ok("mutation($c: ID!, $r: ID!) { markChatRead(chatId: $c, lastReadId: $r) { id unread } }", { c: bobChat.id, r: page1.edges[1].node.id }, tokens.bob)).markChatRead;
    expect(read).toEqual({ id: bobChat.id, unread: 1 });
    expect(await server.services.db.chatMessageRef.count({ where: { chatId: bobChat.id, unread: true } })).toBe(1);
    const one = (await ok("mutation($c: ID!, $m: ID!) { markChatMessageRead(chatId: $c, messageId: $m) { id unread } }", { c: bobChat.id, m: page1.edges[0].node.id }, tokens.bob)).markChatMessageRead;
    expect(one).toEqual({ id: page1.edges[0].node.id, unread: false });
    expect(await server.services.db.chatMessageRef.count({ where: { chatId: bobChat.id, unread: true } })).toBe(0);
  });

  test("the same refusals and guards as REST", async () => {
    await server.services.db.account.update({ where: { id: ids.dan }, data: { acceptsChatMessages: false } });
    const chat = await openChat("cat", "dan");
    const refused = await gql("mutation($c: ID!) { sendChatMessage(chatId: $c, content: \"hi\") { id } }", { c: chat.id }, tokens.cat);
    expect(refused.errors[0]).toMatchObject({ message: "recipient does not accept chat messages", extensions: { code: "UNPROCESSABLE" } });
    const empty = await gql("mutation($c: ID!) { sendChatMessage(chatId: $c) { id } }", { c: chat.id }, tokens.cat);
    expect(empty.errors[0]).toMatchObject({ message: "no_content", extensions: { code: "INVALID" } });
    const notMine = await gql("query($id: ID!) { chat(id: $id) { id } }", { id: chat.id }, tokens.ann);
    expect(notMine.errors[0]).toMatchObject({ message: "Record not found", extensions: { code: "NOT_FOUND" } });
    const anonymous = await gql("{ chats { edges { node { id } } } }", {}, null);
    expect(anonymous.errors[0].message).toMatch(/not authorized/i);
  });

  test("chatMessageReceived delivers the viewer's chat with the new message over graphql-ws, and nobody else's", async () => {
    const annBob = await openChat("ann", "bob");
    const catAnn = await openChat("cat", "ann");
    await send("bob", (await openChat("bob", "ann")).id, "warm-up"); // bob's side exists from the first test
    const client = createClient({
      url: server.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      lazy: true,
      connectionParams: { authorization: `Bearer ${tokens.bob}` },
    });
    const received: any[] = [];
    let stop = () => {};
    const got = new Promise<void>((resolve, reject) => {
      stop = client.subscribe<any>(
        { query: "subscription { chatMessageReceived { id unread account { nickname } lastMessage { content accountId } } }" },
        {
          next: (msg) => {
            if (msg.errors) return reject(new Error(JSON.stringify(msg.errors)));
            received.push(msg.data.chatMessageReceived);
            if (received.some((c) => c.lastMessage.content.startsWith("for bob"))) resolve();
          },
          error: reject,
          complete: () => {},
        },
      );
    });
    // the subscription is registered asynchronously: keep posting until one arrives. Messages in chats
    // bob is not part of are posted each round too and must never reach him.
    let arrived = false;
    void got.then(() => (arrived = true));
    for (let round = 0; round < 50 && !arrived; round++) {
      await send("cat", catAnn.id, `not for bob ${round}`);
      await send("ann", annBob.id, `for bob ${round}`);
      await Promise.race([got, new Promise((r) => setTimeout(r, 200))]);
    }
    await got;
    stop();
    await client.dispose();

    const bobChat = await server.services.db.chat.findUniqueOrThrow({ where: { accountId_recipientId: { accountId: ids.bob, recipientId: ids.ann } } });
    expect(received.length).toBeGreaterThan(0);
    for (const event of received) {
      expect(event).toMatchObject({ id: bobChat.id, account: { nickname: "ann" }, lastMessage: { accountId: ids.ann } });
      expect(event.lastMessage.content).toMatch(/^for bob \d+$/);
      expect(event.unread).toBeGreaterThan(0);
    }
  });

  test("chatMessageReceived refuses anonymous subscribers", async () => {
    const client = createClient({ url: server.url.replace("http", "ws") + "/graphql", webSocketImpl: WebSocket, lazy: true });
    const outcome = await new Promise<any>((resolve) => {
      client.subscribe({ query: "subscription { chatMessageReceived { id } }" }, { next: (msg) => resolve(msg), error: (e) => resolve({ error: e }), complete: () => resolve({ complete: true }) });
    });
    await client.dispose();
    expect(outcome).toMatchObject({ errors: [{ message: "Invalid credentials.", path: ["chatMessageReceived"] }] });
  });
});
