// The bus's event target over Redis pub/sub (used when REDIS_URL is set), so an event published in one
// server process reaches the subscribers of every process of the instance. The maintained
// @graphql-yoga/redis-event-target does the work; this file adds what it leaves to us: a channel prefix
// per instance, connection failures logged once per outage (not crashing), and closing the two connections.
//
// A process's own publish goes to Redis like any other and comes back once on its subscriber
// connection, so local subscribers see each event exactly once.
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import type { Redis } from "ioredis";
import { redisClient } from "../net/ioredis.ts";
import { redisFailed, redisReady } from "../net/redis-outage.ts";
import { instanceKey } from "../config/instance-key.ts";
import type { Settings } from "../config/env.ts";
import type { Bus } from "./bus.ts";

export interface RedisEventTargetOptions {
  url: string;
  /** prepended to every topic to form the Redis channel; see channelPrefix */
  prefix: string;
  log?: (message: string) => void;
}

/** The subset of EventTarget that createPubSub uses. */
export interface TopicEventTarget {
  addEventListener(topic: string, listener: EventListenerOrEventListenerObject | null): void;
  removeEventListener(topic: string, listener: EventListenerOrEventListenerObject | null): void;
  dispatchEvent(event: Event): boolean;
}

/**
 * Channels are `<prefix><topic>`. The prefix names the instance: its public domain and its database,
 * so the processes of one instance meet on the same channels while other instances, and parallel
 * test runs, on the same Redis do not hear them. PGlite admits a single process, so an in-memory
 * PGlite gets a prefix of its own.
 */
export function channelPrefix(settings: Pick<Settings, "domain" | "databaseUrl">): string {
  return `ext-bus:${instanceKey(settings)}:`;
}

export function createRedisTopicTarget(options: RedisEventTargetOptions): { target: TopicEventTarget; onGap: Bus["onGap"]; reachable(timeoutMs: number): Promise<boolean>; close(): Promise<void> } {
  const log = options.log ?? ((message: string) => console.error(`[bus] ${message}`));
  // two connections: one in subscriber mode cannot publish. A SUBSCRIBE waits for Redis however long it
  // is away (a rejected one would leave its listener deaf for good); a PUBLISH gives up after ioredis's
  // default retries, so events are dropped rather than piling up during an outage.
  const Client = redisClient();
  const publishClient = new Client(options.url);
  // disableClientInfo: ioredis 5.9 sends CLIENT SETINFO LIB-VER after an asynchronous read of its
  // package.json, and a SUBSCRIBE issued meanwhile (at start-up, under load) puts the connection in
  // subscriber mode first: Redis refuses the SETINFO, ioredis drops the connection and the
  // subscriptions made before "ready" are not restored (seen on Node 24: config_changed went deaf).
  const subscribeClient = new Client(options.url, { maxRetriesPerRequest: null, disableClientInfo: true });
  // an outage is one line, however many reconnection attempts and commands fail (src/net/redis-outage.ts)
  for (const client of [publishClient, subscribeClient]) {
    client.on("error", (error: Error) => redisFailed("event bus", error));
    client.on("ready", redisReady);
    logRejections(client);
  }
  const inner = createRedisEventTarget({ publishClient, subscribeClient });
  const channel = (topic: string) => options.prefix + topic;
  let closed = false;

  // Gaps: while the subscriber connection is down, other processes' events are lost (Redis keeps no
  // backlog), so what the caches keep on the strength of those events must go (bus.ts `onGap`). Down
  // until the first connection; up again once Redis has answered a PING sent after ioredis's own
  // re-SUBSCRIBE (it sends that after "ready", and Redis answers in order), so no event is missed between.
  const gapListeners = new Set<(down: boolean) => void>();
  let down = true;
  let lost = false;
  const gap = (now: boolean) => {
    if (now === down || closed) return;
    down = now;
    if (now) log("redis: connection lost; events of other processes may be missed, caches paused until it is back");
    else if (lost) log("redis: events of other processes arrive again; caches resumed");
    lost ||= now;
    for (const listener of gapListeners) listener(now);
  };
  subscribeClient.on("close", () => gap(true));
  subscribeClient.on("ready", () =>
    setImmediate(() =>
      subscribeClient
        .ping()
        .then(() => subscribeClient.status === "ready" && gap(false))
        .catch(() => {}),
    ),
  );

  const target: TopicEventTarget = {
    // after close() the connections are gone: subscriptions ending during shutdown need no UNSUBSCRIBE
    addEventListener: (topic, listener) => void (closed || inner.addEventListener(channel(topic), listener as never)),
    removeEventListener: (topic, listener) => void (closed || inner.removeEventListener(channel(topic), listener as never)),
    dispatchEvent(event) {
      if (closed) return false;
      return inner.dispatchEvent(new CustomEvent(channel(event.type), { detail: (event as CustomEvent).detail }));
    },
  };

  return {
    target,
    onGap(listener) {
      gapListeners.add(listener);
      if (down) listener(true);
      return () => void gapListeners.delete(listener);
    },
    async reachable(timeoutMs) {
      // not connected: known at once (a PING would wait in ioredis's offline queue for the reconnection)
      if (closed || publishClient.status !== "ready") return false;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const pong = publishClient.ping().then(() => true, () => false);
      return Promise.race([pong, late]).finally(() => clearTimeout(timer));
    },
    async close() {
      if (closed) return;
      closed = true;
      subscribeClient.disconnect(); // closing the socket ends its subscriptions
      // quit lets pending publishes go out first; when Redis is away there is nothing to wait for
      if (publishClient.status === "ready") await publishClient.quit().catch(() => publishClient.disconnect());
      else publishClient.disconnect();
    },
  };
}

/**
 * The event target fires publish/subscribe/unsubscribe without awaiting them; a rejection (Redis down past
 * the retry limit, or a command after close) would be an unhandled rejection that ends the process.
 */
function logRejections(client: Redis) {
  for (const method of ["publish", "subscribe", "unsubscribe"] as const) {
    const original = (client[method] as (...args: unknown[]) => Promise<unknown>).bind(client);
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) =>
      original(...args).catch((error: Error) => redisFailed(`event bus ${method}`, error));
  }
}
