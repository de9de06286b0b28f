// The bus over Redis (REDIS_URL): events cross bus instances that share a channel prefix, reach each
// subscriber exactly once (a process's own publish included), stay apart under different prefixes, and a
// server started with REDIS_URL publishes through Redis on both databases.
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createBus, type Bus } from "../../src/realtime/bus.ts";
import { channelPrefix } from "../../src/realtime/redis-bus.ts";
import { suiteKinds } from "../support/databases.ts";
import { cast } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { REDIS_URL, collect, gqlSubscribe, listeners, newRedis } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const marker = (events: { at: string }[]) => events.some((e) => e.at === "marker");

describe("the bus over Redis", () => {
  const prefix = `test-bus-${randomBytes(4).toString("hex")}:`;
  const buses: Bus[] = [];
  let redis: Redis;
  const bus = (p = prefix) => {
    const b = createBus({ url: REDIS_URL, prefix: p });
    buses.push(b);
    return b;
  };
  beforeAll(() => void (redis = newRedis()));
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    redis.disconnect();
  });

  test("an event published on one bus reaches the subscribers of both, each exactly once", async () => {
    const a = bus();
    const b = bus();
    expect(a.redisPrefix).toBe(prefix);
    const onA = collect(a.subscribe("ping"));
    const onB = collect(b.subscribe("ping"));
    await waitFor(async () => (await listeners(redis, `${prefix}ping`)) === 2, "both subscriptions", { timeoutMs: 10_000 });

    a.publish("ping", { at: "first" });
    a.publish("ping", { at: "marker" }); // one connection publishes in order: a duplicate of "first" would come before it
    await waitFor(() => marker(onA.events) && marker(onB.events), "the marker on both buses", { timeoutMs: 10_000 });
    expect(onA.events).toEqual([{ at: "first" }, { at: "marker" }]);
    expect(onB.events).toEqual([{ at: "first" }, { at: "marker" }]);

    await onA.stop();
    await onB.stop();
    await waitFor(async () => (await listeners(redis, `${prefix}ping`)) === 0, "unsubscribed", { timeoutMs: 10_000 });
  });

  test("payloads cross as JSON, nested objects intact, on the channel <prefix><topic>", async () => {
    const a = bus();
    const raw = newRedis();
    try {
      const received = new Promise<string>((resolve) => raw.on("message", (_channel, message) => resolve(message)));
      await raw.subscribe(`${prefix}follow_relationships_update`);
      const payload = { state: "follow_accept" as const, follower: { id: "1", follower_count: 2, following_count: 3 }, following: { id: "9", follower_count: 4, following_count: 5 } };
      a.publish("follow_relationships_update", payload);
      expect(JSON.parse(await received)).toEqual(payload);
    } finally {
      raw.disconnect();
    }
  });

  test("buses with different prefixes (other instances on the same Redis) do not hear each other", async () => {
    const mine = bus();
    const other = bus(`test-bus-other-${randomBytes(4).toString("hex")}:`);
    const onMine = collect(mine.subscribe("ping"));
    const onOther = collect(other.subscribe("ping"));
    await waitFor(async () => (await listeners(redis, `${prefix}ping`)) === 1 && (await listeners(redis, `${other.redisPrefix}ping`)) === 1, "subscriptions", { timeoutMs: 10_000 });

    mine.publish("ping", { at: "mine" });
    await waitFor(() => onMine.events.length === 1, "mine's own event", { timeoutMs: 10_000 }); // Redis has fanned it out by now
    other.publish("ping", { at: "marker" });
    await waitFor(() => marker(onOther.events), "the other bus's marker", { timeoutMs: 10_000 });
    expect(onOther.events).toEqual([{ at: "marker" }]);
    expect(onMine.events).toEqual([{ at: "mine" }]);
    await onMine.stop();
    await onOther.stop();
  });

  test("after close() a publish is dropped without an error and the connections are gone", async () => {
    const a = bus();
    const sub = collect(a.subscribe("ping"));
    await waitFor(async () => (await listeners(redis, `${prefix}ping`)) === 1, "subscription", { timeoutMs: 10_000 });
    await a.close();
    expect(() => a.publish("ping", { at: "late" })).not.toThrow();
    await waitFor(async () => (await listeners(redis, `${prefix}ping`)) === 0, "the subscriber connection to go", { timeoutMs: 10_000 });
    await sub.stop();
  });

  test("without Redis the bus stays in the process", async () => {
    const local = createBus();
    expect(local.redisPrefix).toBeUndefined();
    const sub = collect(local.subscribe("ping"));
    await Promise.resolve(); // the iteration has begun
    local.publish("ping", { at: "here" });
    await waitFor(() => sub.events.length === 1, "the local event", { timeoutMs: 5_000 });
    expect(sub.events).toEqual([{ at: "here" }]);
    await sub.stop();
    await local.close();
  });

  test("the channel prefix names the instance: its domain and database name", () => {
    const pg = (host: string) => channelPrefix({ domain: "social.example", databaseUrl: `postgresql://u:p@${host}:5432/social_db?sslmode=disable` });
    expect(pg("db1")).toBe("ext-bus:social.example:social_db:");
    expect(pg("pgbouncer")).toBe(pg("db1")); // processes reaching the same database through another host meet
    expect(channelPrefix({ domain: "other.example", databaseUrl: "postgresql://u@db1/social_db" })).not.toBe(pg("db1"));
    expect(channelPrefix({ domain: "social.example", databaseUrl: "postgresql://u@db1/other_db" })).not.toBe(pg("db1"));
    expect(channelPrefix({ domain: "d", databaseUrl: "pglite:/srv/data/pglite" })).toBe("ext-bus:d:/srv/data/pglite:");
    // in-memory PGlite databases are each their own instance
    expect(channelPrefix({ domain: "d", databaseUrl: "pglite:memory://" })).not.toBe(channelPrefix({ domain: "d", databaseUrl: "pglite:memory://" }));
  });
});

describe.each(suiteKinds(import.meta.url))("a server with REDIS_URL on %s", (kind) => {
  let server: TestServer;
  let redis: Redis;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const fileReport = async (who: string, target: string, comment: string) => {
    const res = await server.fetch("/api/v1/reports", { json: { account_id: id[target], comment }, headers: { authorization: `Bearer ${token[who]}` } });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { REDIS_URL });
    redis = newRedis();
    const people = await cast(server, { ada: { admin: true }, rita: {}, tom: {} });
    Object.assign(id, people.id);
    Object.assign(token, people.token);
  });
  afterAll(async () => {
    await server?.close();
    redis?.disconnect();
  });

  test("its bus publishes on Redis under the instance's prefix", async () => {
    const prefix = server.services.bus.redisPrefix!;
    expect(prefix).toMatch(/^ext-bus:localhost:4000:/);
    const raw = newRedis();
    try {
      const received = new Promise<string>((resolve) => raw.on("message", (_channel, message) => resolve(message)));
      await raw.subscribe(`${prefix}report`);
      const reportId = await fileReport("rita", "tom", "seen on Redis");
      expect(JSON.parse(await received)).toEqual({ reportId });
      await raw.unsubscribe(); // acknowledged: the next test counts the channel's listeners
    } finally {
      raw.disconnect();
    }
  });

  test("a graphql-ws subscription gets each event of its own process once (it goes to Redis and back)", async () => {
    const channel = `${server.services.bus.redisPrefix}report`;
    expect(await listeners(redis, channel)).toBe(0);
    const sub = gqlSubscribe<{ reportFiled: { id: string } }>(server.url, token.ada!, "subscription { reportFiled { id } }");
    try {
      await waitFor(async () => (await listeners(redis, channel)) === 1 || sub.errors.length > 0, "the subscription on Redis", { timeoutMs: 10_000 });
      expect(sub.errors).toEqual([]);
      const first = await fileReport("rita", "tom", "once");
      const last = await fileReport("rita", "tom", "marker");
      await waitFor(() => sub.events.some((e) => e.reportFiled.id === last) || sub.errors.length > 0, "the marker report", { timeoutMs: 10_000 });
      expect(sub.errors).toEqual([]);
      expect(sub.events.map((e) => e.reportFiled.id)).toEqual([first, last]);
    } finally {
      await sub.dispose();
    }
  });

  test("closing the server closes its Redis connections", async () => {
    const channel = `${server.services.bus.redisPrefix}config_changed`; // every process listens to it
    expect(await listeners(redis, channel)).toBe(1);
    await server.close();
    await waitFor(async () => (await listeners(redis, channel)) === 0, "the subscriber connection to go", { timeoutMs: 10_000 });
  });
});
