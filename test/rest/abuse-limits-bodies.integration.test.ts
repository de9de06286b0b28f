// Abuse limits beyond the per-process counters: rate-limit counters shared by every process of an
// instance through Redis, per-route body limits, compressed request bodies counted after inflating,
// GraphQL and tRPC bodies bounded whatever Content-Length says (chunked, gzip), and GraphQL string
// arguments capped for fields without an operation behind them.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const MB = 1024 * 1024;

/** A raw HTTP request, so the test decides the framing (chunked, no Content-Length) and encoding. */
function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; chunks: Buffer[] }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "POST", headers: options.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // the server may answer 413 and close before the whole body is written
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    (async () => {
      for (const chunk of options.chunks) if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
      req.end();
    })().catch(() => {});
  });
}

describe("rate limits shared through Redis by the processes of one instance", () => {
  let a: TestServer;
  let b: RunningServer;
  const bDir = fs.mkdtempSync(path.join(os.tmpdir(), "ext-rl-b-"));
  beforeAll(async () => {
    const env = { RATE_LIMITS_ENABLED: "true", CONFIGURABLE_FROM_DATABASE: "true", ADMIN_TOKEN: "admin-secret", REDIS_URL };
    a = await startTestServer("postgres", env);
    // a second process of the same instance: same database, same Redis, its own port and data directory
    b = await startServer(loadSettings({ PORT: "0", DATA_DIR: bDir, DATABASE_URL: a.services.settings.databaseUrl, BASE_URL: "http://localhost:4000", LOG_LEVEL: "error", ...env }));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    fs.rmSync(bDir, { recursive: true, force: true });
  });

  test("anonymous searches counted once across both processes; 429 from either past the limit", async () => {
    const res = await a.fetch("/api/v1/ext/admin/config", { headers: { "x-admin-token": "admin-secret" }, json: { configs: [{ group: ":pleroma", key: ":rate_limit", value: [{ tuple: [":search", [{ tuple: [60_000, 4] }, null]] }] }] } });
    expect(res.status, await res.clone().text()).toBe(200);
    // b hears of the change through the bus
    await vi.waitFor(() => expect(b.services.config.get("rate_limit", "search").unauthenticated).toEqual({ scale_ms: 60_000, limit: 4 }), { timeout: 10_000 });
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 6; i++) {
      const url = (i % 2 ? b.url : a.url) + "/api/v2/search?q=x";
      const r = await fetch(url);
      statuses.push(r.status);
      remaining.push(r.headers.get("x-ratelimit-remaining")!);
    }
    // per-process counting would have let 4 through on each
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(["3", "2", "1", "0", "0", "0"]);
  });
});

describe("body limits", () => {
  let server: TestServer;
  let auth: { authorization: string };
  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("alice");
    auth = { authorization: `Bearer ${(await passwordToken(server, "alice")).access_token}` };
  });
  afterAll(() => server?.close());

  const statusCount = () => server.services.db.status.count();

  test("per route: 1 MiB by default, larger where a route declares it (imports); both in /api/openapi", async () => {
    const before = await statusCount();
    const big = await server.fetch("/api/v1/statuses", { headers: auth, json: { status: "x".repeat(2 * MB) } });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: "Request entity too large" });
    expect(await statusCount()).toBe(before);
    // a pasted import list of 2 MB is within its route's 10 MiB (and refused later for its content, not its size)
    const list = await server.fetch("/api/v1/ext/follow_import", { headers: auth, json: { list: "nobody@example.invalid\n".repeat(90_000) } });
    expect(list.status).not.toBe(413);
    expect(list.status).toBeLessThan(500);
    const openapi = await (await server.fetch("/api/openapi")).json();
    expect(openapi.paths["/api/v1/statuses"].post["x-body-limit"]).toBe(MB);
    expect(openapi.paths["/api/v1/ext/follow_import"].post["x-body-limit"]).toBe(10 * MB);
  });

  test("compressed REST bodies: read when small, 413 when they inflate past the limit (a gzip bomb)", async () => {
    const ok = await server.fetch("/api/v1/statuses", { headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" }, body: new Uint8Array(gzipSync(JSON.stringify({ status: "gzipped hello" }))) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).content).toContain("gzipped hello");
    const before = await statusCount();
    const bomb = gzipSync(`{"status":"${" ".repeat(50 * MB)}"}`);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const res = await server.fetch("/api/v1/statuses", { headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" }, body: new Uint8Array(bomb) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request entity too large" });
    expect(await statusCount()).toBe(before);
    // an encoding we do not read
    const odd = await server.fetch("/api/v1/statuses", { headers: { ...auth, "content-type": "application/json", "content-encoding": "compress" }, body: "{}" });
    expect(odd.status).toBe(415);
  });

  test("GraphQL and tRPC: chunked bodies without Content-Length and gzip bombs stop at their 1 MiB limit with 413", async () => {
    const url = new URL(server.url);
    for (const target of ["/graphql", "/trpc/session.signIn"]) {
      // 12 chunks of 1 MiB, no Content-Length: the limit is counted as the bytes arrive
      const chunks = [Buffer.from('{"query":"{ __typename }","x":"'), ...Array.from({ length: 12 }, () => Buffer.alloc(MB, 0x61)), Buffer.from('"}')];
      const chunked = await rawRequest(`${url.origin}${target}`, { headers: { "content-type": "application/json", "transfer-encoding": "chunked" }, chunks });
      expect(chunked.status, target).toBe(413);
      expect(JSON.parse(chunked.body)).toEqual({ error: "Request entity too large" });
      const bomb = await rawRequest(`${url.origin}${target}`, { headers: { "content-type": "application/json", "content-encoding": "gzip" }, chunks: [gzipSync(`{"query":"${" ".repeat(20 * MB)}"}`)] });
      expect(bomb.status, target).toBe(413);
    }
    // within the limit, chunked and gzipped requests work
    const small = await rawRequest(`${url.origin}/graphql`, { headers: { "content-type": "application/json", "content-encoding": "gzip", "transfer-encoding": "chunked" }, chunks: [gzipSync(JSON.stringify({ query: "{ __typename }" }))] });
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body)).toEqual({ data: { __typename: "Query" } });
  });

  test("GraphQL string and list arguments are capped even where no operation validates them", async () => {
    const gql = async (query: string, variables?: unknown) => {
      const res = await server.fetch("/graphql", { headers: auth, json: { query, variables } });
      return { status: res.status, body: await res.json() };
    };
    const long = "a".repeat(100_001);
    const literal = await gql(`{ account(nickname: "${long}") { id } }`);
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0]).toMatchObject({ message: "A string argument is longer than 100000 characters.", extensions: { code: "INVALID" } });
    const variable = await gql("query($n: String) { account(nickname: $n) { id } }", { n: long });
    expect(variable.status).toBe(400);
    const list = await gql("query($v: [String!]) { accountStatuses(id: \"1\", excludeVisibilities: $v) { edges { cursor } } }", { v: Array(1001).fill("x") });
    expect(list.status, JSON.stringify(list.body)).toBe(400);
    expect(list.body.errors[0].message).toBe("A list argument has more than 1000 items.");
    // document limits (src/graphql/limits.ts): depth, aliases, cost — refused before anything runs (as any
    // validation error over application/json: no data, an error naming the limit)
    const deep = await gql(`{ status(id: "1") { ${"reblog { ".repeat(20)}id${" }".repeat(20)} } }`);
    expect(deep.body.data, JSON.stringify(deep.body).slice(0, 300)).toBeUndefined();
    expect(deep.body.errors[0].message).toMatch(/depth/i);
    const aliases = await gql(`{ ${Array.from({ length: 40 }, (_, i) => `a${i}: account(nickname: "x") { id }`).join(" ")} }`);
    expect(aliases.body.data, `aliases: ${JSON.stringify(aliases.body).slice(0, 300)}`).toBeUndefined();
    expect(aliases.body.errors[0].message).toMatch(/alias/i);
    const level = (n: number): string => (n === 0 ? "id" : `id content account { id note displayName } reblog { ${level(n - 1)} }`);
    const costly = await gql(`{ ${Array.from({ length: 25 }, (_, i) => `s${i}: status(id: "1") { ${level(12)} }`).join(" ")} }`); // cost about 106,000
    expect(costly.body.data, `cost: ${JSON.stringify(costly.body).slice(0, 300)}`).toBeUndefined();
    expect(costly.body.errors[0].message).toMatch(/cost/i);
    // introspection is open (the schema is public)
    expect((await gql("{ __schema { queryType { name } } }")).body).toEqual({ data: { __schema: { queryType: { name: "Query" } } } });
    // at the cap it is an ordinary not-found
    const fine = await gql(`{ account(nickname: "${"a".repeat(100)}") { id } }`);
    expect(fine.status).toBe(200);
  });

  test("images declaring huge dimensions (decompression bombs) are refused from their header: 422, nothing stored", async () => {
    const png = fs.readFileSync("src/media/assets/avi.png");
    const huge = Buffer.from(png);
    huge.writeUInt32BE(100_000, 16); // IHDR width
    huge.writeUInt32BE(100_000, 20); // IHDR height
    const send = async (path: string, field: string, bytes: Buffer, method = "POST") => {
      const form = new FormData();
      form.append(field, new Blob([new Uint8Array(bytes)], { type: "image/png" }), "bomb.png");
      const res = await server.fetch(path, { method, headers: auth, body: form });
      return { status: res.status, body: await res.json() };
    };
    const uploads = path.join(server.dataDir, "uploads");
    const before = fs.existsSync(uploads) ? fs.readdirSync(uploads).length : 0;
    const media = await send("/api/v1/media", "file", huge);
    expect(media).toEqual({ status: 422, body: { error: expect.stringMatching(/100000×100000 exceed the limit/) } });
    const avatar = await send("/api/v1/accounts/update_credentials", "avatar", huge, "PATCH");
    expect(avatar.status).toBe(422);
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads).length : 0).toBe(before);
    expect((await send("/api/v1/media", "file", png)).status).toBe(200);
  });
});
