// The streaming API's limits: a client that stops reading is disconnected (1013) instead of growing
// the server's buffers, a peer that stops answering pings is dropped, and shutdown closes every
// socket with 1001 and a reason.
import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createStreamingServer, STREAMING_LIMITS } from "../../compat-rest/streaming/index.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { openStream, StreamClient } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

const pause = (c: StreamClient) => (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
const resume = (c: StreamClient) => (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
const tick = () => new Promise((r) => setImmediate(r));

describe.each(suiteKinds(import.meta.url))("streaming limits (%s)", (kind) => {
  let server: TestServer;
  let bob: { id: string; token: string };

  beforeAll(async () => {
    server = await startTestServer(kind);
    bob = { id: (await server.createUser("bob")).id, token: "" };
    bob.token = (await passwordToken(server, "bob")).access_token;
  });
  afterAll(() => server?.close());

  test("a client that does not read is disconnected with 1013 once its backlog passes the limit", async () => {
    const hub = streamHub(server.services);
    const client = await openStream(server, `/api/v1/streaming?stream=user&access_token=${bob.token}`);
    const listening = hub.stats().listeners;
    pause(client);
    // large events for bob's user stream, published until the server gives up on him (kernel buffers absorb the first megabytes)
    const side = (id: string) => ({ id, follower_count: 0, following_count: 0 });
    const update = { state: "follow_accept" as const, follower: side(bob.id), following: side("x".repeat(8_000)) };
    let published = 0;
    while (hub.stats().listeners === listening && published < 20_000) {
      for (let i = 0; i < 100; i++) server.services.bus.publish("follow_relationships_update", update);
      published += 100;
      await tick();
    }
    expect(hub.stats().listeners).toBe(listening - 1);
    resume(client);
    expect(await client.closed).toEqual({ code: 1013, reason: "Too slow: messages are not being read" });
    // what was published after the cut was never queued for it
    expect(client.messages.length).toBeLessThan(published);
  });

  test("a peer that stops answering pings is dropped", async () => {
    const httpServer = http.createServer();
    const streaming = createStreamingServer(server.services, { ...STREAMING_LIMITS, heartbeatMs: 50 });
    httpServer.on("upgrade", (req, socket, head) => streaming.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r));
    const { port } = httpServer.address() as AddressInfo;
    const client = new StreamClient(new WebSocket(`ws://127.0.0.1:${port}/api/v1/streaming?stream=public`));
    await new Promise((r) => client.ws.once("open", r));
    expect(streaming.connectionCount()).toBe(1);
    // an answering peer stays through several heartbeats
    let pongs = 0;
    client.ws.on("ping", () => pongs++);
    await waitFor(() => pongs >= 3, "three heartbeats answered", { intervalMs: 10 });
    expect(streaming.connectionCount()).toBe(1);
    pause(client); // a dead peer: no pong any more
    await waitFor(() => streaming.connectionCount() === 0, "the silent peer to be dropped", { intervalMs: 10 });
    resume(client);
    expect((await client.closed).code).toBe(1006); // cut, not closed
    await streaming.close();
    await new Promise((r) => httpServer.close(r));
  });

  test("shutdown closes every socket with 1001 and a reason", async () => {
    const other = await startTestServer(kind);
    try {
      const user = await other.createUser("carol");
      const token = (await passwordToken(other, "carol")).access_token;
      const anonymous = await openStream(other, "/api/v1/streaming?stream=public");
      const signedIn = await openStream(other, "/api/v1/streaming", { protocol: token });
      expect(user.id).toBeTruthy();
      await other.close();
      expect(await anonymous.closed).toEqual({ code: 1001, reason: "Server shutting down" });
      expect(await signedIn.closed).toEqual({ code: 1001, reason: "Server shutting down" });
    } finally {
      await other.close();
    }
  });
});
