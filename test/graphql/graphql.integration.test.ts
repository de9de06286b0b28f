import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL on %s", (kind) => {
  let server: TestServer;
  const gql = (query: string, token?: string, variables?: Record<string, unknown>) =>
    server.fetch("/graphql", { json: { query, variables }, headers: token ? { authorization: `Bearer ${token}` } : {} }).then((r) => r.json());

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  test("the viewer is resolved from the same Bearer tokens as REST", async () => {
    await server.createUser("gina");
    const { access_token } = await passwordToken(server, "gina");
    expect((await gql("{ viewer { nickname isAdmin } }", access_token)).data).toEqual({ viewer: { nickname: "gina", isAdmin: false } });
    expect((await gql("{ viewer { nickname } }")).data).toEqual({ viewer: null });
  });

  test("staff-only fields are refused to others", async () => {
    const { access_token } = await passwordToken(server, "gina");
    const r = await gql("{ viewer { email } }", access_token);
    // the e-mail is users_read's: without the privilege the nullable field is null, not an error, so staff
    // queries that select accounts keep answering (test/rest/authorization-matrix covers each role)
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ viewer: { email: null } });
    const row = await server.services.db.account.findFirstOrThrow({ where: { nickname: "gina" } });
    expect(row.email).toBeTruthy();
  });

  test("registerApp runs the same operation as POST /api/v1/apps", async () => {
    const r = await gql('mutation { registerApp(name: "gql app", redirectUris: ["https://app.test/cb"], scopes: ["read"]) { clientSecret app { id name clientId scopes } } }');
    expect(r.errors).toBeUndefined();
    const row = await server.services.db.oAuthApp.findUniqueOrThrow({ where: { id: Number(r.data.registerApp.app.id) } });
    expect(row).toMatchObject({ name: "gql app", clientId: r.data.registerApp.app.clientId, clientSecret: r.data.registerApp.clientSecret, scopes: ["read"] });
    // the same validation as REST: a bad redirect URI is refused with the domain's message
    const bad = await gql('mutation { registerApp(name: "x", redirectUris: ["not a uri"]) { clientSecret } }');
    expect(bad.errors[0]).toMatchObject({ message: expect.stringContaining("Invalid URI"), extensions: { code: "INVALID" } });
  });

  test("unexpected errors are masked, never a stack trace", async () => {
    const r = await gql("{ nope }");
    expect(r.errors[0].message).toMatch(/Cannot query field/);
    expect(JSON.stringify(r)).not.toMatch(/at .*\.ts:\d+/);
  });

  test("serverTime ticks over graphql-ws on the same path", async () => {
    const client = createClient({ url: server.url.replace("http", "ws") + "/graphql", webSocketImpl: WebSocket, lazy: true });
    const ticks: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const stop = client.subscribe<{ serverTime: string }>(
        { query: "subscription { serverTime(intervalMs: 100) }" },
        {
          next: (msg) => {
            ticks.push(msg.data!.serverTime);
            if (ticks.length === 3) {
              stop();
              resolve();
            }
          },
          error: reject,
          complete: () => {},
        },
      );
    });
    await client.dispose();
    expect(ticks).toHaveLength(3);
    expect(new Date(ticks[2]).getTime()).toBeGreaterThanOrEqual(new Date(ticks[0]).getTime() + 150);
  });
});
