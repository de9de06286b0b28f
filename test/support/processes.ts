// Real server processes for fault tests (kill -9, SIGTERM, a database or Redis going away): started
// like `npm start` (node dist/main.js, built from the sources: test/support/built.ts), restartable on the same data directory and
// database, with their output kept for assertions. Also a TCP proxy that plays network faults (a database
// "restart", a half-open network, without touching the machine's shared PostgreSQL: tcp-proxy.ts) and a
// private redis-server.
import { afterAll, beforeAll } from "vitest";
import { freshDatabase } from "./databases.ts";
import { serverEntry } from "./built.ts";
import { startTcpProxy, type FaultProxy } from "./tcp-proxy.ts";
import { StopWaiting, waitFor } from "./wait.ts";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** (re)starts the process on the same data directory and database, `overrides` added to its environment; resolves when it listens */
  start(overrides?: Record<string, string>): Promise<void>;
  /** sends `signal`; resolves with the exit code (null when killed by a signal) */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  /** SIGTERM (SIGKILL after 15 s) and removes the data directory */
  close(): Promise<void>;
}

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "ext-proc-"));
  const { BASE_URL: _vitestBase, ...inherited } = process.env; // vitest sets BASE_URL=/ (docs/development.md)
  const fullEnv = { ...inherited, PORT: "0", HOST: "127.0.0.1", BASE_URL: "http://localhost:4000", LOG_LEVEL: "info", RATE_LIMITS_ENABLED: "false", ...env, DATA_DIR: dataDir };
  let output = "";
  let child!: ChildProcess;
  let exited!: Promise<number | null>;
  const proc: ServerProcess = {
    url: "",
    dataDir,
    get child() {
      return child;
    },
    output: () => output,
    async start(overrides = {}) {
      fs.rmSync(path.join(dataDir, "server.json"), { force: true });
      child = spawn(process.execPath, [serverEntry], { cwd: ROOT, env: { ...fullEnv, ...overrides }, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout!.on("data", (d) => (output += d));
      child.stderr!.on("data", (d) => (output += d));
      exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
      proc.url = await waitFor(
        () => {
          if (child.exitCode !== null) throw new StopWaiting(`server exited with ${child.exitCode}:\n${output}`);
          return JSON.parse(fs.readFileSync(path.join(dataDir, "server.json"), "utf8")).url as string; // absent until it listens
        },
        () => `the server to start:\n${output}`,
        { timeoutMs: 90_000 },
      );
    },
    async signal(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
    async close() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await proc.start();
  return proc;
}

export interface SuiteServer {
  db: Awaited<ReturnType<typeof freshDatabase>>;
  server: ServerProcess;
  /** the cuttable proxy between the server and its database (`viaProxy`) */
  proxy: CuttableProxy;
}

/**
 * The set-up the fault tests share, as hooks of the enclosing `describe`: a fresh PostgreSQL database,
 * reached through a cuttable proxy with `viaProxy`, and a server process on it (ADMIN_TOKEN is
 * PROCESS_ADMIN_TOKEN; `env` adds to its environment, a function when it depends on an earlier hook).
 * Everything is stopped and dropped after the suite. Read the fields inside tests.
 */
export function serverPerSuite(options: { env?: Record<string, string> | (() => Record<string, string>); viaProxy?: boolean } = {}): SuiteServer {
  const suite = {} as SuiteServer;
  beforeAll(async () => {
    suite.db = await freshDatabase("postgres");
    const url = new URL(suite.db.url);
    if (options.viaProxy) {
      suite.proxy = await startProxy(url.hostname, Number(url.port || 5432));
      url.port = String(suite.proxy.port);
    }
    const env = typeof options.env === "function" ? options.env() : options.env;
    suite.server = await spawnServer({ DATABASE_URL: url.toString(), ADMIN_TOKEN: PROCESS_ADMIN_TOKEN, ...env });
  });
  afterAll(async () => {
    await suite.server?.close();
    await suite.proxy?.close();
    await suite.db?.drop();
  });
  return suite;
}

/** The proxy of test/support/tcp-proxy.ts, with the two moves the outage tests make. */
export interface CuttableProxy extends FaultProxy {
  /** every connection dropped, new ones refused */
  cut(): Promise<void>;
  /** back to passing */
  restore(): Promise<void>;
}

export async function startProxy(targetHost: string, targetPort: number): Promise<CuttableProxy> {
  const proxy = await startTcpProxy(targetHost, targetPort);
  return Object.assign(proxy, { cut: () => proxy.mode("cut"), restore: () => proxy.mode("pass") });
}

/** A private redis-server on a free port, stoppable and restartable (never the machine's shared one). */
export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-redis-"));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: "ignore" });
    const accepts = () =>
      new Promise<boolean>((resolve) => {
        const s = net.connect(port, "127.0.0.1", () => {
          s.end("PING\r\n");
          resolve(true);
        });
        s.on("error", () => resolve(false));
      });
    await waitFor(accepts, `redis-server to accept connections on port ${port}`, { timeoutMs: 10_000, intervalMs: 50 });
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGKILL");
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}


export const PROCESS_ADMIN_TOKEN = "fault-test-admin-token";

/** Creates local users through the admin API (the process must run with ADMIN_TOKEN=PROCESS_ADMIN_TOKEN) and signs them in. */
export async function usersOn(url: string, nicknames: string[]): Promise<Record<string, { id: string; auth: { authorization: string } }>> {
  const created = await fetch(`${url}/api/v1/ext/admin/users`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-admin-token": PROCESS_ADMIN_TOKEN },
    body: JSON.stringify({ users: nicknames.map((nickname) => ({ nickname, email: `${nickname}@example.test`, password: "secret-password" })) }),
  });
  if (created.status !== 200) throw new Error(`users: ${created.status} ${await created.text()}`);
  const app = await (await fetch(`${url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "faults", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow" }) })).json();
  const out: Record<string, { id: string; auth: { authorization: string } }> = {};
  for (const nickname of nicknames) {
    const form = new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: nickname, password: "secret-password", scope: "read write follow" });
    const token = await (await fetch(`${url}/oauth/token`, { method: "POST", body: form })).json();
    const auth = { authorization: `Bearer ${token.access_token}` };
    const me = await (await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).json();
    out[nickname] = { id: me.id, auth };
  }
  return out;
}
