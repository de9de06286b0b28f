// Several server processes of one instance, as they run behind a load balancer: one PostgreSQL database
// and one Redis (jobs and the event bus), each server with its own data directory (test helper).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadSettings } from "../../src/config/env.ts";
import { createLocalAccount } from "../../src/domain/accounts/accounts.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { REDIS_URL } from "../realtime/helpers.ts";
import { freshDatabase } from "./databases.ts";

export interface SharedServers {
  servers: RunningServer[];
  close(): Promise<void>;
}

/** `count` servers sharing a fresh PostgreSQL database and Redis; the first applies the migrations. */
export async function serversSharingRedis(count = 2): Promise<SharedServers> {
  const db = await freshDatabase("postgres");
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  for (let i = 0; i < count; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-shared-"));
    dirs.push(dataDir);
    // one after the other: the first applies the migrations
    servers.push(await startServer(loadSettings({ PORT: "0", DATA_DIR: dataDir, DATABASE_URL: db.url, BASE_URL: "http://localhost:4000", LOG_LEVEL: "error", RATE_LIMITS_ENABLED: "false", REDIS_URL })));
  }
  return {
    servers,
    async close() {
      for (const s of [...servers].reverse()) await s.close();
      await db.drop();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

/** A local account on `server` and a password-grant token of `scopes` (a RunningServer has no test helpers). */
export async function signInOn(server: RunningServer, nickname: string, opts: { admin?: boolean; scopes?: string } = {}): Promise<{ id: string; token: string }> {
  const scopes = opts.scopes ?? "read write follow admin";
  const account = await createLocalAccount(systemCtx(server.services), { nickname, email: `${nickname}@example.test`, password: "secret-password", admin: !!opts.admin, moderator: false });
  const json = (body: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const app = (await (await fetch(`${server.url}/api/v1/apps`, json({ client_name: "t", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes }))).json()) as { client_id: string; client_secret: string };
  const res = await fetch(`${server.url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: nickname, password: "secret-password", scope: scopes }) });
  return { id: account.id, token: ((await res.json()) as { access_token: string }).access_token };
}
