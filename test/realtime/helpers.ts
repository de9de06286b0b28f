// Shared plumbing for the realtime tests: collecting bus and graphql-ws events, watching Redis channels,
// and server processes of our own (node --import tsx src/main.ts) on a database the test chose.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient, type Client } from "graphql-ws";
import { Redis } from "ioredis";
import WebSocket from "ws";
import { serverEntry } from "../support/built.ts";
import { REDIS_URL, sleep } from "../jobs/helpers.ts";
import { StopWaiting, waitFor } from "../support/wait.ts";

export { REDIS_URL, sleep };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Starts iterating `source` at once and keeps what arrives. */
export function collect<T>(source: AsyncIterable<T>): { events: T[]; stop(): Promise<void> } {
  const events: T[] = [];
  const it = source[Symbol.asyncIterator]();
  void (async () => {
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      events.push(next.value);
    }
  })();
  return { events, stop: async () => void (await it.return?.()) };
}

/** How many connections listen on a Redis channel (PUBSUB NUMSUB): tells when a subscription is live. */
export async function listeners(redis: Redis, channel: string): Promise<number> {
  const reply = (await redis.pubsub("NUMSUB", channel)) as [string, number];
  return Number(reply[1]);
}

export const newRedis = () => new Redis(REDIS_URL);

export interface GqlSubscription<T> {
  events: T[];
  errors: string[];
  client: Client;
  dispose(): Promise<void>;
}

/** A graphql-ws subscription on `baseUrl` with a bearer token in the init payload. */
export function gqlSubscribe<T>(baseUrl: string, token: string, query: string): GqlSubscription<T> {
  const client = createClient({ url: baseUrl.replace(/^http/, "ws") + "/graphql", webSocketImpl: WebSocket, lazy: true, retryAttempts: 0, connectionParams: { authorization: `Bearer ${token}` } });
  const events: T[] = [];
  const errors: string[] = [];
  client.subscribe<T>(
    { query },
    {
      next: (msg) => (msg.errors ? errors.push(...msg.errors.map((e) => e.message)) : events.push(msg.data as T)),
      error: (e) => errors.push(String(Array.isArray(e) ? e.map((x: { message: string }) => x.message).join("; ") : ((e as Error)?.message ?? e))),
      complete: () => {},
    },
  );
  return { events, errors, client, dispose: () => client.dispose() as Promise<void> };
}

export interface StreamMessage {
  event: string;
  /** the rendered entity as a JSON string (or an id for `delete`) */
  payload: string;
  stream: string[];
}

/** A streaming API client (`/api/v1/streaming?…`); resolves once the server answered the upgrade. */
export async function openStream(baseUrl: string, query: string): Promise<{ messages: StreamMessage[]; close(): void }> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/v1/streaming?${query}`);
  const messages: StreamMessage[] = [];
  ws.on("message", (data) => messages.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`streaming upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
  return { messages, close: () => ws.close() };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM (the server closes cleanly) and wait for the exit */
  stop(): Promise<number | null>;
}

// vitest puts Vite's BASE_URL ("/") into process.env; the child must see the operator's environment
const { BASE_URL: _vite, ...parentEnv } = process.env;
const live = new Set<ChildProcess>();

/** SIGKILLs server processes a failed test left running (call from afterAll/afterEach). */
export async function killServers(): Promise<void> {
  await Promise.all(
    [...live].map((child) => {
      const closed = new Promise((resolve) => child.once("close", resolve));
      child.kill("SIGKILL");
      return closed;
    }),
  );
}

/**
 * Starts `npm start`'s entry point as its own OS process on an ephemeral port and resolves once it
 * listens. `node dist/main.js` (not `npm start`) so the pid we signal is the server itself.
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-proc-"));
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: { ...parentEnv, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info", RATE_LIMITS_ENABLED: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    live.delete(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const url = await waitFor(
    () => {
      if (done) throw new StopWaiting(`server exited before listening:\n${output}`);
      return output.match(/listening on (http:\/\/\S+)/)?.[1];
    },
    "the server to listen",
    { timeoutMs: 60_000 },
  );
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      const code = await Promise.race([exited, sleep(15_000).then(() => "timeout" as const)]);
      if (code !== "timeout") return code;
      child.kill("SIGKILL");
      throw new Error(`server did not stop on SIGTERM:\n${output}`);
    },
  };
}
