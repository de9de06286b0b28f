// Outside clients of the streaming API: masto.js's streaming client (multiplexed, token in
// Sec-WebSocket-Protocol) and megalodon's Pleroma driver (one stream per connection, token in the
// query, URL from `urls.streaming_api`) each receive an `update` for a new post. megalodon hard-codes
// the family's namespace word, so the server runs with API_NAMESPACE=pleroma as in megalodon.integration.
import net from "node:net";
import { createStreamingAPIClient } from "masto";
import generator from "megalodon";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

// masto declares Node 22+: on Node 20 it needs a global WebSocket and Promise.withResolvers
const g = globalThis as { WebSocket?: unknown };
g.WebSocket ??= WebSocket;
const P = Promise as unknown as { withResolvers?: () => unknown };
P.withResolvers ??= () => {
  let resolve!: (v: unknown) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

describe.each(suiteKinds(import.meta.url))("streaming clients (%s)", (kind) => {
  let server: TestServer;
  let token: string;
  let posterToken: string;

  const post = async (status: string) => {
    const res = await server.fetch("/api/v1/statuses", { json: { status }, headers: { authorization: `Bearer ${posterToken}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string };
  };
  const waitForSubscriptions = (n: number) =>
    waitFor(() => streamHub(server.services).stats().subscriptions >= n, `${n} stream subscriptions`, { intervalMs: 10 });

  beforeAll(async () => {
    // megalodon finds the streaming URL through /api/v1/instance, so the public URL must be the real one
    const port = await freePort();
    server = await startTestServer(kind, { API_NAMESPACE: "pleroma", PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
    await server.createUser("reader");
    await server.createUser("poster");
    token = (await passwordToken(server, "reader")).access_token;
    posterToken = (await passwordToken(server, "poster")).access_token;
  });
  afterAll(() => server?.close());

  test("the instance advertises the streaming URL", async () => {
    const instance = await (await server.fetch("/api/v1/instance")).json();
    expect(instance.urls.streaming_api).toBe(server.url.replace(/^http/, "ws"));
  });

  test("masto's streaming client receives an update on public:local", async () => {
    const instance = await (await server.fetch("/api/v1/instance")).json();
    const streaming = createStreamingAPIClient({ streamingApiUrl: instance.urls.streaming_api, accessToken: token, implementation: WebSocket, retry: false });
    try {
      const before = streamHub(server.services).stats().subscriptions;
      const events = streaming.public.local.subscribe()[Symbol.asyncIterator]();
      const first = events.next();
      await waitForSubscriptions(before + 1);
      const posted = await post("hello masto");
      const { value } = await first;
      expect(value).toMatchObject({ event: "update", stream: ["public:local"], payload: { id: posted.id, content: "hello masto", account: { acct: "poster" } } });
      await events.return?.();
    } finally {
      streaming.close();
    }
  });

  test("masto's streaming client raises the reference server's error frame for an unknown stream", async () => {
    const streaming = createStreamingAPIClient({ streamingApiUrl: server.url.replace(/^http/, "ws"), accessToken: token, implementation: WebSocket, retry: false });
    try {
      // masto names the stream after the property path: `nonsense` is not one the server knows
      const bad = (streaming as unknown as { nonsense: { subscribe(): AsyncIterable<unknown> } }).nonsense.subscribe();
      await expect(bad[Symbol.asyncIterator]().next()).rejects.toMatchObject({ name: "MastoUnexpectedError", message: "Unknown stream type" });
      const hashtag = streaming.hashtag.subscribe({ tag: "" })[Symbol.asyncIterator]();
      await expect(hashtag.next()).rejects.toMatchObject({ message: "Missing tag name parameter" });
    } finally {
      streaming.close();
    }
  });

  test("megalodon's Pleroma driver receives an update on its local stream", async () => {
    const client = generator("pleroma", server.url, token);
    const socket = await client.localStreaming();
    try {
      await new Promise((resolve, reject) => {
        socket.on("connect", resolve);
        socket.on("error", reject);
      });
      const received = new Promise<{ id: string; content: string; account: { acct: string } }>((resolve) => socket.on("update", resolve));
      const posted = await post("hello megalodon");
      const status = await received;
      expect(status).toMatchObject({ id: posted.id, content: "hello megalodon", account: { acct: "poster" } });
    } finally {
      socket.stop();
    }
  });
});
