// A federation test network on one machine: real server processes (`dist/main.js`, as `npm start` runs
// it) under `<name>.fed.test` host names, behind a TLS front on their own loopback address, each with its
// own database. Host names resolve through the loopback-dns preload (in the servers and in this test
// process), and every process trusts the test CA, so WebFinger over HTTPS, signatures and deliveries
// are exactly what two real servers exchange.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serverEntry } from "../built.ts";
import { freshDatabase } from "../databases.ts";
import { StopWaiting, waitFor } from "../wait.ts";
import { startTlsFront, type TlsFront } from "./proxy.ts";
import { CA_CERT_FILE } from "./tls.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const PRELOAD = path.join(path.dirname(new URL(import.meta.url).pathname), "loopback-dns.mjs");
export const ADMIN_TOKEN = "federation-test-admin-token";

export interface TestInstance {
  name: string;
  /** https://<name>.fed.test */
  baseUrl: string;
  domain: string;
  /** the backend's own http://127.0.0.1:<port> (what the TLS front forwards to; the first process's) */
  directUrl: string;
  /** every server process's own URL (one unless started with several) */
  directUrls(): string[];
  /** the server processes' ids (benchmarks read their CPU time and memory from /proc) */
  pids(): number[];
  /** a request to this instance's API from outside (through plain HTTP on loopback, as a client on the same host) */
  api(pathname: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  /** creates a local user and answers its account id and an access token */
  createUser(nickname: string, opts?: { locked?: boolean }): Promise<{ id: string; nickname: string; token: string }>;
  /** SQL against this instance's own database (PostgreSQL) */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
  /** stop and start again on the same database (durable jobs survive) */
  restart(): Promise<void>;
  /** sends `signal` to every process and waits for them to exit (`kill("SIGKILL")` is a crash); `restart()` starts them again */
  kill(signal: NodeJS.Signals): Promise<void>;
  logs(): string;
}

export interface FederationNet {
  front: TlsFront;
  /** `processes` > 1: that many server processes on the one database, the front taking turns (benchmarks) */
  start(name: string, env?: Record<string, string>, processes?: number): Promise<TestInstance>;
  /** also route `<name>.fed.test` to an HTTP server of the test (a Fedify peer, a sink) */
  route(name: string, port: number): string;
  close(): Promise<void>;
}

/** Loads the loopback-dns preload into this process and points `.test` names at `address`. */
async function resolveTestNamesTo(address: string) {
  process.env.TEST_HOSTS_DEFAULT = address;
  await import(PRELOAD);
}

function waitForServerFile(file: string, child: ChildProcess, out: () => string, timeoutMs = 60_000): Promise<string> {
  return waitFor(
    () => {
      if (child.exitCode !== null) throw new StopWaiting(`server exited with ${child.exitCode}:\n${out()}`);
      return JSON.parse(fs.readFileSync(file, "utf8")).url as string; // absent until the server listens
    },
    () => `the server to write ${file}:\n${out()}`,
    { timeoutMs },
  );
}

/**
 * Waits until `instance` has no due job waiting or running: everything queued so far (inbox activities,
 * outbox intents, Fedify's fan-outs and deliveries) has run. A job enqueues its follow-ups before it is
 * marked done, so the queue is never idle between two links of a chain; a retry waits with a later run_at.
 * "Nothing else comes" checks wait for this instead of for time.
 */
export function queueIdle(instance: TestInstance, timeoutMs = 30_000): Promise<true> {
  const busy = async () =>
    (await instance.sql<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE state::text IN ('pending', 'running') AND run_at <= (now() AT TIME ZONE 'UTC')"))[0].n;
  return waitFor(async () => (await busy()) === 0, `${instance.name}'s due jobs to have run`, { timeoutMs });
}

export async function startFederationNet(): Promise<FederationNet> {
  const front = await startTlsFront();
  await resolveTestNamesTo(front.address);
  const instances: TestInstance[] = [];

  async function start(name: string, extraEnv: Record<string, string> = {}, processes = 1): Promise<TestInstance> {
    const domain = `${name}.fed.test`;
    const baseUrl = `https://${domain}`;
    const db = await freshDatabase("postgres");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fed-${name}-`));
    const { BASE_URL: _vitestBase, ...inherited } = process.env; // vitest sets BASE_URL=/ (see docs/development.md)
    const env = {
      ...inherited,
      PORT: "0",
      HOST: "127.0.0.1",
      BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      ADMIN_TOKEN,
      ALLOW_PRIVATE_FETCH: "true",
      LOG_LEVEL: process.env.FED_LOG_LEVEL ?? "error",
      INSTANCE_NAME: name,
      // the test processes' bundle (the environment's CAs and the test CA, see vitest.config.ts)
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? CA_CERT_FILE,
      TEST_HOSTS_DEFAULT: front.address,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${PRELOAD}`.trim(),
      ...extraEnv,
    };
    let output = "";
    let children: ChildProcess[] = [];
    let directUrls: string[] = [];
    const launchOne = async (i: number) => {
      // each process its own DATA_DIR (server.json, the CLI's handle); they share the database
      const dir = i === 0 ? dataDir : path.join(dataDir, `process-${i}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.rmSync(path.join(dir, "server.json"), { force: true });
      const child = spawn(process.execPath, [serverEntry], { cwd: ROOT, env: { ...env, DATA_DIR: dir }, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout!.on("data", (d) => (output += d));
      child.stderr!.on("data", (d) => (output += d));
      child.on("exit", (code, signal) => (output += `\n[process ${i} (pid ${child.pid}) exited: code ${code}, signal ${signal}]\n`));
      children[i] = child;
      directUrls[i] = await waitForServerFile(path.join(dir, "server.json"), child, () => output);
    };
    const launch = async () => {
      children = [];
      directUrls = [];
      await launchOne(0); // the first applies the migrations alone
      for (let i = 1; i < processes; i++) await launchOne(i);
      front.route(domain, directUrls.map((u) => Number(new URL(u).port)));
    };
    const haltOne = async (child: ChildProcess) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    };
    const halt = () => Promise.all(children.map(haltOne)).then(() => undefined);
    await launch();

    const pg = await import("pg");
    const pool = new pg.default.Pool({ connectionString: db.url, max: 2 });
    // dropping the database (WITH FORCE) may kill a connection the pool is still closing: not a test failure
    pool.on("error", () => {});
    const instance: TestInstance = {
      name,
      baseUrl,
      domain,
      get directUrl() {
        return directUrls[0];
      },
      directUrls: () => [...directUrls],
      pids: () => children.map((c) => c.pid!),
      api(pathname, init = {}) {
        const { token, json, ...rest } = init;
        const headers = new Headers(rest.headers);
        if (token) headers.set("authorization", `Bearer ${token}`);
        let body = rest.body;
        if (json !== undefined) {
          headers.set("content-type", "application/json");
          body = JSON.stringify(json);
        }
        return fetch(directUrls[0] + pathname, { ...rest, headers, body, method: rest.method ?? (body !== undefined ? "POST" : "GET"), redirect: "manual" });
      },
      async createUser(nickname, opts = {}) {
        const password = `pw-${nickname}-long-enough`;
        const created = await instance.api("/api/v1/ext/admin/users", { headers: { "x-admin-token": ADMIN_TOKEN }, json: { users: [{ nickname, email: `${nickname}@${domain}`, password }] } });
        if (created.status !== 200) throw new Error(`create ${nickname}: ${created.status} ${await created.text()}`);
        const app = await (await instance.api("/api/v1/apps", { json: { client_name: "fed test", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow push" } })).json();
        const tok = await instance.api("/oauth/token", { json: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: nickname, password, scope: "read write follow push" } });
        if (tok.status !== 200) throw new Error(`token ${nickname}: ${tok.status} ${await tok.text()}`);
        const token = (await tok.json()).access_token as string;
        const me = await (await instance.api("/api/v1/accounts/verify_credentials", { token })).json();
        if (opts.locked) await instance.api("/api/v1/accounts/update_credentials", { method: "PATCH", token, json: { locked: true } });
        return { id: me.id, nickname, token };
      },
      async sql(query, params = []) {
        return (await pool.query(query, params)).rows;
      },
      async stop() {
        await halt();
        await pool.end();
        await db.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
      async restart() {
        await halt();
        await launch();
      },
      async kill(signal) {
        await Promise.all(
          children.map((child) => {
            if (child.exitCode !== null || child.signalCode !== null) return;
            const exited = new Promise((r) => child.once("exit", r));
            child.kill(signal);
            return exited;
          }),
        );
      },
      logs: () => output,
    };
    instances.push(instance);
    return instance;
  }

  return {
    front,
    start,
    route(name, port) {
      const domain = `${name}.fed.test`;
      front.route(domain, port);
      return `https://${domain}`;
    },
    async close() {
      await Promise.allSettled(instances.map((i) => i.stop()));
      await front.close();
    },
  };
}

