// Rate limits (runtime settings `rate_limit.*`, the family's `:rate_limit`) and security headers.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, registerApp, startTestServer, type TestServer } from "../support/server.ts";

describe("abuse limits", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer("pglite", { RATE_LIMITS_ENABLED: "true", CONFIGURABLE_FROM_DATABASE: "true", ADMIN_TOKEN: "admin-secret" });
    await server.createUser("alice");
    await server.createUser("bob");
    token = (await passwordToken(server, "alice")).access_token; // one sign-in of the 15 allowed per minute
  });
  afterAll(() => server?.close());

  const setLimit = async (key: string, value: unknown) => {
    const res = await server.fetch("/api/v1/ext/admin/config", { headers: { "x-admin-token": "admin-secret" }, json: { configs: [{ group: ":pleroma", key: ":rate_limit", value: [{ tuple: [`:${key}`, value] }] }] } });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  test("sign-in: 15 attempts a minute per IP, then 429 with Retry-After and rate-limit headers; nothing is issued", async () => {
    const app = await registerApp(server);
    const attempt = () => server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "alice", password: "wrong" } });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 15; i++) {
      last = await attempt();
      statuses.push(last.status);
    }
    // the beforeAll sign-in used one: 14 more are answered, the 15th over the limit is refused
    expect(statuses.slice(0, 14)).toEqual(Array(14).fill(401));
    expect(statuses[14]).toBe(429);
    expect(await last!.json()).toEqual({ error: "Throttled" });
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(last!.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(last!.headers.get("x-ratelimit-limit")).toBe("15");
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Date.parse(last!.headers.get("x-ratelimit-reset")!)).toBeGreaterThan(Date.now());
    const tokensBefore = await server.services.db.oAuthToken.count();
    const right = await server.fetch("/oauth/token", { form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "alice", password: "secret-password" } });
    expect(right.status).toBe(429);
    expect(await server.services.db.oAuthToken.count()).toBe(tokensBefore);
    // the admin UI's sign-in (tRPC) shares the limit
    const trpc = await server.fetch("/trpc/session.signIn", { json: { username: "alice", password: "secret-password" } });
    expect(trpc.status).toBe(429);
  });

  test("posting: per account, configurable in the admin config like the family's :rate_limit", async () => {
    await setLimit("statuses_actions", { tuple: [60_000, 2] });
    const post = (t: string) => server.fetch("/api/v1/statuses", { headers: { authorization: `Bearer ${t}` }, json: { status: "hi" } });
    const first = await post(token);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await post(token)).status).toBe(200);
    const refused = await post(token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(await server.services.db.status.count()).toBe(2);
    // another account has its own bucket (the first test used up the sign-in limit of this IP: lift it to sign bob in)
    await setLimit("authentication", null);
    const bobToken = (await passwordToken(server, "bob")).access_token;
    expect((await post(bobToken)).status).toBe(200);
    // nil lifts the limit
    await setLimit("statuses_actions", null);
    expect((await post(token)).status).toBe(200);
  });

  test("unauthenticated timelines and search are limited per IP; signed-in timelines are not", async () => {
    await setLimit("timeline", [{ tuple: [60_000, 3] }, null]);
    const anon = [];
    for (let i = 0; i < 4; i++) anon.push((await server.fetch("/api/v1/timelines/public")).status);
    expect(anon).toEqual([200, 200, 200, 429]);
    for (let i = 0; i < 4; i++) expect((await server.fetch("/api/v1/timelines/public", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await setLimit("search", [{ tuple: [60_000, 1] }, { tuple: [60_000, 5] }]);
    expect((await server.fetch("/api/v2/search?q=x")).status).toBe(200);
    expect((await server.fetch("/api/v2/search?q=x")).status).toBe(429);
    expect((await server.fetch("/api/v2/search?q=x", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  test("a wrong value for a rate limit is refused by the admin config", async () => {
    const res = await server.fetch("/api/v1/ext/admin/config", { headers: { "x-admin-token": "admin-secret" }, json: { configs: [{ group: ":pleroma", key: ":rate_limit", value: [{ tuple: [":search", "fast"] }] }] } });
    expect(res.status).toBe(400);
    const descriptions = await (await server.fetch("/api/v1/ext/admin/config/descriptions", { headers: { "x-admin-token": "admin-secret" } })).json();
    const group = descriptions.find((d: { key: string }) => d.key === ":rate_limit");
    expect(group.children.map((c: { key: string }) => c.key)).toEqual(expect.arrayContaining([":authentication", ":app_account_creation", ":password_reset", ":statuses_actions", ":media_upload", ":search", ":timeline", ":enabled"]));
  });

  test("security headers on API answers, HTML pages, the admin UI and served files", async () => {
    const api = await server.fetch("/api/v1/instance");
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("referrer-policy")).toBe("same-origin");
    const page = await server.fetch("/oauth/authorize?client_id=x&redirect_uri=urn:ietf:wg:oauth:2.0:oob&response_type=code");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const admin = await server.fetch("/admin/");
    expect(admin.status).toBe(200);
    expect(admin.headers.get("content-security-policy")).toMatch(/default-src 'self'.*script-src 'self'.*frame-ancestors 'none'/);
    const media = await server.fetch("/media/nothing.png");
    expect(media.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(media.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
