// Routes the family's clients call that were missing (issue 18): the legacy frontend_configurations
// path, the direct timeline, the user's own apps, per-app settings, federation status, the web app
// manifest and an account's identity proofs. Under the pleroma profile, as those clients run.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("routes the family's clients call (pleroma profile)", () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  const call = async (who: string | null, method: string, path: string, json?: unknown) => {
    const res = await server.fetch(path, { method, ...(json !== undefined ? { json } : {}), headers: who ? bearer(tokens[who]!) : {} });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type") ?? "", body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", API_FAMILY: "pleroma" });
    for (const nick of ["ann", "bob", "cat"]) {
      await server.createUser(nick);
      tokens[nick] = (await passwordToken(server, nick, "read write follow push")).access_token;
    }
    tokens.annReadOnly = (await passwordToken(server, "ann", "read:statuses")).access_token;
  });
  afterAll(() => server?.close());

  test("frontend_configurations also answers at the legacy /api/<ns>/ path the web client calls at boot", async () => {
    const legacy = await call(null, "GET", "/api/pleroma/frontend_configurations");
    expect(legacy.status).toBe(200);
    expect(legacy.body.pleroma_fe).toMatchObject({ theme: "pleroma-dark", loginMethod: "password" });
    expect(legacy.body).toEqual((await call(null, "GET", "/api/v1/pleroma/frontend_configurations")).body);
  });

  test("the direct timeline lists direct statuses the viewer wrote or is addressed by, newest first, with paging", async () => {
    const post = async (who: string, status: string, visibility: string) => (await call(who, "POST", "/api/v1/statuses", { status, visibility })).body.id as string;
    const toBob = await post("ann", "@bob just us", "direct");
    const fromBob = await post("bob", "@ann and back", "direct");
    const toCat = await post("bob", "@cat only cat", "direct");
    await post("ann", "public words", "public");
    await post("ann", "@bob followers only", "private");

    const ann = await call("ann", "GET", "/api/v1/timelines/direct");
    expect(ann.status).toBe(200);
    expect(ann.body.map((s: { id: string }) => s.id)).toEqual([fromBob, toBob]);
    expect(ann.body.every((s: { visibility: string }) => s.visibility === "direct")).toBe(true);
    expect((await call("bob", "GET", "/api/v1/timelines/direct")).body.map((s: { id: string }) => s.id)).toEqual([toCat, fromBob, toBob]);
    expect((await call("cat", "GET", "/api/v1/timelines/direct")).body.map((s: { id: string }) => s.id)).toEqual([toCat]);
    const paged = await call("bob", "GET", `/api/v1/timelines/direct?limit=1&max_id=${toCat}`);
    expect(paged.body.map((s: { id: string }) => s.id)).toEqual([fromBob]);
    expect((await call(null, "GET", "/api/v1/timelines/direct")).status).toBe(403);

    const gql = await server.fetch("/graphql", { json: { query: "{ directTimeline(first: 5) { edges { node { id } } } }" }, headers: bearer(tokens.cat!) });
    expect((await gql.json()).data.directTimeline.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([toCat]);
  });

  test("GET /api/v1/<ns>/apps lists the apps the user registered with their token, with credentials", async () => {
    const mine = await call("cat", "POST", "/api/v1/apps", { client_name: "cat's client", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" });
    expect(mine.status).toBe(200);
    await call(null, "POST", "/api/v1/apps", { client_name: "anonymous client", redirect_uris: "urn:ietf:wg:oauth:2.0:oob" });
    const listed = await call("cat", "GET", "/api/v1/pleroma/apps");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: mine.body.id, name: "cat's client", client_id: mine.body.client_id, client_secret: mine.body.client_secret, scopes: ["read"] })]);
    expect((await call("bob", "GET", "/api/v1/pleroma/apps")).body).toEqual([]);
    expect((await call(null, "GET", "/api/v1/pleroma/apps")).status).toBe(403);
  });

  test("per-app settings: PATCH merges (null removes a key), GET reads them, other apps are untouched", async () => {
    expect(await call("ann", "GET", "/api/v1/pleroma/settings/soapbox_fe")).toMatchObject({ status: 200, body: {} });
    expect((await call("ann", "PATCH", "/api/v1/pleroma/settings/soapbox_fe", { theme: "dark", nested: { a: 1 } })).body).toEqual({ theme: "dark", nested: { a: 1 } });
    await call("ann", "PATCH", "/api/v1/pleroma/settings/other_fe", { x: true });
    const merged = await call("ann", "PATCH", "/api/v1/pleroma/settings/soapbox_fe", { theme: null, locale: "fr" });
    expect(merged).toMatchObject({ status: 200, body: { nested: { a: 1 }, locale: "fr" } });
    expect(merged.body).not.toHaveProperty("theme");
    expect((await call("ann", "GET", "/api/v1/pleroma/settings/soapbox_fe")).body).toEqual({ nested: { a: 1 }, locale: "fr" });
    expect((await call("ann", "GET", "/api/v1/pleroma/settings/other_fe")).body).toEqual({ x: true });
    // the same store the owner's account shows
    const me = await call("ann", "GET", "/api/v1/accounts/verify_credentials");
    expect(me.body.pleroma.settings_store).toEqual({ soapbox_fe: { nested: { a: 1 }, locale: "fr" }, other_fe: { x: true } });
    expect((await call("bob", "GET", "/api/v1/pleroma/settings/soapbox_fe")).body).toEqual({});
    expect((await call("annReadOnly", "PATCH", "/api/v1/pleroma/settings/soapbox_fe", { theme: "x" })).status).toBe(403);
  });

  test("federation_status lists instances unreachable for 7 days or more", async () => {
    const day = 24 * 60 * 60 * 1000;
    await server.services.db.instance.createMany({
      data: [
        { domain: "gone.example", unreachableSince: new Date(Date.now() - 8 * day) },
        { domain: "flaky.example", unreachableSince: new Date(Date.now() - day) },
        { domain: "fine.example" },
      ],
    });
    const status = await call(null, "GET", "/api/v1/pleroma/federation_status");
    expect(status).toMatchObject({ status: 200, body: { unreachable: { "gone.example": expect.any(String) } } });
    expect(Object.keys(status.body.unreachable)).toEqual(["gone.example"]);
  });

  test("/manifest.json describes the instance from its settings", async () => {
    const manifest = await call(null, "GET", "/manifest.json");
    expect(manifest.status).toBe(200);
    expect(manifest.type).toContain("application/manifest+json");
    expect(manifest.body).toMatchObject({
      name: server.services.config.get("instance", "name"),
      description: server.services.config.get("instance", "description"),
      theme_color: "#282c37",
      background_color: "#191b22",
      display: "standalone",
      start_url: "/",
      icons: [{ src: "http://localhost:4000/instance/thumbnail.jpeg", type: "image/jpeg" }],
    });
  });

  test("an account's identity proofs are an empty list, as the later family answers", async () => {
    const bob = (await call("ann", "GET", "/api/v1/accounts/bob")).body;
    expect(await call("ann", "GET", `/api/v1/accounts/${bob.id}/identity_proofs`)).toMatchObject({ status: 200, body: [] });
  });
});
