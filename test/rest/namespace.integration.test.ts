import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerApp, startTestServer, type TestServer } from "../support/server.ts";

describe("API_NAMESPACE=pleroma moves paths, JSON keys and the cookie name", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma" });
  });
  afterAll(() => server?.close());

  test("own-API paths live under /api/v1/pleroma and no longer under /api/v1/ext", async () => {
    const moved = await server.fetch("/api/v1/pleroma/healthcheck");
    expect(moved.status).toBe(200);
    expect((await moved.json()).healthy).toBe(true);
    expect((await server.fetch("/api/v1/ext/healthcheck")).status).toBe(404);
  });

  test("the instance object carries the pleroma key and marker", async () => {
    const body = await (await server.fetch("/api/v1/instance")).json();
    expect(body.pleroma?.metadata).toBeDefined();
    expect(body.ext).toBeUndefined();
    expect(body.version).toContain("(compatible; Pleroma ");
  });

  test("the session cookie is _pleroma_key and authenticates", async () => {
    await server.createUser("nina");
    const app = await registerApp(server);
    const res = await server.fetch("/oauth/authorize", {
      method: "POST",
      form: {
        "authorization[name]": "nina",
        "authorization[password]": "secret-password",
        "authorization[client_id]": app.client_id,
        "authorization[redirect_uri]": "urn:ietf:wg:oauth:2.0:oob",
        "authorization[scope]": "read",
      },
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^_pleroma_key=/);
    const tokens = await server.fetch("/api/oauth_tokens", { headers: { cookie: cookie.split(";")[0] } });
    expect(tokens.status).toBe(200);
  });

  test("the OpenAPI document describes the moved paths", async () => {
    const doc = await (await server.fetch("/api/openapi")).json();
    expect(Object.keys(doc.paths)).toContain("/api/v1/pleroma/healthcheck");
    expect(doc.components.securitySchemes.session.name).toBe("_pleroma_key");
  });
});

describe("default namespace", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  });
  afterAll(() => server?.close());

  test("healthcheck is under /api/v1/ext with the family's fields", async () => {
    const res = await server.fetch("/api/v1/ext/healthcheck");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ healthy: true, pool_size: 1 });
    expect(typeof body.memory_used).toBe("number");
    expect(body.job_queue_stats).toBeTypeOf("object");
    expect((await server.fetch("/api/v1/pleroma/healthcheck")).status).toBe(404);
  });
});
