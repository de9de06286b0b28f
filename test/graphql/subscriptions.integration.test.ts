// GraphQL subscriptions over graphql-ws, fed by the streaming API's engine: the home timeline gets a
// followed account's post and not a stranger's private one, the public timeline its public posts,
// notifications and follow-relationship updates arrive, and user streams need credentials.
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitForListeners } from "../streaming/helpers.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL subscriptions (%s)", (kind) => {
  let server: TestServer;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const clients: Client[] = [];

  const as = (who: string, path: string, json: unknown) => server.fetch(path, { json, headers: { authorization: `Bearer ${token[who]}` } });
  const post = async (who: string, status: string, extra: Record<string, unknown> = {}) => {
    const res = await as(who, "/api/v1/statuses", { status, ...extra });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string };
  };
  const connect = (who?: string) => {
    const client = createClient({
      url: server.url.replace("http", "ws") + "/graphql",
      webSocketImpl: WebSocket,
      lazy: true,
      connectionParams: who ? { authorization: `Bearer ${token[who]}` } : {},
    });
    clients.push(client);
    return client;
  };

  /** Subscribes and collects every event; `ready` resolves once the hub has registered the subscription. */
  function collect<T>(client: Client, query: string) {
    const events: T[] = [];
    const errors: unknown[] = [];
    const waiters: { test: (e: T) => boolean; resolve: (e: T) => void }[] = [];
    const before = streamHub(server.services).stats().listeners;
    client.subscribe<T>(
      { query },
      {
        next: (msg) => {
          if (msg.errors) return void errors.push(msg.errors);
          const event = msg.data as T;
          events.push(event);
          for (const w of waiters.splice(0)) if (w.test(event)) w.resolve(event);
          else waiters.push(w);
        },
        error: (e) => void errors.push(e),
        complete: () => {},
      },
    );
    return {
      events,
      errors,
      ready: () => waitForListeners(server, before + 1),
      next: (test: (e: T) => boolean) => new Promise<T>((resolve) => (events.find(test) ? resolve(events.find(test)!) : waiters.push({ test, resolve }))),
    };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const nick of ["ana", "ben", "cy"]) {
      id[nick] = (await server.createUser(nick)).id;
      token[nick] = (await passwordToken(server, nick)).access_token;
    }
    expect((await as("ana", `/api/v1/accounts/${id.ben}/follow`, {})).status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await server?.close();
  });

  test("homeTimelineUpdated: a followed account's post arrives, a stranger's private one does not", async () => {
    const home = collect<{ homeTimelineUpdated: { id: string; content: string; visibility: string; account: { nickname: string } } }>(
      connect("ana"),
      "subscription { homeTimelineUpdated { id content visibility account { nickname } } }",
    );
    await home.ready();
    const hidden = await post("cy", "stranger's private post", { visibility: "private" });
    const shown = await post("ben", "followed account's post");
    const got = await home.next((e) => e.homeTimelineUpdated.id === shown.id);
    expect(got.homeTimelineUpdated).toMatchObject({ content: "followed account's post", visibility: "public", account: { nickname: "ben" } });
    // events arrive in order: the earlier private post would have come first
    expect(home.events.map((e) => e.homeTimelineUpdated.id)).not.toContain(hidden.id);
    expect(home.errors).toEqual([]);
  });

  test("publicTimelineUpdated(local) and notificationReceived", async () => {
    const pub = collect<{ publicTimelineUpdated: { id: string } }>(connect(), "subscription { publicTimelineUpdated(local: true) { id } }");
    const notes = collect<{ notificationReceived: { type: string; account: { nickname: string }; status: { id: string } | null } }>(
      connect("ana"),
      "subscription { notificationReceived { type account { nickname } status { id } } }",
    );
    await pub.ready();
    await notes.ready();
    const unlisted = await post("cy", "unlisted post", { visibility: "unlisted" });
    const mention = await post("cy", "@ana hello there");
    expect((await pub.next((e) => e.publicTimelineUpdated.id === mention.id)).publicTimelineUpdated.id).toBe(mention.id);
    expect(pub.events.map((e) => e.publicTimelineUpdated.id)).not.toContain(unlisted.id);
    expect((await notes.next(() => true)).notificationReceived).toEqual({ type: "mention", account: { nickname: "cy" }, status: { id: mention.id } });
  });

  test("followRelationshipsUpdated tells both sides", async () => {
    const forBen = collect<{ followRelationshipsUpdated: { state: string; follower: { id: string; followingCount: number }; following: { id: string } } }>(
      connect("ben"),
      "subscription { followRelationshipsUpdated { state follower { id followingCount } following { id } } }",
    );
    await forBen.ready();
    expect((await as("cy", `/api/v1/accounts/${id.ben}/follow`, {})).status).toBe(200);
    const got = await forBen.next(() => true);
    expect(got.followRelationshipsUpdated).toEqual({ state: "follow_accept", follower: { id: id.cy, followingCount: 1 }, following: { id: id.ben } });
  });

  test("the home timeline needs a signed-in subscriber", async () => {
    const anonymous = connect();
    const result = await new Promise<unknown>((resolve) => {
      anonymous.subscribe({ query: "subscription { homeTimelineUpdated { id } }" }, { next: (msg) => resolve(msg), error: (e) => resolve({ error: e }), complete: () => resolve("complete") });
    });
    expect(JSON.stringify(result)).toMatch(/not authorized|Invalid credentials/i);
  });
});
