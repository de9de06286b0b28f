// The reference streaming API: WebSocket upgrades at /api/v1/streaming (also with a trailing slash,
// and with the stream as path segments: /api/v1/streaming/public/local). The token comes from
// `access_token`, the Authorization header or Sec-WebSocket-Protocol (echoed back); the stream from
// `stream` (+ `tag`, `list`, `instance`), else the connection starts empty and the client subscribes
// with messages. Credentials are refused before the upgrade (401 for a bad token or a stream that needs
// one, as the family and the reference server do); a stream that does not exist (or someone else's list)
// is accepted and answered with the reference server's error frame, `{"error", "status"}`, as its
// streaming server does for the query form and a multiplexed `subscribe` alike.
import type { IncomingMessage } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { authenticate } from "../../src/domain/auth/authenticate.ts";
import { anonymous, makeCtx, type Services, type Viewer } from "../../src/domain/context.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { authorizeStream, parseStream, unknownStreamReason, type StreamSpec } from "../../src/domain/streams/specs.ts";
import { Connection, refusalFrame, STREAMING_LIMITS, type StreamingLimits } from "./connection.ts";
import { errorFrame } from "./render.ts";

export const STREAMING_PATH = "/api/v1/streaming";

export interface StreamingServer {
  /** whether an upgrade to this path is ours */
  handles(pathname: string): boolean;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** closes every socket with 1001 and a reason (the composition root then closes the hub) */
  close(): Promise<void>;
  /** open connections (tests and operators) */
  connectionCount(): number;
}

function refuse(socket: Duplex, status: number, error: string) {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ error });
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The token of an upgrade request: `access_token`, then `Authorization: Bearer`, then the first subprotocol. */
function tokenOf(req: IncomingMessage, query: URLSearchParams): string | undefined {
  const fromQuery = query.get("access_token");
  if (fromQuery) return fromQuery;
  const auth = req.headers.authorization ?? "";
  if (auth.toLowerCase().startsWith("bearer ") && auth.slice(7).trim()) return auth.slice(7).trim();
  const protocol = req.headers["sec-websocket-protocol"]?.split(",")[0]?.trim();
  return protocol || undefined;
}

export function createStreamingServer(services: Services, limits: StreamingLimits = STREAMING_LIMITS): StreamingServer {
  const ns = services.settings.namespace;
  const hub = streamHub(services);
  // no per-message compression: its buffers would cost far more per connection than the messages
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload: limits.maxMessageBytes });
  const connections = new Set<Connection>();
  const removers = new Map<Connection, () => void>();
  let closed = false;
  const heartbeat = setInterval(() => {
    for (const c of connections) c.heartbeat();
  }, limits.heartbeatMs);
  heartbeat.unref();

  // `arrived`: when the upgrade request came in. Events published from then on reach the connection even
  // when the hub handled them while the token and the stream were being checked (hub.add's `since`), and
  // a stream subscribed later by message gets those of its kind published since then too.
  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer, viewer: Viewer, spec: StreamSpec | null, arrived: number, frame?: string) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new Connection(
        ws,
        viewer,
        services,
        limits,
        (c) => {
          connections.delete(c);
          removers.get(c)?.();
          removers.delete(c);
        },
        (c, subscribed) => hub.subscribed(c, subscribed.key, arrived),
      );
      if (spec) connection.subscribeInitially(spec);
      if (closed) return void connection.shutdown();
      if (frame) connection.sendFrame(frame);
      connections.add(connection);
      removers.set(connection, hub.add(connection, arrived));
      connection.watchCredentials(arrived);
    });
  };

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const arrived = Date.now();
    const url = new URL(req.url ?? "/", "http://localhost");
    const query = url.searchParams;
    const fromPath = url.pathname.slice(STREAMING_PATH.length).split("/").filter(Boolean).join(":");
    const stream = query.get("stream") || fromPath;
    const token = tokenOf(req, query);
    let viewer: Viewer = anonymous;
    if (token) {
      try {
        viewer = await authenticate(makeCtx(services), { bearer: token });
      } catch (error) {
        if (error instanceof DomainError) return refuse(socket, 401, "Invalid credentials.");
        throw error;
      }
    }
    let spec: StreamSpec | null = null;
    let frame: string | undefined;
    if (stream) {
      const params = { stream, tag: query.get("tag") ?? undefined, list: query.get("list") ?? undefined, instance: query.get("instance") ?? undefined };
      spec = parseStream(ns, params);
      if (!spec) frame = errorFrame(unknownStreamReason(params), 400);
      const refusal = spec && (await authorizeStream(makeCtx(services, viewer), spec));
      if (refusal === "unauthorized") return refuse(socket, 401, viewer.account ? "Insufficient permissions." : "Missing access token");
      if (refusal) {
        frame = refusalFrame(refusal, viewer);
        spec = null;
      }
    }
    if (closed) return refuse(socket, 503, "Server shutting down");
    accept(req, socket, head, viewer, spec, arrived, frame);
  }

  return {
    handles: (pathname) => pathname === STREAMING_PATH || pathname.startsWith(`${STREAMING_PATH}/`),
    handleUpgrade(req, socket, head) {
      socket.on("error", () => socket.destroy());
      upgrade(req, socket, head).catch((error) => {
        console.error("streaming upgrade failed:", error);
        refuse(socket, 500, "Internal server error");
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      await Promise.all([...connections].map((c) => c.shutdown()));
      wss.close();
    },
    connectionCount: () => connections.size,
  };
}

export { STREAMING_LIMITS, type StreamingLimits } from "./connection.ts";
