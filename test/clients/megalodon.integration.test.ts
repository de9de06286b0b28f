// An outside client: megalodon's Pleroma driver (it recognises the family through nodeinfo) reading
// the home timeline and notifications. The driver hard-codes the family's namespace word, so the
// server runs with API_NAMESPACE=pleroma, as an operator serving such clients would.
import net from "node:net";
import generator from "megalodon";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe("the megalodon client (Pleroma driver)", () => {
  let server: TestServer;
  let token: string;
  let other: string;

  beforeAll(async () => {
    // detection follows nodeinfo's links, so the public URL must be the real one
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    server = await startTestServer("pglite", { API_NAMESPACE: "pleroma", PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
    await server.createUser("meg");
    await server.createUser("lou");
    token = (await passwordToken(server, "meg")).access_token;
    other = (await passwordToken(server, "lou")).access_token;
  });
  afterAll(() => server?.close());

  const as = (t: string, path: string, json: unknown) => server.fetch(path, { json, headers: { authorization: `Bearer ${t}` } });

  test("detects the server as Pleroma through nodeinfo", async () => {
    const { detector } = await import("megalodon");
    expect(await detector(server.url)).toBe("pleroma");
  });

  test("reads the home timeline and notifications", async () => {
    const lou = await (await server.fetch("/api/v1/accounts/lou")).json();
    await as(token, `/api/v1/accounts/${lou.id}/follow`, {});
    await as(other, "/api/v1/statuses", { status: "hi @meg from lou" });
    await as(token, "/api/v1/statuses", { status: "my own post" });

    const client = generator("pleroma", server.url, token);
    const home = await client.getHomeTimeline({ limit: 10 });
    expect(home.status).toBe(200);
    expect(home.data.map((s) => s.content)).toEqual(["my own post", expect.stringContaining("from lou")]);
    expect(home.data[1].account.acct).toBe("lou");

    const notifications = await client.getNotifications();
    expect(notifications.data).toHaveLength(1);
    expect(notifications.data[0]).toMatchObject({ type: "mention", account: expect.objectContaining({ acct: "lou" }) });
    expect(notifications.data[0].status?.content).toContain("from lou");
  });
});
