// Starts the real server in-process on an ephemeral port against a fresh database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadSettings } from "../../src/config/env.ts";
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { freshDatabase, type DbKind } from "./databases.ts";
import { waitFor } from "./wait.ts";

export interface TestServer extends RunningServer {
  kind: DbKind;
  dataDir: string;
  /** fetch relative to the server URL */
  fetch(path: string, init?: RequestInit & { json?: unknown; form?: Record<string, string | string[]> }): Promise<Response>;
  createUser(nickname: string, opts?: { password?: string; admin?: boolean; moderator?: boolean }): ReturnType<typeof createLocalAccount>;
  /** runs `fn` and counts the SQL statements it caused (for N+1 checks) */
  countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }>;
}

export async function startTestServer(kind: DbKind, env: Record<string, string> = {}): Promise<TestServer> {
  const db = await freshDatabase(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-test-"));
  // rate limits are off unless a test turns them on (RATE_LIMITS_ENABLED: "true"): suites sign in and post in bursts
  const settings = loadSettings({ PORT: "0", DATA_DIR: dataDir, DATABASE_URL: db.url, BASE_URL: "http://localhost:4000", LOG_LEVEL: "error", RATE_LIMITS_ENABLED: "false", ...env });
  const server = await startServer(settings);
  return {
    ...server,
    kind,
    dataDir,
    async close() {
      await server.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    fetch(p, init = {}) {
      const { json, form, ...rest } = init;
      const headers = new Headers(rest.headers);
      let body = rest.body;
      if (json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(json);
      } else if (form) {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(form)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
        body = params;
      }
      const method = rest.method ?? (body !== undefined ? "POST" : "GET");
      return fetch(server.url + p, { ...rest, method, headers, body, redirect: "manual" });
    },
    async countQueries(fn) {
      // background work the set-up started (e.g. federation jobs of statuses just posted) is not the work under test
      await jobsSettled(server);
      let queries = 0;
      // the job queue polls on its own schedule; only the work under test counts (SHOW_QUERIES=1 prints each statement)
      const stop = server.database.onQuery((sql) => void (/\bjobs\b/.test(sql) || (queries++, process.env.SHOW_QUERIES && console.log("QUERY", sql.replace(/\s+/g, " ").slice(0, 160)))));
      try {
        return { result: await fn(), queries };
      } finally {
        stop();
      }
    },
    createUser(nickname, opts = {}) {
      return createLocalAccount(systemCtx(server.services), {
        nickname,
        email: `${nickname}@example.test`,
        password: opts.password ?? "secret-password",
        admin: opts.admin ?? false,
        moderator: opts.moderator ?? false,
      });
    },
  };
}

/** Waits (a few seconds at most) until no job that is due is waiting or running. */
async function jobsSettled(server: RunningServer) {
  const idle = async () => (await server.services.db.job.count({ where: { OR: [{ state: "running" }, { state: "pending", runAt: { lte: new Date() } }] } })) === 0;
  // best effort: a job still busy after 10 s is the test's to notice, not a failure of this wait
  await waitFor(idle, "due jobs to settle", { timeoutMs: 10_000, intervalMs: 50 }).catch(() => {});
}

/** Registers an app and returns its client credentials. */
export async function registerApp(server: TestServer, scopes = "read write follow push", redirect = "urn:ietf:wg:oauth:2.0:oob") {
  const res = await server.fetch("/api/v1/apps", { json: { client_name: "test app", redirect_uris: redirect, scopes } });
  if (res.status !== 200) throw new Error(`app registration failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; client_id: string; client_secret: string };
}

/** A user token through the password grant. */
export async function passwordToken(server: TestServer, username: string, scope = "read write follow push", password = "secret-password") {
  const app = await registerApp(server, scope);
  const res = await server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password, scope } });
  if (res.status !== 200) throw new Error(`token failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; refresh_token: string; id: number; me: string; scope: string };
}
