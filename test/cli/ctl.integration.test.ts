// `npm run ctl` against a stopped instance (opens the database) and a running one (talks tRPC).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { openDatabase } from "../../src/db/client.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { runCtl } from "../support/ctl.ts";
import { freshDatabase } from "../support/databases.ts";

const ctl = runCtl;

async function tokenStatus(url: string, username: string, password: string) {
  const app = await (await fetch(`${url}/api/v1/apps`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "c", redirect_uris: "urn:ietf:wg:oauth:2.0:oob" }) })).json();
  const res = await fetch(`${url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password }) });
  return res.status;
}

describe("ctl on the embedded database", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-ctl-"));
  const env = { DATA_DIR: dataDir, PORT: "0" };
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("with no server running it opens the database itself", async () => {
    const r = await ctl(env, "user", "new", "root", "root@example.test", "--password", "pw-root-1", "--admin");
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toContain("created user root (admin) via database pglite");
  });

  test("with the server running it goes through tRPC and the server sees the change at once", async () => {
    server = await startServer(loadSettings({ ...env, LOG_LEVEL: "error" }));
    expect(await tokenStatus(server.url, "root", "pw-root-1")).toBe(200); // created offline, visible to the server

    const created = await ctl(env, "user", "new", "mod", "mod@example.test", "--password", "pw-mod-1", "--moderator");
    expect(created.out).toContain(`created user mod (moderator) via server at ${server.url}`);
    const set = await ctl(env, "user", "set", "mod", "--no-moderator", "--admin");
    expect(set.out).toContain("updated user mod: admin");
    const row = await server.services.db.account.findFirstOrThrow({ where: { nickname: "mod" } });
    expect(row).toMatchObject({ isAdmin: true, isModerator: false, confirmationPending: false, approvalPending: false, local: true });

    const reset = await ctl(env, "user", "reset-password", "mod");
    const password = reset.out.match(/new password for mod: (\S+)/)?.[1];
    expect(password).toBeTruthy();
    expect(await tokenStatus(server.url, "mod", "pw-mod-1")).toBe(401);
    expect(await tokenStatus(server.url, "mod", password!)).toBe(200);
  });

  test("errors are one line and a non-zero exit", async () => {
    const dup = await ctl(env, "user", "new", "mod", "other@example.test", "--password", "x");
    expect(dup.code).toBe(1);
    expect(dup.out).toMatch(/^error: nickname has already been taken$/m);
    const unknown = await ctl(env, "user", "set", "ghost", "--admin");
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/^error: No local user ghost$/m);
    const bad = await ctl(env, "user", "new", "nomail", "not-an-address", "--password", "x");
    expect(bad.code).toBe(1);
  });

  test("an e-mail address without a dot in its domain is accepted, as the family's servers accept admin@localhost", async () => {
    const r = await ctl(env, "user", "new", "admin", "admin@localhost", "--password", "pw-admin-1", "--admin");
    expect(r).toMatchObject({ code: 0 });
    expect(await server!.services.db.account.findFirstOrThrow({ where: { nickname: "admin" } })).toMatchObject({ email: "admin@localhost", isAdmin: true });
    expect(await tokenStatus(server!.url, "admin@localhost", "pw-admin-1")).toBe(200);
  });

  test("the tRPC ctl procedures refuse requests without the local secret", async () => {
    const res = await fetch(`${server!.url}/trpc/ctl.userSet`, { method: "POST", headers: { "content-type": "application/json", "x-ctl-secret": "wrong" }, body: JSON.stringify({ nickname: "mod", admin: false }) });
    expect(res.status).toBe(401);
    expect((await server!.services.db.account.findFirstOrThrow({ where: { nickname: "mod" } })).isAdmin).toBe(true);
  });
});

describe("ctl on PostgreSQL with no server running", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase("postgres");
  });
  afterAll(() => db?.drop());

  test("creates a confirmed, approved user in the database", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-ctl-pg-"));
    const r = await ctl({ DATA_DIR: dataDir, DATABASE_URL: db.url }, "user", "new", "pg_admin", "pga@example.test", "--password", "pw", "--admin");
    expect(r.out).toContain("via database postgres");
    const database = await openDatabase(db.url);
    const row = await database.prisma.account.findFirstOrThrow({ where: { nickname: "pg_admin" } });
    await database.close();
    expect(row).toMatchObject({ isAdmin: true, email: "pga@example.test", confirmationPending: false, approvalPending: false });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
  });
});

describe("tRPC session procedures", () => {
  let server: RunningServer;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase("pglite");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-trpc-"));
    server = await startServer(loadSettings({ DATA_DIR: dataDir, DATABASE_URL: db.url, PORT: "0", LOG_LEVEL: "error" }));
  });
  afterAll(() => server?.close());

  test("signIn sets the session cookie, me reads it, signOut ends it", async () => {
    const { createLocalAccount } = await import("../../src/domain/accounts/accounts.ops.ts");
    const { systemCtx } = await import("../../src/domain/context.ts");
    await createLocalAccount(systemCtx(server.services), { nickname: "ada", email: "ada@example.test", password: "pw-ada" });
    // a cookie-authenticated mutation carries the CSRF header (src/http/csrf.ts), as the admin UI does
    const post = (proc: string, body: unknown, cookie = "", csrf = true) =>
      fetch(`${server.url}/trpc/${proc}`, { method: "POST", headers: { "content-type": "application/json", cookie, ...(csrf ? { "x-csrf-protection": "1" } : {}) }, body: JSON.stringify(body) });

    const bad = await post("session.signIn", { username: "ada", password: "nope" });
    expect(bad.status).toBe(401);
    const ok = await post("session.signIn", { username: "ada", password: "pw-ada" });
    expect(ok.status).toBe(200);
    const cookie = (ok.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^_ext_key=/);
    expect(await server.services.db.session.count()).toBe(1);

    const me = await (await fetch(`${server.url}/trpc/session.me`, { headers: { cookie } })).json();
    expect(me.result.data).toMatchObject({ nickname: "ada", isAdmin: false });

    const forged = await post("session.signOut", {}, cookie, false);
    expect(forged.status).toBe(403);
    expect(await server.services.db.session.count()).toBe(1);
    expect((await post("session.signOut", {}, cookie)).status).toBe(200);
    expect(await server.services.db.session.count()).toBe(0);
    const after = await (await fetch(`${server.url}/trpc/session.me`, { headers: { cookie } })).json();
    expect(after.result.data).toBeNull();
  });
});
