// Parameters arrive as JSON, urlencoded or multipart, with arrays as `name[]=`; all reach the same schema.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("request encodings", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  });
  afterAll(() => server?.close());

  const expectApp = async (res: Response) => {
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.scopes).toEqual(["read", "write:statuses"]);
    const row = await server.services.db.oAuthApp.findUniqueOrThrow({ where: { id: Number(body.id) } });
    expect(row.scopes).toEqual(["read", "write:statuses"]);
  };

  test("urlencoded scopes[]=a&scopes[]=b", async () => {
    const body = "client_name=f&redirect_uris=urn:ietf:wg:oauth:2.0:oob&scopes[]=read&scopes[]=write:statuses";
    await expectApp(await server.fetch("/api/v1/apps", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }));
  });

  test("multipart scopes[] fields", async () => {
    const form = new FormData();
    form.append("client_name", "f");
    form.append("redirect_uris", "urn:ietf:wg:oauth:2.0:oob");
    form.append("scopes[]", "read");
    form.append("scopes[]", "write:statuses");
    await expectApp(await server.fetch("/api/v1/apps", { method: "POST", body: form }));
  });

  test("query-string parameters on a POST, and a JSON array", async () => {
    await expectApp(await server.fetch("/api/v1/apps?client_name=f&redirect_uris=urn:ietf:wg:oauth:2.0:oob&scopes[]=read&scopes[]=write:statuses", { method: "POST" }));
    await expectApp(await server.fetch("/api/v1/apps", { json: { client_name: "f", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: ["read", "write:statuses"] } }));
  });
});
