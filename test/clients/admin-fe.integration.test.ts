// The family's admin front end, replayed: its sign-in (an app with the admin scopes, the password
// grant without `scope`, then verify_credentials, where it admits `pleroma.is_admin` or a non-empty
// `pleroma.privileges`) and the reads of its screens, with the query strings it sends
// (../shared/notes/adminfe-calls.tsv), under the pleroma profile. Each asserts the fields it reads.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";

const A = "/api/v1/pleroma/admin";

/** admin-fe's loginByUsername: POST /api/v1/apps then /oauth/token, both JSON. */
async function signIn(server: TestServer, username: string, password: string) {
  const app = await (
    await server.fetch("/api/v1/apps", { json: { client_name: `AdminFE_${Math.random()}`, redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow push admin" } })
  ).json();
  const res = await server.fetch("/oauth/token", { json: { client_id: app.client_id, client_secret: app.client_secret, grant_type: "password", username, password } });
  expect(res.status).toBe(200);
  const token = (await res.json()).access_token as string;
  const me = await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${token}` } })).json();
  return { token, me };
}

/** admin-fe's store/modules/user.js: who may use the admin front end. */
const admitted = (me: { pleroma?: { is_admin?: boolean | null; privileges?: string[] } }) => me.pleroma?.is_admin === true || (me.pleroma?.privileges?.length ?? 0) > 0;

describe("the family's admin front end (pleroma profile)", () => {
  let server: TestServer;
  let token: string;
  const get = async (path: string) => {
    const res = await server.fetch(path, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text() };
  };

  beforeAll(async () => {
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", API_FAMILY: "pleroma", CONFIGURABLE_FROM_DATABASE: "true" });
    await server.createUser("admin", { admin: true });
    await server.createUser("moderator", { moderator: true });
    await server.createUser("someone");
    token = (await signIn(server, "admin", "secret-password")).token;
  });
  afterAll(() => server?.close());

  test("sign-in: admins and moderators are admitted, by e-mail address too; ordinary users are not", async () => {
    const admin = await signIn(server, "admin", "secret-password");
    expect(admin.me.pleroma).toMatchObject({ is_admin: true, privileges: expect.arrayContaining(["users_read", "reports_manage_reports"]) });
    expect(admitted(admin.me)).toBe(true);
    expect(admitted((await signIn(server, "moderator@example.test", "secret-password")).me)).toBe(true);
    expect(admitted((await signIn(server, "someone", "secret-password")).me)).toBe(false);
  });

  test.each([
    ["users", `${A}/users?page=1&filters=local`, (b: any) => expect(b).toMatchObject({ count: 3, page_size: 50, users: expect.any(Array) })],
    ["admins", `${A}/users?filters=is_admin`, (b: any) => expect(b.users.map((u: any) => u.nickname)).toEqual(["admin"])],
    ["user search", `${A}/users?query=some&page=1&filters=`, (b: any) => expect(b.users.map((u: any) => u.nickname)).toEqual(["someone"])],
    ["one user", `${A}/users/someone`, (b: any) => expect(b).toMatchObject({ nickname: "someone", roles: { admin: false, moderator: false } })],
    ["reports", `${A}/reports?page=1&page_size=50`, (b: any) => expect(b).toEqual({ total: 0, reports: [] })],
    ["open reports", `${A}/reports?state=open&page=1&page_size=50`, (b: any) => expect(b).toEqual({ total: 0, reports: [] })],
    ["relays", `${A}/relay`, (b: any) => expect(b).toEqual({ relays: [] })],
    ["settings", `${A}/config`, (b: any) => expect(b.configs.find((c: any) => c.key === ":instance").group).toBe(":pleroma")],
    ["descriptions", `${A}/config/descriptions`, (b: any) => expect(b.find((d: any) => d.key === ":instance")).toMatchObject({ group: ":pleroma", children: expect.any(Array) })],
    ["need_reboot", `${A}/need_reboot`, (b: any) => expect(b).toEqual({ need_reboot: false })],
    ["moderation log", `${A}/moderation_log?page=1`, (b: any) => expect(b).toMatchObject({ items: expect.any(Array), total: expect.any(Number) })],
    ["statistics", `${A}/stats`, (b: any) => expect(b.status_visibility).toMatchObject({ public: 0, unlisted: 0, private: 0, direct: 0 })],
    ["statuses", `${A}/statuses?godmode=false&local_only=true&page=1&page_size=20`, (b: any) => expect(b).toEqual([])],
    ["invites", `${A}/users/invites`, (b: any) => expect(b).toEqual({ invites: [] })],
    ["media proxy bans", `${A}/media_proxy_caches?page=1&page_size=50`, (b: any) => expect(b).toMatchObject({ urls: [], count: 0 })],
    ["frontends", `${A}/frontends`, (b: any) => expect(b.map((f: any) => f.name)).toContain("admin-fe")],
    ["emoji packs", "/api/v1/pleroma/emoji/packs?page=1&page_size=50", (b: any) => expect(b).toMatchObject({ count: 0, packs: {} })],
    ["peers", "/api/v1/instance/peers", (b: any) => expect(b).toEqual([])],
    ["nodeinfo", "/nodeinfo/2.0.json", (b: any) => expect(b.metadata.features).toContain("pleroma_api")],
  ])("%s: %s", async (_name, path, check) => {
    const res = await get(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    check(res.body);
  });
});
