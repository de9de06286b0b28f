// A streaming-API client for tests: opens a WebSocket, records every message, and waits for the ones a
// test expects. Absence is checked without timers: the hub delivers events to a connection in the
// order they were published, so once a later "sentinel" event has arrived, an earlier one that did
// not arrive never will.
import WebSocket from "ws";
import { streamHub } from "../../src/domain/streams/hub.ts";
import type { TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

export interface StreamMessage {
  stream: string[];
  event: string;
  /** the payload as sent (a JSON string, a bare id, or absent) */
  raw: string | undefined;
  /** the payload parsed when it is JSON */
  payload: any;
  /** the reference server's error frame (`{"error", "status"}`, no event) */
  error?: string;
  status?: number;
}

export class StreamClient {
  readonly messages: StreamMessage[] = [];
  private waiters: { test: (m: StreamMessage) => boolean; resolve: (m: StreamMessage) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const m = JSON.parse(String(data));
      let payload: unknown = m.payload;
      try {
        payload = typeof m.payload === "string" ? JSON.parse(m.payload) : m.payload;
      } catch {
        /* a bare id */
      }
      const message: StreamMessage = { stream: m.stream ?? [], event: m.event, raw: m.payload, payload, error: m.error, status: m.status };
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => (w.test(message) ? (w.resolve(message), false) : true));
    });
    this.closed = new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  }

  /** The first message (already received or to come) that passes `test`. */
  next(test: (m: StreamMessage) => boolean): Promise<StreamMessage> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      // fails well before the test's own timeout, listing what did arrive
      const timer = setTimeout(() => reject(new Error(`expected message never came; got: ${JSON.stringify(this.messages.map((m) => [m.event, m.stream, m.raw?.slice(0, 120)]))}`)), 15_000);
      this.waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  /** An `update` (or another status event) whose status content contains `text`. */
  status(text: string, event = "update", stream?: string): Promise<StreamMessage> {
    return this.next((m) => m.event === event && statusText(m.payload).includes(text) && (!stream || m.stream[0] === stream));
  }

  /** The next error frame: `{error, status}`. */
  async errorFrame(): Promise<{ error?: string; status?: number }> {
    const { error, status } = await this.next((m) => m.error !== undefined);
    return { error, status };
  }

  has(test: (m: StreamMessage) => boolean): boolean {
    return this.messages.some(test);
  }

  hasStatus(text: string): boolean {
    return this.has((m) => (m.event === "update" || m.event === "status.update") && statusText(m.payload).includes(text));
  }

  send(message: unknown) {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a subscribe/unsubscribe and waits for the server's `<ns>:respond` to it. */
  async request(message: Record<string, unknown>, ns = "ext"): Promise<{ type: string; result: string; error?: string }> {
    const before = this.messages.filter((m) => m.event === `${ns}:respond`).length;
    this.send(message);
    const reply = await this.next((m) => m.event === `${ns}:respond` && this.messages.filter((x) => x.event === `${ns}:respond`).indexOf(m) >= before);
    return reply.payload;
  }

  close() {
    this.ws.close();
  }
}

/** a status's text without markup (hashtags and mentions are links) */
const statusText = (s: any): string => (s && typeof s === "object" ? `${s.content ?? ""} ${s.reblog?.content ?? ""}`.replace(/<[^>]*>/g, "") : "");

export const wsUrl = (server: Pick<TestServer, "url">, path: string) => server.url.replace(/^http/, "ws") + path;

/** Opens a streaming connection; rejects with the HTTP status when the server refuses the upgrade. */
export function openStream(server: Pick<TestServer, "url">, path: string, opts: { protocol?: string; headers?: Record<string, string> } = {}): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(server, path), opts.protocol ? [opts.protocol] : [], { headers: opts.headers });
    const client = new StreamClient(ws);
    ws.once("open", () => resolve(client));
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => reject(Object.assign(new Error(`refused: ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once("error", (e) => reject(e));
  });
}

/** Waits until the process's stream hub counts `n` listeners (GraphQL subscriptions register asynchronously). */
export async function waitForListeners(server: TestServer, n: number) {
  const hub = streamHub(server.services);
  await waitFor(() => hub.stats().listeners >= n, () => `${n} stream hub listeners (${hub.stats().listeners} now)`, { timeoutMs: 15_000, intervalMs: 10 });
}

/** A graphql-ws (graphql-transport-ws) client on a raw socket, so that the upgrade can carry a cookie. */
export class GqlSocket {
  readonly events: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      this.events.push(JSON.parse(String(data)));
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  }
  static async open(baseUrl: string, headers: Record<string, string>, connectionParams: Record<string, string> = {}) {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", { headers });
    const socket = new GqlSocket(ws);
    await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
    ws.send(JSON.stringify({ type: "connection_init", payload: connectionParams }));
    await socket.next((m) => m.type === "connection_ack");
    return socket;
  }
  next(test: (m: any) => boolean): Promise<any> {
    const found = this.events.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push(() => void this.next(test).then(resolve)));
  }
  subscribe(query: string) {
    this.ws.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query } }));
  }
  /** the data events of the subscription */
  data(): unknown[] {
    return this.events.filter((m: any) => m.type === "next").map((m: any) => m.payload);
  }
}
