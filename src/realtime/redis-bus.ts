// The bus's event target over Redis pub/sub (used when REDIS_URL is set), so an event published in one
// server process reaches the subscribers of every process of the instance. The maintained
// @graphql-yoga/redis-event-target does the work; this file adds what it leaves to us: a channel prefix
// per instance, logged (not crashing) connection failures, and closing the two connections.
//
// A process's own publish goes to Redis like any other and comes back once on its subscriber
// connection, so local subscribers see each event exactly once.
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { Redis } from "ioredis";
import type { Settings } from "../config/env.ts";

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
  const url = settings.databaseUrl;
  let database: string;
  if (url.startsWith("pglite:")) {
    const dir = url.slice("pglite:".length);
    database = dir.startsWith("memory:") ? `memory-${process.pid}-${Math.random().toString(36).slice(2, 10)}` : dir;
  } else {
    // the database name, not the whole URL: processes may reach the same database through different hosts
    database = decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";
  }
  return `ext-bus:${settings.domain}:${database}:`;
}

export function createRedisTopicTarget(options: RedisEventTargetOptions): { target: TopicEventTarget; close(): Promise<void> } {
  const log = options.log ?? ((message: string) => console.error(`[bus] ${message}`));
  // two connections: one in subscriber mode cannot publish
  const publishClient = new Redis(options.url);
  const subscribeClient = new Redis(options.url);
  for (const client of [publishClient, subscribeClient]) {
    client.on("error", (error: Error) => log(`redis: ${error.message}`));
    logRejections(client, log);
  }
  const inner = createRedisEventTarget({ publishClient, subscribeClient });
  const channel = (topic: string) => options.prefix + topic;

  const target: TopicEventTarget = {
    // after close() the connections are gone: subscriptions ending during shutdown need no UNSUBSCRIBE
    addEventListener: (topic, listener) => void (closed || inner.addEventListener(channel(topic), listener as never)),
    removeEventListener: (topic, listener) => void (closed || inner.removeEventListener(channel(topic), listener as never)),
    dispatchEvent(event) {
      if (closed) return false;
      return inner.dispatchEvent(new CustomEvent(channel(event.type), { detail: (event as CustomEvent).detail }));
    },
  };

  let closed = false;
  return {
    target,
    async close() {
      if (closed) return;
      closed = true;
      // quit lets pending publishes go out first; when Redis is unreachable it fails and we just drop the socket
      await Promise.all([publishClient, subscribeClient].map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

/**
 * The event target fires publish/subscribe/unsubscribe without awaiting them; a rejection (Redis down past
 * the retry limit, or a command after close) would be an unhandled rejection that ends the process.
 */
function logRejections(client: Redis, log: (message: string) => void) {
  for (const method of ["publish", "subscribe", "unsubscribe"] as const) {
    const original = (client[method] as (...args: unknown[]) => Promise<unknown>).bind(client);
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) =>
      original(...args).catch((error: Error) => log(`redis ${method}: ${error.message}`));
  }
}
