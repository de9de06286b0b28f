// Shared set-up of the admin users tests: a server with an ADMIN_TOKEN, staff and plain users holding
// admin-scoped tokens, and small request helpers (test helper, not a test).
import { newId } from "../../src/db/ids.ts";
import { cast } from "../support/actors.ts";
import type { DbKind } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

export const BASE = "http://localhost:4000";
export const ADMIN_TOKEN = "admin-token-for-tests";
/** the two prefixes of the admin API */
export const V1 = "/api/v1/ext/admin";
export const LEGACY = "/api/ext/admin";

export interface AdminFixture {
  server: TestServer;
  db: TestServer["services"]["db"];
  tokens: { admin: string; moderator: string; plain: string };
  adminId: string;
  /** a request to the admin API: `body` goes as JSON, `token` as Bearer (null = anonymous) */
  call(method: string, path: string, opts?: { body?: unknown; token?: string | null; headers?: Record<string, string>; prefix?: string }): Promise<Response>;
  /** the newest moderation-log messages, newest first */
  messages(n?: number): Promise<string[]>;
  remoteUser(nickname: string, host?: string): Promise<{ id: string; nickname: string }>;
}

export async function adminFixture(kind: DbKind): Promise<AdminFixture> {
  const server = await startTestServer(kind, { ADMIN_TOKEN });
  const db = server.services.db;
  const { users } = await cast(server, { root: { admin: true }, mod: { moderator: true }, plain: {} });
  const tokens = { admin: users.root.token, moderator: users.mod.token, plain: users.plain.token };
  return {
    server,
    db,
    tokens,
    adminId: users.root.id,
    call(method, path, opts = {}) {
      const token = opts.token === undefined ? tokens.admin : opts.token;
      const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...opts.headers };
      return server.fetch((opts.prefix ?? V1) + path, { method, headers, ...(opts.body !== undefined ? { json: opts.body } : {}) });
    },
    async messages(n = 1) {
      const rows = await db.moderationLogEntry.findMany({ orderBy: { id: "desc" }, take: n });
      return rows.map((r) => r.message);
    },
    async remoteUser(nickname, host = "remote.example") {
      return db.account.create({ data: { id: newId(), nickname: `${nickname}@${host}`, domain: host, local: false, apId: `https://${host}/users/${nickname}` } });
    },
  };
}

/** Waits for the account-deletion job of `accountId` to finish (the queue runs in the test server). */
export function waitForDeleteJob(db: TestServer["services"]["db"], accountId: string) {
  return waitFor(async () => {
    const job = await db.job.findFirst({ where: { name: "accounts.delete", payload: { equals: { accountId } } } });
    return (job?.state === "done" || job?.state === "failed") && job;
  }, `the accounts.delete job of ${accountId} to finish`, { timeoutMs: 15_000 });
}
