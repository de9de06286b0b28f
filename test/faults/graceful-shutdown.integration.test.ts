// SIGTERM: the server stops accepting connections, finishes the requests in flight (an upload still
// arriving), closes WebSockets with 1001 and a reason, and exits 0. Real process on PostgreSQL.
import http from "node:http";
import fs from "node:fs";
import WebSocket from "ws";
import { describe, expect, test, vi } from "vitest";
import { serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
const PNG = fs.readFileSync("src/media/assets/avi.png");

describe("graceful shutdown (SIGTERM)", () => {
  const suite = serverPerSuite();

  test("in-flight requests finish, new connections are refused, sockets close with a reason, exit 0", async () => {
    const { server } = suite;
    const { alice } = await usersOn(server.url, ["alice"]);
    const url = new URL(server.url);

    // a streaming client and a GraphQL WebSocket client
    const closes: { code: number; reason: string }[] = [];
    const token = alice.auth.authorization.slice(7);
    for (const target of [`ws://${url.host}/api/v1/streaming?stream=public&access_token=${token}`]) {
      const ws = new WebSocket(target);
      await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
      ws.on("close", (code, reason) => closes.push({ code, reason: reason.toString() }));
    }
    const gql = new WebSocket(`ws://${url.host}/graphql`, "graphql-transport-ws");
    await new Promise((resolve, reject) => gql.once("open", resolve).once("error", reject));
    gql.send(JSON.stringify({ type: "connection_init", payload: { authorization: alice.auth.authorization } }));
    await new Promise((resolve) => gql.once("message", resolve));
    gql.on("close", (code, reason) => closes.push({ code, reason: reason.toString() }));

    // an upload whose body is still arriving when SIGTERM comes
    const boundary = "----faults";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, PNG, tail]);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/v1/media`, { method: "POST", headers: { ...alice.auth, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(body.length) } }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", reject);
      req.write(body.subarray(0, 100));
      setTimeout(() => req.end(body.subarray(100)), 2500); // the rest after SIGTERM
    });
    // time is the behaviour: the upload's first bytes get 500 ms to be taken in before SIGTERM (the request
    // is in flight inside the server then; nothing outside it shows that moment)
    await new Promise((r) => setTimeout(r, 500));
    const exited = server.signal("SIGTERM");

    // new connections are refused while the upload finishes
    await waitFor(async () => fetch(`${server.url}/api/v1/instance`).then(() => false, () => true), "the listener to close", { timeoutMs: 2000 });
    const upload = await answer;
    expect(upload.status, upload.body).toBe(200);
    const media = JSON.parse(upload.body);
    expect(await exited).toBe(0);

    expect(closes).toHaveLength(2);
    for (const close of closes) {
      expect(close.code).toBe(1001);
      expect(close.reason.length).toBeGreaterThan(0);
    }

    // the upload was stored
    await server.start();
    expect((await fetch(`${server.url}/api/v1/media/${media.id}`, { headers: alice.auth })).status).toBe(200);
  });
});
