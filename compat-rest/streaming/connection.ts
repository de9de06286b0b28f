// One streaming WebSocket: its viewer, its subscriptions (the query's stream and the multiplexed
// `subscribe` / `unsubscribe` messages) and the limits that keep one client from costing the server
// more than its share: a subscription cap, heartbeats, and disconnection instead of buffering for a
// client that does not read.
import WebSocket from "ws";
import { authenticate } from "../../src/domain/auth/authenticate.ts";
import { credentialWatch, REVOKED_CLOSE } from "../../src/domain/auth/credential-watch.ts";
import { makeCtx, type Services, type Viewer } from "../../src/domain/context.ts";
import type { Delivery, EventScope, StreamListener } from "../../src/domain/streams/hub.ts";
import { authorizeStream, parseStream, unknownStreamReason, type StreamRefusal, type StreamSpec } from "../../src/domain/streams/specs.ts";
import { errorFrame, renderEnvelope, respondEnvelope } from "./render.ts";

export interface StreamingLimits {
  /** subscriptions per connection; more are refused with an error response */
  maxSubscriptions: number;
  /** ping period; a peer that has not answered the previous ping by the next one is dropped */
  heartbeatMs: number;
  /** bytes queued for a client that is not reading; past this it is disconnected (1013) */
  maxBufferedBytes: number;
  /** largest client message accepted (subscribe, unsubscribe and authenticate are tiny) */
  maxMessageBytes: number;
  /** client messages waiting to be handled; a client sending faster than that is disconnected (1008) */
  maxPendingMessages: number;
  /** how long shutdown waits for clients to acknowledge the close before cutting them off */
  closeGraceMs: number;
}

/** Constants, as the reference servers hard-code theirs (Pleroma pings every 30 s). */
export const STREAMING_LIMITS: StreamingLimits = {
  maxSubscriptions: 50,
  heartbeatMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
  maxMessageBytes: 16 * 1024,
  maxPendingMessages: 100,
  closeGraceMs: 2_000,
};

export class Connection implements StreamListener {
  private readonly subs = new Map<string, StreamSpec>();
  /** client messages are handled one at a time, in order */
  private inbox: Promise<void> = Promise.resolve();
  private pending = 0;
  private alive = true;
  private gone = false;
  private unwatch: () => void = () => {};

  constructor(
    private readonly ws: WebSocket,
    public viewer: Viewer,
    private readonly services: Services,
    private readonly limits: StreamingLimits,
    private readonly onGone: (c: Connection) => void,
    /** a multiplexed `subscribe` took effect (the hub hands it what it missed while being authorized) */
    private readonly onSubscribed: (c: Connection, spec: StreamSpec) => void = () => {},
  ) {
    ws.on("message", (data, isBinary) => {
      this.alive = true;
      if (isBinary || this.gone) return;
      if (++this.pending > limits.maxPendingMessages) {
        this.forget();
        ws.close(1008, "Too many messages");
        return;
      }
      this.inbox = this.inbox
        .then(() => this.onMessage(String(data)))
        .catch((error) => console.error("streaming message failed:", error))
        .finally(() => this.pending--);
    });
    ws.on("pong", () => (this.alive = true));
    ws.on("close", () => this.forget());
    ws.on("error", () => this.forget());
  }

  get streams(): Iterable<StreamSpec> {
    return this.subs.values();
  }

  /** A frame composed before the connection was accepted (the query's stream refused: `refusalFrame`). */
  sendFrame(frame: string) {
    this.send(frame);
  }

  /** The stream named in the connection's query, already authorized. */
  subscribeInitially(spec: StreamSpec) {
    this.subs.set(spec.key, spec);
  }

  async deliver(d: Delivery, scope: EventScope): Promise<void> {
    if (this.gone) return;
    this.send(await renderEnvelope(d, this.viewer, scope));
  }

  /**
   * Closes the connection (REVOKED_CLOSE) once its viewer's credentials stop holding: a revoked token, a
   * deactivated account… (src/domain/auth/credential-watch.ts). `since`: when they were read.
   */
  watchCredentials(since: number) {
    this.unwatch();
    this.unwatch = credentialWatch(this.services).watch(this.viewer, () => this.revoke(), since);
  }

  private revoke() {
    if (this.gone) return;
    this.forget();
    this.ws.close(REVOKED_CLOSE.code, REVOKED_CLOSE.reason);
  }

  /** Called every heartbeat period. */
  heartbeat() {
    if (this.gone) return;
    if (!this.alive) {
      this.forget();
      this.ws.terminate();
      return;
    }
    this.alive = false;
    this.ws.ping();
  }

  /** Server shutdown: a close frame with the reason, then the cut after a grace period. */
  async shutdown(): Promise<void> {
    const ws = this.ws;
    this.forget();
    if (ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, this.limits.closeGraceMs);
      ws.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1001, "Server shutting down");
    });
  }

  private send(text: string | Buffer) {
    if (this.gone || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes) {
      // the client is not reading: stop queueing for it (ws cuts the socket if the close is not answered)
      this.forget();
      this.ws.close(1013, "Too slow: messages are not being read");
      return;
    }
    this.ws.send(text, { binary: false });
  }

  private respond(type: string, result: "success" | "ignored" | "error", error?: string) {
    this.send(respondEnvelope(this.services.settings.namespace, type, result, error));
  }

  private forget() {
    if (this.gone) return;
    this.gone = true;
    this.subs.clear();
    this.unwatch();
    this.onGone(this);
  }

  /** The family's client events; anything else is ignored, as the family does. */
  private async onMessage(raw: string) {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    const ns = this.services.settings.namespace;
    const type = message.type;
    if (type === "subscribe" || type === "unsubscribe") {
      const spec = parseStream(ns, message);
      if (!spec) {
        // the reference server's frame, then the family's answer (each kind of client reads its own)
        if (type === "subscribe") this.send(errorFrame(unknownStreamReason(message), 400));
        return this.respond(type, "error", "bad_topic");
      }
      if (type === "unsubscribe") return this.respond(type, this.subs.delete(spec.key) ? "success" : "ignored");
      if (this.subs.has(spec.key)) return this.respond(type, "ignored");
      if (this.subs.size >= this.limits.maxSubscriptions) return this.respond(type, "error", "too_many_subscriptions");
      const refusal = await authorizeStream(makeCtx(this.services, this.viewer), spec);
      if (refusal) {
        this.send(refusalFrame(refusal, this.viewer));
        return this.respond(type, "error", refusal);
      }
      if (this.gone) return;
      this.subs.set(spec.key, spec);
      this.onSubscribed(this, spec);
      return this.respond(type, "success");
    }
    if (type === `${ns}:authenticate`) {
      if (this.viewer.account) return this.respond(type, "error", "already_authenticated");
      const token = typeof message.token === "string" ? message.token : "";
      const since = Date.now();
      try {
        if (!token) throw new Error("no token");
        this.viewer = await authenticate(makeCtx(this.services), { bearer: token });
      } catch {
        return this.respond(type, "error", "unauthorized");
      }
      if (this.gone) return;
      this.watchCredentials(since);
      return this.respond(type, "success");
    }
  }
}

/** The reference server's error frame for a stream the viewer may not read. */
export function refusalFrame(refusal: StreamRefusal, viewer: Viewer): string {
  if (refusal === "bad_topic") return errorFrame("Not authorized to stream this list", 401);
  return errorFrame(viewer.account ? "Access token does not have the required scopes" : "Missing access token", 401);
}
