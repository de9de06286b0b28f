// The `pleroma` compatibility profile (API_NAMESPACE=pleroma API_FAMILY=pleroma, the set-up the family's
// real clients need): the namespace and family objects merge without loss, NodeInfo and instance features
// are listed once, and the shapes the family's admin front end reads (relay list, email_invite errors).
// The default profile keeps the spec's shapes and two separate objects.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_PRIVILEGES } from "../../src/config/runtime.ts";
import { bearer, cast } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

async function setUp(server: TestServer) {
  const { token: tokens } = await cast(server, { boss: { admin: true }, mod: { moderator: true }, joe: {} });
  await server.services.db.relay.create({ data: { id: "01relay0000000000000000000", actor: "https://relay.example.test/actor", state: "accepted" } });
  return tokens;
}

describe("the pleroma profile (API_NAMESPACE=pleroma API_FAMILY=pleroma)", () => {
  let server: TestServer;
  let tokens: Record<string, string>;
  const get = async (path: string, who: string | null = "boss") => {
    const res = await server.fetch(path, { headers: who ? bearer(tokens[who]!) : {} });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", API_FAMILY: "pleroma" });
    tokens = await setUp(server);
  });
  afterAll(() => server?.close());

  test("verify_credentials keeps the namespace fields (is_admin, privileges, settings) beside the family fields", async () => {
    const { status, body } = await get("/api/v1/accounts/verify_credentials");
    expect(status).toBe(200);
    expect(body.pleroma).toMatchObject({
      ap_id: expect.stringContaining("/users/boss"),
      is_admin: true,
      is_moderator: false,
      privileges: [...ADMIN_PRIVILEGES],
      settings_store: {},
      notification_settings: expect.any(Object),
      unread_notifications_count: 0,
      // the family object's fields, in the same object
      instance: null,
      permit_followback: false,
      web_feed: null,
    });
    expect(body.pleroma).toHaveProperty("status_ttl_days");
    // the family's admin front end signs in when `pleroma.is_admin` or privileges are there
    const signIn = (a: { pleroma: { is_admin?: boolean; privileges?: string[] } }) => a.pleroma.is_admin === true || (a.pleroma.privileges?.length ?? 0) > 0;
    expect(signIn(body)).toBe(true);

    const mod = (await get("/api/v1/accounts/verify_credentials", "mod")).body;
    expect(mod.pleroma).toMatchObject({ is_admin: false, is_moderator: true, privileges: ["messages_delete", "reports_manage_reports"], permit_followback: false });
    expect(signIn(mod)).toBe(true);
    const joe = (await get("/api/v1/accounts/verify_credentials", "joe")).body;
    expect(joe.pleroma).toMatchObject({ is_admin: false, privileges: [], permit_followback: false });
    expect(signIn(joe)).toBe(false);
  });

  test("other views: another account, a status's account and its poll carry both objects' fields", async () => {
    const posted = await server.fetch("/api/v1/statuses", {
      json: { status: "which?", poll: { options: ["a", "b"], expires_in: 3600 } },
      headers: bearer(tokens.joe!),
    });
    expect(posted.status).toBe(200);
    const status = await posted.json();
    expect(status.pleroma).toMatchObject({ local: true, content: { "text/plain": "which?" } });
    expect(status.account.pleroma).toMatchObject({ ap_id: expect.stringContaining("/users/joe"), permit_followback: false, instance: null });
    expect(status.poll.pleroma).toEqual({ anonymous: null });

    const seen = (await get(`/api/v1/accounts/${status.account.id}`, "boss")).body;
    expect(seen.pleroma).toMatchObject({ ap_id: expect.any(String), tags: [], permit_followback: false, web_feed: null });
    // the namespace fields survive the merge in accounts seen by others too
    expect(seen.pleroma).toHaveProperty("is_admin");
  });

  test("instance and NodeInfo list each feature once", async () => {
    const instance = (await get("/api/v1/instance", null)).body;
    const features: string[] = instance.pleroma.metadata.features;
    expect(features).toContain("pleroma_api");
    expect(new Set(features).size).toBe(features.length);
    const links = (await get("/.well-known/nodeinfo", null)).body.links as { href: string }[];
    for (const { href } of links) {
      const info = (await get(new URL(href).pathname, null)).body;
      expect(new Set(info.metadata.features).size).toBe(info.metadata.features.length);
    }
  });

  test("the relay list is {relays: [...]}, as the family's admin front end reads it", async () => {
    expect(await get("/api/v1/pleroma/admin/relay")).toEqual({ status: 200, body: { relays: [{ actor: "https://relay.example.test/actor", followed_back: false }] } });
  });

  test("email_invite errors are {error}, not wrapped in an array", async () => {
    const res = await server.fetch("/api/v1/pleroma/admin/users/email_invite", { json: { email: "friend@example.test" }, headers: bearer(tokens.boss!) });
    expect([res.status, await res.json()]).toEqual([400, { error: "To send invites you need to set the `registrations_open` option to false." }]);
  });
});

describe("the default profile (spec shapes)", () => {
  let server: TestServer;
  let tokens: Record<string, string>;
  const get = async (path: string) => {
    const res = await server.fetch(path, { headers: bearer(tokens.boss!) });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    server = await startTestServer("pglite");
    tokens = await setUp(server);
  });
  afterAll(() => server?.close());

  test("the namespace and family objects are separate; privileges are in the namespace object", async () => {
    const { body } = await get("/api/v1/accounts/verify_credentials");
    expect(body.ext).toMatchObject({ is_admin: true, privileges: [...ADMIN_PRIVILEGES] });
    expect(body.ext).not.toHaveProperty("permit_followback");
    expect(body.own).toEqual({ instance: null, status_ttl_days: null, permit_followback: false, web_feed: null });
  });

  test("the relay list is the spec's array and email_invite errors the spec's array of {error}", async () => {
    expect(await get("/api/v1/ext/admin/relay")).toEqual({ status: 200, body: [{ actor: "https://relay.example.test/actor", followed_back: false }] });
    const res = await server.fetch("/api/v1/ext/admin/users/email_invite", { json: { email: "friend@example.test" }, headers: bearer(tokens.boss!) });
    expect([res.status, await res.json()]).toEqual([400, [{ error: "To send invites you need to set the `registrations_open` option to false." }]]);
  });

  test("features are listed once", async () => {
    const features: string[] = (await get("/api/v1/instance")).body.ext.metadata.features;
    expect(features).toEqual(expect.arrayContaining(["ext_api", "own_api"]));
    expect(new Set(features).size).toBe(features.length);
  });
});
