// Own API mascot: the default, an image upload (stored like a media upload, kept on the account),
// 415 for a non-image whatever its claimed type, scopes enforced.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { DB_KINDS, suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const PNG = fs.readFileSync("src/media/assets/avi.png");

describe.each(suiteKinds(import.meta.url))("mascot on %s", (kind) => {
  let server: TestServer;
  let token: string;
  let readOnly: string;
  const put = (body: Buffer, type: string, name: string, t = token) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(body)], { type }), name);
    return server.fetch("/api/v1/ext/mascot", { method: "PUT", body: form, headers: { authorization: `Bearer ${t}` } });
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("mia");
    token = (await passwordToken(server, "mia")).access_token;
    readOnly = (await passwordToken(server, "mia", "read")).access_token;
  });
  afterAll(() => server?.close());

  test("default, upload, then the uploaded one; non-images 415; scopes", async () => {
    const get = async () => (await server.fetch("/api/v1/ext/mascot", { headers: { authorization: `Bearer ${token}` } })).json();
    expect(await get()).toEqual({ id: "default-mascot", url: "http://localhost:4000/images/avi.png", type: "image", ext: { mime_type: "image/png" } });

    const html = await put(Buffer.from("<html><script>x</script></html>"), "image/png", "fake.png");
    expect([html.status, await html.json()]).toEqual([415, { error: "mascots can only be images" }]);
    expect(await server.services.db.mediaAttachment.count()).toBe(0);

    const res = await put(PNG, "application/octet-stream", "m.bin");
    expect(res.status).toBe(200);
    const mascot = await res.json();
    expect(mascot).toEqual({ id: expect.any(String), url: expect.stringMatching(/^http:\/\/localhost:4000\/media\/[0-9a-z]{26}\/file\.png$/), type: "image", ext: { mime_type: "image/png" } });
    expect(await get()).toEqual(mascot);
    const served = await server.fetch(new URL(mascot.url).pathname);
    // served re-encoded without metadata (src/media/processing.ts): still the same PNG picture
    expect(Buffer.from(await served.arrayBuffer()).subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    expect(await server.services.db.mediaAttachment.findUnique({ where: { id: mascot.id } })).toMatchObject({ mimeType: "image/png" });

    const denied = await put(PNG, "image/png", "m.png", readOnly);
    expect(denied.status).toBe(403);
    expect((await server.fetch("/api/v1/ext/mascot")).status).toBe(403);
    const missing = await server.fetch("/api/v1/ext/mascot", { method: "PUT", body: new FormData(), headers: { authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(400);
  });
});

describe("frontend configurations", () => {
  test("served from the runtime setting, public", async () => {
    const server = await startTestServer(DB_KINDS[0]);
    try {
      const res = await server.fetch("/api/v1/ext/frontend_configurations");
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual(server.services.config.group("frontend_configurations"));
      expect(body.pleroma_fe).toMatchObject({ theme: "pleroma-dark", loginMethod: "password" });
      expect(body.masto_fe).toEqual({ showInstanceSpecificPanel: true });
    } finally {
      await server.close();
    }
  });
});
