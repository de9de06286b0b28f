// Admin API: registration invites (create with the derived type, list, revoke, e-mail) under both
// prefixes, their privilege, and registrations spending admin-made invites of every type.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { bearer, cast, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { linkIn, readMails } from "../support/mailbox.ts";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const BASE = "http://localhost:4000";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];
const DAY = 24 * 60 * 60 * 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(suiteKinds(import.meta.url))("admin invites on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let token: Cast["token"];
  let appToken: string;

  async function setConfig(values: Record<string, unknown>) {
    for (const [key, value] of Object.entries(values)) {
      await db.configEntry.upsert({ where: { group_key: { group: "instance", key } }, create: { group: "instance", key, value: value as any }, update: { value: value as any } });
    }
    await server.services.config.reload();
  }

  const call = (path: string, init: { method?: string; json?: unknown; who?: string | null; prefix?: string } = {}) =>
    server.fetch(`${init.prefix ?? PREFIXES[0]}${path}`, {
      method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
      ...(init.json !== undefined ? { json: init.json } : {}),
      headers: init.who === null ? {} : bearer(token[init.who ?? "ada"]!),
    });
  const create = async (json: Record<string, unknown> = {}, prefix?: string) => {
    const res = await call("/users/invite_token", { json, prefix });
    expect(res.status).toBe(200);
    return res.json();
  };
  const register = (nickname: string, invite: string) =>
    server.fetch("/api/v1/accounts", {
      json: { username: nickname, email: `${nickname}@example.test`, password: "a good password", agreement: true, locale: "en", token: invite },
      headers: bearer(appToken),
    });

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    db = server.services.db;
    ({ token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, joe: {} }));
    token.adaNoAdmin = (await passwordToken(server, "ada", "read write")).access_token;
    const app = await registerApp(server, "read write follow push");
    const res = await server.fetch("/oauth/token", { form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write" } });
    appToken = (await res.json()).access_token;
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await db.configEntry.deleteMany({});
    await server.services.config.reload();
  });

  test("invite_token derives the type from max_use and expires_at, under both prefixes", async () => {
    const date = isoDay(Date.now() + 3 * DAY);
    for (const prefix of PREFIXES) {
      const oneTime = await create({}, prefix);
      expect(Object.keys(oneTime).sort()).toEqual(["expires_at", "id", "invite_type", "max_use", "token", "used", "uses"]);
      expect(oneTime).toMatchObject({ used: false, uses: 0, max_use: null, expires_at: null, invite_type: "one_time" });
      expect(typeof oneTime.id).toBe("number");
      expect(oneTime.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(await create({ max_use: 3 }, prefix)).toMatchObject({ max_use: 3, expires_at: null, invite_type: "reusable" });
      expect(await create({ expires_at: date }, prefix)).toMatchObject({ max_use: null, expires_at: date, invite_type: "date_limited" });
      expect(await create({ max_use: "2", expires_at: date }, prefix)).toMatchObject({ max_use: 2, expires_at: date, invite_type: "reusable_date_limited" });
    }
    const row = await db.invite.findFirstOrThrow({ where: { inviteType: "reusable_date_limited" }, include: { createdBy: true } });
    expect(row).toMatchObject({ maxUse: 2, used: false, uses: 0 });
    expect(row.expiresAt!.toISOString()).toBe(`${date}T00:00:00.000Z`);
    expect(row.createdBy?.nickname).toBe("ada");
  });

  test("invite_token refuses a malformed date and a max_use below 1", async () => {
    const bad = await call("/users/invite_token", { json: { expires_at: "next week" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("expires_at: Invalid date.");
    for (const expires_at of ["2024-02-30", "9999-99-99", "2030-01-01T10:00:00Z"]) expect((await call("/users/invite_token", { json: { expires_at } })).status).toBe(400);
    expect((await call("/users/invite_token", { json: { max_use: 0 } })).status).toBe(400);
  });

  test("invites lists every invite, oldest first, the same under both prefixes", async () => {
    const a = await create();
    const b = await create({ max_use: 5 });
    const [v1, legacy] = await Promise.all(PREFIXES.map((prefix) => call("/users/invites", { prefix }).then(async (r) => ({ status: r.status, body: await r.json() }))));
    expect(v1.status).toBe(200);
    expect(legacy).toEqual(v1);
    const ids = v1.body.invites.map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
    expect(v1.body.invites).toContainEqual(a);
    expect(v1.body.invites).toContainEqual(b);
    expect(v1.body.invites).toHaveLength(await db.invite.count());
  });

  test("revoke_invite marks the invite used and answers it; an unknown token is 404", async () => {
    const invite = await create({ max_use: 4 });
    for (const prefix of PREFIXES) {
      const res = await call("/users/revoke_invite", { json: { token: invite.token }, prefix });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ...invite, used: true });
    }
    expect(await db.invite.findUnique({ where: { token: invite.token } })).toMatchObject({ used: true, uses: 0 });
    const unknown = await call("/users/revoke_invite", { json: { token: "no-such-token" } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Not found" });
    const missing = await call("/users/revoke_invite", { json: {} });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("Missing field: token.");
  });

  describe("email_invite", () => {
    test("with registrations open: 400 with the family's message", async () => {
      await setConfig({ registrations_open: true, invites_enabled: true });
      const before = await db.invite.count();
      const res = await call("/users/email_invite", { json: { email: "guest@example.test" } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual([{ error: "To send invites you need to set the `registrations_open` option to false." }]);
      expect(await db.invite.count()).toBe(before);
      expect(readMails(server.dataDir).filter((m) => m.to.includes("guest@example.test"))).toEqual([]);
    });

    test("with invites disabled: 400 with the family's message", async () => {
      await setConfig({ registrations_open: false, invites_enabled: false });
      const res = await call("/users/email_invite", { json: { email: "guest@example.test" }, prefix: PREFIXES[1] });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual([{ error: "To send invites you need to set the `invites_enabled` option to true." }]);
    });

    test("sends a one-time invite's registration link, which registers once", async () => {
      await setConfig({ registrations_open: false, invites_enabled: true });
      const res = await call("/users/email_invite", { json: { email: "jd@example.test", name: 'J. "D"' } });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      const invite = await db.invite.findFirstOrThrow({ orderBy: { id: "desc" } });
      expect(invite).toMatchObject({ inviteType: "one_time", used: false, uses: 0 });
      const mail = readMails(server.dataDir).find((m) => m.to.includes("jd@example.test"))!;
      expect(mail.to).toBe('"J. D" <jd@example.test>');
      expect(mail.subject).toBe(`Invitation to ${server.services.config.get("instance", "name")}`);
      expect(mail.decoded).toContain("ada invites you to join");
      expect(linkIn(mail, BASE, /^\/registration\//)).toBe(`/registration/${encodeURIComponent(invite.token)}`);

      expect((await register("mailed1", invite.token)).status).toBe(200);
      expect(await db.invite.findUnique({ where: { id: invite.id } })).toMatchObject({ used: true });
      expect((await register("mailed2", invite.token)).status).toBe(400);
    });

    test("a missing or malformed address: 400", async () => {
      await setConfig({ registrations_open: false, invites_enabled: true });
      for (const json of [{}, { email: "not an address" }]) {
        const res = await call("/users/email_invite", { json });
        expect(res.status).toBe(400);
        expect((await res.json())[0].error).toMatch(/email/);
      }
    });
  });

  describe("registration spends admin-made invites", () => {
    beforeEach(() => setConfig({ registrations_open: false, invites_enabled: true }));
    const status = async (nickname: string, invite: string) => (await register(nickname, invite)).status;
    const row = (t: string) => db.invite.findUniqueOrThrow({ where: { token: t } });

    test("one_time: used after one registration", async () => {
      const { token: t } = await create();
      expect(await status("ot1", t)).toBe(200);
      expect(await row(t)).toMatchObject({ used: true });
      expect(await status("ot2", t)).toBe(400);
    });

    test("reusable: until max_use registrations", async () => {
      const { token: t } = await create({ max_use: 2 });
      expect(await status("ru1", t)).toBe(200);
      expect(await row(t)).toMatchObject({ used: false, uses: 1 });
      expect(await status("ru2", t)).toBe(200);
      expect(await row(t)).toMatchObject({ used: true, uses: 2 });
      expect(await status("ru3", t)).toBe(400);
    });

    test("date_limited: any number through its date, refused after it", async () => {
      const { token: today } = await create({ expires_at: isoDay(Date.now()) });
      const { token: past } = await create({ expires_at: isoDay(Date.now() - DAY) });
      expect(await status("dl1", today)).toBe(200);
      expect(await status("dl2", today)).toBe(200);
      expect(await row(today)).toMatchObject({ used: false, uses: 0 });
      const expired = await register("dl3", past);
      expect(expired.status).toBe(400);
      expect((await expired.json()).error).toBe("Validation failed: Invite token has expired");
    });

    test("reusable_date_limited: both limits apply", async () => {
      const { token: t } = await create({ max_use: 1, expires_at: isoDay(Date.now() + DAY) });
      const { token: old } = await create({ max_use: 5, expires_at: isoDay(Date.now() - 2 * DAY) });
      expect(await status("rd1", t)).toBe(200);
      expect(await row(t)).toMatchObject({ used: true, uses: 1 });
      expect(await status("rd2", t)).toBe(400);
      expect(await status("rd3", old)).toBe(400);
    });

    test("revoked: refused whatever its type", async () => {
      const { token: t } = await create({ max_use: 10 });
      await call("/users/revoke_invite", { json: { token: t } });
      const res = await register("rv1", t);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Validation failed: Invite token has already been used");
      expect(await db.account.findUnique({ where: { nickname: "rv1" } })).toBeNull();
    });
  });

  describe("privileges", () => {
    const endpoints: [string, string, unknown?][] = [
      ["POST", "/users/invite_token", {}],
      ["GET", "/users/invites"],
      ["POST", "/users/revoke_invite", { token: "x" }],
      ["POST", "/users/email_invite", { email: "a@example.test" }],
    ];

    test("a moderator lacks users_manage_invites by default; a plain user and anonymous are refused", async () => {
      const before = await db.invite.count();
      for (const [method, path, json] of endpoints) {
        for (const [who, error] of [
          ["mo", "User isn't privileged."],
          ["joe", "User is not a staff member."],
          [null, "Invalid credentials."],
        ] as const) {
          const res = await call(path, { method, json, who });
          expect(res.status, `${method} ${path} as ${who}`).toBe(403);
          expect(await res.json()).toEqual({ error });
        }
      }
      expect(await db.invite.count()).toBe(before);
    });

    test("the privilege lists are runtime settings; admin scopes are still needed", async () => {
      await setConfig({ moderator_privileges: ["users_manage_invites"] });
      expect((await call("/users/invites", { who: "mo" })).status).toBe(200);
      await setConfig({ admin_privileges: [] });
      const refused = await call("/users/invites");
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: "User isn't privileged." });
      await db.configEntry.deleteMany({});
      await server.services.config.reload();
      const noScope = await call("/users/invite_token", { json: {}, who: "adaNoAdmin" });
      expect(noScope.status).toBe(403);
      expect(await noScope.json()).toEqual({ error: "Insufficient permissions: admin:write:invites." });
    });
  });
});
