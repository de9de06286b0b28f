// Two server processes on one PostgreSQL database: process A runs in this test process, process B is
// `src/main.ts` in an OS process of its own. With REDIS_URL a report filed through A's REST API reaches
// a graphql-ws subscription on B, and a status posted through A reaches a streaming API client on B,
// each exactly once; without it, neither does (the Redis bus is what carries them).
// PostgreSQL only: the embedded PGlite admits a single process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { freshDatabase } from "../support/databases.ts";
import { REDIS_URL, gqlSubscribe, killServers, listeners, newRedis, openStream, spawnServer, type ServerProcess, type StreamMessage } from "./helpers.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
afterAll(killServers); // a failed test may leave B running

const BASE_URL = "http://localhost:4000"; // one instance: every process has the same public URL
const SCOPES = "read write follow push admin";

interface Pair {
  a: RunningServer;
  b: ServerProcess;
  token: Record<string, string>;
  id: Record<string, string>;
  close(): Promise<void>;
}

async function startPair(redisUrl: string | undefined): Promise<Pair> {
  const db = await freshDatabase("postgres");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-multi-"));
  const redisEnv: Record<string, string> = redisUrl ? { REDIS_URL: redisUrl } : {};
  // A first: it applies the migrations, so B starts on a ready database
  const a = await startServer(loadSettings({ PORT: "0", DATA_DIR: dataDir, DATABASE_URL: db.url, BASE_URL, LOG_LEVEL: "error", ...redisEnv }));
  let b: ServerProcess | undefined;
  try {
    b = await spawnServer({ DATABASE_URL: db.url, BASE_URL, ...redisEnv });
  } catch (error) {
    await a.close();
    await db.drop();
    throw error;
  }
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  for (const [nick, role] of [["ada", { admin: true }], ["rita", {}], ["tom", {}]] as const) {
    id[nick] = (await createLocalAccount(systemCtx(a.services), { nickname: nick, email: `${nick}@example.test`, password: "secret-password", admin: false, moderator: false, ...role })).id;
    token[nick] = await passwordToken(a.url, nick);
  }
  return {
    a,
    b,
    id,
    token,
    async close() {
      await b.stop();
      await a.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function passwordToken(url: string, username: string): Promise<string> {
  const app = await (await fetch(`${url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "t", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: SCOPES }) })).json();
  const res = await fetch(`${url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password: "secret-password", scope: SCOPES }) });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

async function postStatus(pair: Pair, url: string, status: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/statuses`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${pair.token.rita}` }, body: JSON.stringify({ status, visibility: "public" }) });
  expect(res.status).toBe(200);
  return (await res.json()).id;
}

/** The ids of the statuses a streaming client was sent as `update`. */
const updates = (messages: StreamMessage[]) => messages.filter((m) => m.event === "update").map((m) => JSON.parse(m.payload).id as string);

async function fileReport(pair: Pair, url: string, comment: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/reports`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${pair.token.rita}` }, body: JSON.stringify({ account_id: pair.id.tom, comment }) });
  expect(res.status).toBe(200);
  return (await res.json()).id;
}

type ReportEvent = { reportFiled: { id: string; content: string } };
const QUERY = "subscription { reportFiled { id content } }";

describe("two server processes on one PostgreSQL database", () => {
  describe("with REDIS_URL", () => {
    let pair: Pair;
    let redis: Redis;
    beforeAll(async () => {
      pair = await startPair(REDIS_URL);
      redis = newRedis();
    });
    afterAll(async () => {
      await pair?.close();
      redis?.disconnect();
    });

    test("a report filed through process A reaches a graphql-ws subscription on process B, once", async () => {
      const channel = `${pair.a.services.bus.redisPrefix}report`;
      expect(await listeners(redis, channel)).toBe(0); // nobody listens to reports yet, in either process
      const sub = gqlSubscribe<ReportEvent>(pair.b.url, pair.token.ada!, QUERY);
      try {
        // B's subscription is live once its process listens on the channel
        await waitFor(async () => (await listeners(redis, channel)) === 1 || sub.errors.length > 0, "B's subscription on Redis", { timeoutMs: 20_000 });
        expect(sub.errors).toEqual([]);

        const fromA = await fileReport(pair, pair.a.url, "filed through A");
        const marker = await fileReport(pair, pair.b.url, "filed through B"); // after A's, on the same channel
        await waitFor(() => sub.events.some((e) => e.reportFiled.id === marker) || sub.errors.length > 0, "the marker report", { timeoutMs: 20_000 });
        expect(sub.errors).toEqual([]);
        expect(sub.events).toEqual([
          { reportFiled: { id: fromA, content: "filed through A" } },
          { reportFiled: { id: marker, content: "filed through B" } },
        ]);
      } finally {
        await sub.dispose();
      }
    });

    test("a status posted through process A reaches a streaming client of process B (stream=public), once", async () => {
      // each process's stream hub listens from start-up; B's is live once both processes are on the channel
      await waitFor(async () => (await listeners(redis, `${pair.a.services.bus.redisPrefix}status_created`)) === 2, "both hubs on Redis", { timeoutMs: 20_000 });
      const stream = await openStream(pair.b.url, `stream=public&access_token=${pair.token.ada}`); // listening once open
      try {
        const fromA = await postStatus(pair, pair.a.url, "posted through A");
        const marker = await postStatus(pair, pair.b.url, "posted through B");
        await waitFor(() => updates(stream.messages).includes(marker), "the marker status", { timeoutMs: 20_000 });
        expect(updates(stream.messages)).toEqual([fromA, marker]);
        const first = stream.messages.find((m) => m.event === "update")!;
        expect(first.stream).toEqual(["public"]);
        expect(JSON.parse(first.payload)).toMatchObject({ id: fromA, content: expect.stringContaining("posted through A"), account: { acct: "rita" } });
      } finally {
        stream.close();
      }
    });

    test("the config_changed listeners of both processes are on Redis, and B's go when B stops", async () => {
      const channel = `${pair.a.services.bus.redisPrefix}config_changed`;
      expect(await listeners(redis, channel)).toBe(2);
      expect(await pair.b.stop()).toBe(0);
      await waitFor(async () => (await listeners(redis, channel)) === 1, "B's connection to close", { timeoutMs: 10_000 });
    });
  });

  describe("without REDIS_URL", () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await startPair(undefined);
    });
    afterAll(() => pair?.close());

    test("a report filed through process A does not reach a subscription on process B", async () => {
      expect(pair.a.services.bus.redisPrefix).toBeUndefined();
      const sub = gqlSubscribe<ReportEvent>(pair.b.url, pair.token.ada!, QUERY);
      try {
        // B listens a moment after the subscribe message: file through B until one arrives
        const throughB: string[] = [];
        await waitFor(
          async () => {
            if (sub.events.length > 0 || sub.errors.length > 0) return true;
            throughB.push(await fileReport(pair, pair.b.url, "warm-up"));
            return false;
          },
          "B's subscription to get a warm-up report",
          { timeoutMs: 20_000 },
        );
        expect(sub.errors).toEqual([]);
        expect(sub.events.length).toBeGreaterThan(0);

        const fromA = await fileReport(pair, pair.a.url, "filed through A");
        const marker = await fileReport(pair, pair.b.url, "filed through B"); // B's own reports still arrive
        await waitFor(() => sub.events.some((e) => e.reportFiled.id === marker), "the marker report", { timeoutMs: 20_000 });
        // what arrived besides the warm-ups (those filed after B began listening) is B's marker alone
        const others = sub.events.filter((e) => !throughB.includes(e.reportFiled.id));
        expect(others).toEqual([{ reportFiled: { id: marker, content: "filed through B" } }]);
        expect(sub.events.map((e) => e.reportFiled.id)).not.toContain(fromA);
      } finally {
        await sub.dispose();
      }
    });

    test("a status posted through process A does not reach a streaming client of process B", async () => {
      const stream = await openStream(pair.b.url, `stream=public&access_token=${pair.token.ada}`);
      try {
        const fromA = await postStatus(pair, pair.a.url, "posted through A");
        const marker = await postStatus(pair, pair.b.url, "posted through B");
        await waitFor(() => updates(stream.messages).includes(marker), "the marker status", { timeoutMs: 20_000 });
        expect(updates(stream.messages)).toEqual([marker]);
        expect(updates(stream.messages)).not.toContain(fromA);
      } finally {
        stream.close();
      }
    });
  });
});
