// The streamEvents subscription over graphql-ws carries every event the streaming API sends (issue 18,
// criterion 5): statuses posted, edited and deleted, notifications, follow-relationship updates, filter
// changes, announcements published and withdrawn on the user stream, conversations on the direct stream,
// chat updates; and it refuses a user stream to an anonymous subscriber, as the streaming API does.
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitForListeners } from "../streaming/helpers.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { STREAM_EVENT_NAMES } from "../../src/graphql/subscriptions.ts";

interface Ev {
  event: string;
  stream: string[];
  status: { id: string; content: string } | null;
  deletedStatusId: string | null;
  notification: { type: string } | null;
  conversation: { id: string } | null;
  announcement: { id: string; rawContent: string } | null;
  deletedAnnouncementId: string | null;
  followRelationshipsUpdate: { state: string } | null;
  chat: { id: string } | null;
}

const FIELDS = "event stream status { id content } deletedStatusId notification { type } conversation { id } announcement { id rawContent } deletedAnnouncementId followRelationshipsUpdate { state } chat { id }";

describe.each(suiteKinds(import.meta.url))("GraphQL streamEvents (%s)", (kind) => {
  let server: TestServer;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const clients: Client[] = [];
  const call = async (who: string, method: string, path: string, json: unknown = {}) => {
    const res = await server.fetch(path, { method, ...(method === "GET" ? {} : { json }), headers: { authorization: `Bearer ${token[who]}` } });
    expect(res.status, `${method} ${path}`).toBe(200);
    return res.json();
  };

  async function subscribe(who: string | null, args: string) {
    const client = createClient({ url: server.url.replace("http", "ws") + "/graphql", webSocketImpl: WebSocket, lazy: true, connectionParams: who ? { authorization: `Bearer ${token[who]}` } : {} });
    clients.push(client);
    const events: Ev[] = [];
    const errors: unknown[] = [];
    const before = streamHub(server.services).stats().listeners;
    client.subscribe<{ streamEvents: Ev }>(
      { query: `subscription { streamEvents(${args}) { ${FIELDS} } }` },
      { next: (m) => (m.errors ? errors.push(m.errors) : events.push(m.data!.streamEvents)), error: (e) => void errors.push(e), complete: () => {} },
    );
    return {
      events,
      errors,
      ready: () => waitForListeners(server, before + 1),
      next: (test: (e: Ev) => boolean) => expect.poll(() => events.find(test), { timeout: 15_000 }).toBeTruthy().then(() => events.find(test)!),
    };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const nick of ["ana", "ben"]) {
      id[nick] = (await server.createUser(nick, { admin: nick === "ana" })).id;
      token[nick] = (await passwordToken(server, nick)).access_token;
    }
    token.admin = (await passwordToken(server, "ana", "read write follow push admin:read admin:write")).access_token;
    await call("ana", "POST", `/api/v1/accounts/${id.ben}/follow`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await server?.close();
  });

  test("the subscription lists every event of the stream engine", () => {
    expect(STREAM_EVENT_NAMES.sort()).toEqual(
      ["announcement", "announcement.delete", "chat_update", "conversation", "delete", "filters_changed", "follow_relationships_update", "notification", "status.update", "update"].sort(),
    );
  });

  test("the user stream: update, status.update, delete, notification, follow update, filters_changed, announcements, chat_update", async () => {
    const user = await subscribe("ana", 'stream: "user"');
    await user.ready();

    const posted = await call("ben", "POST", "/api/v1/statuses", { status: "first draft" });
    expect((await user.next((e) => e.event === "update" && e.status?.id === posted.id)).stream).toEqual(["user"]);
    await call("ben", "PUT", `/api/v1/statuses/${posted.id}`, { status: "second draft" });
    expect((await user.next((e) => e.event === "status.update")).status).toMatchObject({ id: posted.id, content: expect.stringContaining("second draft") });
    await call("ben", "DELETE", `/api/v1/statuses/${posted.id}`);
    expect((await user.next((e) => e.event === "delete")).deletedStatusId).toBe(posted.id);

    await call("ben", "POST", `/api/v1/accounts/${id.ana}/follow`);
    expect((await user.next((e) => e.event === "notification")).notification).toEqual({ type: "follow" });
    expect((await user.next((e) => e.event === "follow_relationships_update")).followRelationshipsUpdate?.state).toMatch(/^follow_/);

    await call("ana", "POST", "/api/v2/filters", { title: "noise", context: ["home"], keywords_attributes: [{ keyword: "noise" }] });
    await user.next((e) => e.event === "filters_changed");

    const ann = await call("admin", "POST", "/api/v1/ext/admin/announcements", { content: "maintenance tonight" });
    expect((await user.next((e) => e.event === "announcement")).announcement).toEqual({ id: ann.id, rawContent: "maintenance tonight" });
    await call("admin", "DELETE", `/api/v1/ext/admin/announcements/${ann.id}`);
    expect((await user.next((e) => e.event === "announcement.delete")).deletedAnnouncementId).toBe(ann.id);

    const chat = await call("ben", "POST", `/api/v1/ext/chats/by-account-id/${id.ana}`);
    await call("ben", "POST", `/api/v1/ext/chats/${chat.id}/messages`, { content: "hi ana" });
    // each side has its own chat row: ana's is the one her chat list shows
    const anasChat = (await call("ana", "GET", "/api/v2/ext/chats"))[0].id;
    expect((await user.next((e) => e.event === "chat_update")).chat).toEqual({ id: anasChat });
    expect(user.errors).toEqual([]);
  });

  test("the direct stream: conversation; a user stream is refused to an anonymous subscriber", async () => {
    const direct = await subscribe("ana", 'stream: "direct"');
    await direct.ready();
    await call("ben", "POST", "/api/v1/statuses", { status: "@ana just us", visibility: "direct" });
    const ev = await direct.next((e) => e.event === "conversation");
    expect(ev.conversation?.id).toBe((await call("ana", "GET", "/api/v1/conversations"))[0].id);

    const anonymous = await subscribe(null, 'stream: "user"');
    await expect.poll(() => anonymous.errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(JSON.stringify(anonymous.errors)).toMatch(/Invalid credentials/);
  });
});
