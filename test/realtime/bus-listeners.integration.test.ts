// One listener of the bus cannot deafen the others (src/realtime/pubsub.ts), in-process and over Redis:
// a listener that throws is logged once and every event still reaches the listener beside it; a
// subscriber that stops reading is dropped after MAX_UNREAD unread events (its consumer then learns it
// with SubscriberDropped), while a subscriber of the same topic that reads gets every event.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, test, vi } from "vitest";
import { createBus, type Bus } from "../../src/realtime/bus.ts";
import { isolatingListeners, MAX_UNREAD, SubscriberDropped } from "../../src/realtime/pubsub.ts";
import { createRedisTopicTarget, type TopicEventTarget } from "../../src/realtime/redis-bus.ts";
import { waitFor } from "../support/wait.ts";
import { REDIS_URL, collect, listeners, newRedis } from "./helpers.ts";

vi.setConfig({ testTimeout: 30_000 });

type Mode = "in-process" | "redis";

describe.each(["in-process", "redis"] as Mode[])("bus listeners %s", (mode) => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });
  const prefix = () => `test-listeners-${randomBytes(4).toString("hex")}:`;
  /** a publishing bus and a subscribing one: two processes' over Redis, the same one in-process */
  const buses = (log: (m: string) => void): { publisher: Bus; subscriber: Bus } => {
    if (mode === "in-process") {
      const bus = createBus({ log } as never);
      return { publisher: bus, subscriber: bus };
    }
    const p = prefix();
    const publisher = createBus({ url: REDIS_URL, prefix: p, log });
    const subscriber = createBus({ url: REDIS_URL, prefix: p, log });
    closing.push(() => publisher.close(), () => subscriber.close());
    return { publisher, subscriber };
  };
  const liveOn = async (bus: Bus, topic: string, count: number) => {
    if (mode === "in-process") return;
    const redis = newRedis();
    try {
      await waitFor(async () => (await listeners(redis, `${bus.redisPrefix}${topic}`)) === count, `${count} subscription(s) on ${topic}`, { timeoutMs: 10_000 });
    } finally {
      redis.disconnect();
    }
  };

  test("a listener that throws is logged once; the listener after it gets every event", async () => {
    const logged: string[] = [];
    let target: TopicEventTarget;
    const channelPrefix = prefix();
    if (mode === "in-process") target = isolatingListeners(new EventTarget(), (m) => logged.push(m));
    else {
      const redis = createRedisTopicTarget({ url: REDIS_URL, prefix: channelPrefix });
      closing.push(() => redis.close());
      target = isolatingListeners(redis.target, (m) => logged.push(m));
    }
    const heard: unknown[] = [];
    const thrower = () => {
      throw new Error("listener broke");
    };
    const recorder = (e: Event) => void heard.push((e as CustomEvent).detail);
    target.addEventListener("ping", thrower);
    target.addEventListener("ping", recorder);
    // over Redis the events go out on another connection than the subscription's: publish once it is live
    if (mode === "redis") {
      const redis = newRedis();
      try {
        await waitFor(async () => (await listeners(redis, `${channelPrefix}ping`)) === 1, "the subscription to ping", { timeoutMs: 10_000 });
      } finally {
        redis.disconnect();
      }
    }
    for (let i = 0; i < 5; i++) target.dispatchEvent(new CustomEvent("ping", { detail: { at: String(i) } }));
    await waitFor(() => heard.length === 5, "five events at the recorder", { timeoutMs: 10_000 });
    expect(heard).toEqual([0, 1, 2, 3, 4].map((i) => ({ at: String(i) })));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/a listener of "(test-listeners-\w+:)?ping" failed.*listener broke/s);
    // removing the original listener removes its wrapper
    target.removeEventListener("ping", thrower);
    target.removeEventListener("ping", recorder);
    target.dispatchEvent(new CustomEvent("ping", { detail: { at: "after" } }));
  });

  test(`a subscriber that stops reading is dropped after ${MAX_UNREAD} unread events; one that reads gets them all`, async () => {
    const logged: string[] = [];
    const { publisher, subscriber } = buses((m) => logged.push(m));
    // reads one event, then never again (a GraphQL client that stopped reading)
    const stalled = subscriber.subscribe("ping")[Symbol.asyncIterator]();
    const first = stalled.next();
    const reader = collect(subscriber.subscribe("ping"));
    await liveOn(subscriber, "ping", 1);
    const total = MAX_UNREAD + 200;
    for (let i = 0; i < total; i++) publisher.publish("ping", { at: String(i) });
    await waitFor(() => reader.events.length === total, `${total} events at the reader`, { timeoutMs: 20_000 });
    expect(reader.events.map((e) => e.at)).toEqual([...Array(total).keys()].map(String));
    expect(logged).toEqual([]);

    // the stalled subscriber gets what it had queued, then learns it was dropped
    expect((await first).value).toEqual({ at: "0" });
    let read = 0;
    const ending = await (async () => {
      for (;;) {
        const next = await stalled.next();
        if (next.done) return null;
        read++;
      }
    })().catch((error: unknown) => error);
    expect(ending).toBeInstanceOf(SubscriberDropped);
    expect(read).toBe(MAX_UNREAD);
    await reader.stop();
    await liveOn(subscriber, "ping", 0);
  });
});
