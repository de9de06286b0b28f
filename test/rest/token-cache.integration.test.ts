// Issue 17: the token cache (src/domain/auth/token-cache.ts). A repeated request with the same bearer
// token reads no token; every change to what the token stands for (the token itself, its account row,
// the account's role) counts on the very next request, in this process and, over Redis, in the others.
// Each case warms the cache first (and checks that it did), then changes something, then asks once.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tokenCache } from "../../src/domain/auth/token-cache.ts";
import type { RunningServer } from "../../src/server.ts";
import { bearer, user, type User } from "../support/actors.ts";
import { serversSharingRedis, signInOn, type SharedServers } from "../support/redis-servers.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

const ADMIN = "/api/v1/ext/admin";

/** The SQL statements `fn` sent through `server`'s database. */
async function statements(server: Pick<RunningServer, "database">, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const stop = server.database.onQuery((sql) => void (/\bjobs\b/.test(sql) || seen.push(sql)));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen;
}
const readsToken = (sql: string[]) => sql.filter((s) => /\boauth_tokens\b/.test(s));

async function get(url: string, token: string, p = "/api/v1/accounts/verify_credentials") {
  const res = await fetch(url + p, { headers: bearer(token) });
  return { status: res.status, body: (await res.json()) as any };
}

/** Reads until the token is cached (the first request also records the account's activity, which drops it once). */
async function warm(server: RunningServer, token: string) {
  for (let i = 0; i < 3; i++) expect((await get(server.url, token)).status).toBe(200);
  const sql = await statements(server, () => get(server.url, token));
  expect(readsToken(sql), "warm: no token statement").toEqual([]);
}

describe("token cache on postgres", () => {
  let server: TestServer;
  let ada: User; // an admin

  const admin = (method: string, p: string, json?: unknown) =>
    server.fetch(ADMIN + p, { method, headers: ada.auth, ...(json ? { json } : {}) }).then(async (r) => {
      expect(r.status, await r.clone().text()).toBe(200);
      return r;
    });

  beforeAll(async () => {
    server = await startTestServer("postgres");
    ada = await user(server, "ada", "read write follow push admin", { admin: true });
  }, 120_000);
  afterAll(() => server?.close());

  test("a warm request reads no token; the activity write (every 10 minutes) drops the entry once, then none", async () => {
    const bo = await user(server, "bo"); // signing in recorded the activity
    const updates = (sql: string[]) => sql.filter((q) => /^\s*UPDATE/i.test(q));
    const cold = await statements(server, () => get(server.url, bo.token));
    expect(readsToken(cold)).toHaveLength(1);
    const warmSql = await statements(server, () => get(server.url, bo.token));
    expect(readsToken(warmSql)).toEqual([]);
    // and nothing else less: the account's counts, counted once, come from the count cache (accounts/count-cache.ts)
    const counting = (sql: string[]) => sql.filter((q) => /count\(\*\)::int FROM follows f WHERE/.test(q)); // not the owner's follow requests
    expect(counting(warmSql)).toEqual([]);
    expect(warmSql.length).toBe(cold.length - 1 - counting(cold).length);
    // an hour later the next request records the activity again…
    await server.services.db.account.update({ where: { id: bo.id }, data: { lastActiveAt: new Date(Date.now() - 3600_000) } });
    const stale = await statements(server, () => get(server.url, bo.token));
    expect(readsToken(stale)).toHaveLength(1);
    expect(updates(stale)).toHaveLength(1);
    // …which the next request reads (with the new time), and from then on neither read nor write
    const after = await statements(server, () => get(server.url, bo.token));
    expect(readsToken(after)).toHaveLength(1);
    expect(updates(after)).toEqual([]);
    const warmAgain = await statements(server, () => get(server.url, bo.token));
    expect(readsToken(warmAgain)).toEqual([]);
    expect(updates(warmAgain)).toEqual([]);
  });

  test("a token revoked through POST /oauth/revoke is refused at once", async () => {
    await server.createUser("cy");
    const app = (await (await server.fetch("/api/v1/apps", { json: { client_name: "c", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" } })).json()) as any;
    const form = { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "cy", password: "secret-password", scope: "read" };
    const { access_token } = (await (await server.fetch("/oauth/token", { form })).json()) as any;
    await warm(server, access_token);
    const revoked = await server.fetch("/oauth/revoke", { form: { token: access_token, client_id: app.client_id, client_secret: app.client_secret } });
    expect(revoked.status).toBe(200);
    expect((await get(server.url, access_token)).status).toBe(401);
  });

  test("a refreshed token's predecessor is refused at once", async () => {
    await server.createUser("rae");
    const app = (await (await server.fetch("/api/v1/apps", { json: { client_name: "r", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" } })).json()) as any;
    const creds = { client_id: app.client_id, client_secret: app.client_secret };
    const first = (await (await server.fetch("/oauth/token", { form: { grant_type: "password", ...creds, username: "rae", password: "secret-password", scope: "read" } })).json()) as any;
    await warm(server, first.access_token);
    const next = await server.fetch("/oauth/token", { form: { grant_type: "refresh_token", ...creds, refresh_token: first.refresh_token } });
    expect(next.status).toBe(200);
    expect((await get(server.url, first.access_token)).status).toBe(401);
  });

  test("deactivation (and reactivation) by an admin counts on the next request", async () => {
    const di = await user(server, "di");
    await warm(server, di.token);
    await admin("PATCH", "/users/deactivate", { nicknames: ["di"] });
    expect((await get(server.url, di.token)).status).toBe(401);
    await admin("PATCH", "/users/activate", { nicknames: ["di"] });
    expect((await get(server.url, di.token)).status).toBe(200);
  });

  test("a suspension through the Mastodon admin API counts on the next request", async () => {
    const su = await user(server, "su");
    await warm(server, su.token);
    const res = await server.fetch(`/api/v1/admin/accounts/${su.id}/action`, { headers: ada.auth, json: { type: "suspend" } });
    expect(res.status, await res.text()).toBe(200);
    expect((await get(server.url, su.token)).status).toBe(401);
  });

  test("a deleted account's token is refused at once", async () => {
    const del = await user(server, "del");
    await warm(server, del.token);
    await admin("DELETE", "/users", { nicknames: ["del"] });
    expect((await get(server.url, del.token)).status).toBe(401);
  });

  test("a role granted or revoked counts on the next request", async () => {
    const ro = await user(server, "ro", "read write admin");
    await warm(server, ro.token);
    const users = () => get(server.url, ro.token, `${ADMIN}/users`);
    expect((await users()).status).toBe(403);
    expect((await get(server.url, ro.token)).body.ext.is_admin).toBe(false);
    await admin("POST", "/users/ro/permission_group/admin");
    expect((await users()).status).toBe(200);
    expect((await get(server.url, ro.token)).body.ext.is_admin).toBe(true);
    await admin("DELETE", "/users/ro/permission_group/admin");
    expect((await users()).status).toBe(403);
  });

  test("a profile update shows in verify_credentials on the next request", async () => {
    const pe = await user(server, "pe");
    await warm(server, pe.token);
    const patched = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", headers: pe.auth, json: { display_name: "Pe New", locked: true } });
    expect(patched.status).toBe(200);
    expect((await get(server.url, pe.token)).body).toMatchObject({ display_name: "Pe New", locked: true });
  });

  test("app settings (written in raw SQL) show in verify_credentials on the next request", async () => {
    const fe = await user(server, "fe");
    await warm(server, fe.token);
    const put = await server.fetch("/api/v1/ext/settings/pleroma-fe", { method: "PATCH", headers: fe.auth, json: { theme: "dark" } });
    expect(put.status).toBe(200);
    expect((await get(server.url, fe.token)).body.ext.settings_store).toEqual({ "pleroma-fe": { theme: "dark" } });
  });

  test("an expired token is refused though cached (expiry is checked on every use)", async () => {
    const ex = await user(server, "ex");
    await warm(server, ex.token);
    const clock = server.services.clock;
    server.services.clock = () => new Date(Date.now() + 400 * 24 * 3600_000);
    try {
      const sql = await statements(server, async () => expect((await get(server.url, ex.token)).status).toBe(401));
      expect(readsToken(sql), "answered from the cache").toEqual([]);
    } finally {
      server.services.clock = clock;
    }
  });

  test("TOKEN_CACHE_ENTRIES=0 turns it off: every request reads its token", async () => {
    expect(tokenCache(server.services).size).toBeGreaterThan(0);
    const off = await startTestServer("postgres", { TOKEN_CACHE_ENTRIES: "0" });
    try {
      const zed = await user(off, "zed");
      for (let i = 0; i < 3; i++) await get(off.url, zed.token);
      expect(readsToken(await statements(off, () => get(off.url, zed.token)))).toHaveLength(1);
      expect(tokenCache(off.services).size).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe("token cache across two servers sharing Redis", () => {
  let a: RunningServer;
  let b: RunningServer;
  let shared: SharedServers;

  beforeAll(async () => {
    shared = await serversSharingRedis(2);
    [a, b] = shared.servers;
  }, 120_000);
  afterAll(() => shared?.close());

  const tokenOn = async (server: RunningServer, nickname: string, admin = false) => (await signInOn(server, nickname, { admin, scopes: "read write admin" })).token;

  /** The invalidation crosses Redis: B answers differently within a second or two (the cache would hold the entry for a minute). */
  async function soon(probe: () => Promise<boolean>) {
    await waitFor(probe, "the change to be seen by the other server", { timeoutMs: 3_000, intervalMs: 50 });
  }

  test("a deactivation and a profile edit through A reach B's cache", async () => {
    const root = await tokenOn(a, "root", true);
    const vi = await tokenOn(a, "vi");
    await warm(b, vi);
    await warm(a, vi);
    const edit = await fetch(`${a.url}/api/v1/accounts/update_credentials`, { method: "PATCH", headers: { ...bearer(vi), "content-type": "application/json" }, body: JSON.stringify({ display_name: "Vi Edited" }) });
    expect(edit.status).toBe(200);
    await soon(async () => (await get(b.url, vi)).body.display_name === "Vi Edited");
    await warm(b, vi);
    const off = await fetch(`${a.url}${ADMIN}/users/deactivate`, { method: "PATCH", headers: { ...bearer(root), "content-type": "application/json" }, body: JSON.stringify({ nicknames: ["vi"] }) });
    expect(off.status).toBe(200);
    expect((await get(a.url, vi)).status).toBe(401);
    await soon(async () => (await get(b.url, vi)).status === 401);
  });
});
