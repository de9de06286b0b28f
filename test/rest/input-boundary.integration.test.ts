// The input boundary (src/http/boundary.ts, src/domain/input-limits.ts): hostile requests answer
// 400/413/414/415/422 in the `{error}` shape, never 500, and change nothing in the database.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

/** A raw request: the path and body go out byte for byte (fetch would normalise them). */
function raw(server: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) {
  const url = new URL(server.url);
  return new Promise<{ status: number; type: string; body: any; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body: parsed, headers: res.headers });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("input boundary", () => {
  let server: TestServer;
  let auth: Record<string, string>;
  let statusCount: () => Promise<number>;
  beforeAll(async () => {
    server = await startTestServer("postgres");
    await server.createUser("alice");
    auth = { authorization: `Bearer ${(await passwordToken(server, "alice")).access_token}` };
    statusCount = () => server.services.db.status.count();
  });
  afterAll(() => server?.close());

  const expectError = (res: { status: number; type: string; body: any }, status: number, message?: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.type).toMatch(/^application\/json/);
    expect(typeof res.body.error).toBe("string");
    if (message) expect(res.body.error).toMatch(message);
  };

  test("malformed percent-encoding in paths and queries: 400", async () => {
    for (const path of ["/api/v1/statuses/%ZZ", "/api/v1/accounts/%E0%A4%A", "/api/v1/statuses/%C0%AF/favourite", "/api/v1/filters/%", "/api/v1/statuses/%F0%9F%92"])
      expectError(await raw(server, "GET", path, auth), 400, /percent-encoding/);
    // a malformed value in a query string stays as it was written (qs), the route decides: never 500
    const q = await raw(server, "GET", "/api/v1/timelines/public?max_id=%E0%A4%A&limit=%ZZ");
    expect(q.status).toBeLessThan(500);
  });

  test("query strings: nesting, key count and length are bounded", async () => {
    expectError(await raw(server, "GET", `/api/v1/timelines/public?${"a" + "[b]".repeat(10)}=1`), 400, /depth/);
    expectError(await raw(server, "GET", `/api/v1/timelines/public?${Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join("&")}`), 400, /Parameter limit/i);
    expectError(await raw(server, "GET", `/api/v1/timelines/public?q=${"x".repeat(9000)}`), 414);
    // past Node's header limit the parser answers, in the same shape
    expectError(await raw(server, "GET", `/api/v1/timelines/public?q=${"x".repeat(20000)}`), 431);
    // arrays up to the limit still work (ids[] with more than qs's default 20 items)
    const ids = Array.from({ length: 30 }, (_, i) => `ids[]=0000000000000000000000000${i % 10}`).join("&");
    expect((await raw(server, "GET", `/api/v1/statuses?${ids}`, auth)).status).toBe(200);
  });

  test("NUL and unpaired surrogates are refused with 422 before they reach PostgreSQL, in every encoding", async () => {
    const before = await statusCount();
    const json = (body: string) => raw(server, "POST", "/api/v1/statuses", { ...auth, "content-type": "application/json" }, body);
    expectError(await json('{"status": "a\\u0000b"}'), 422, /status: text must not contain NUL/);
    expectError(await json('{"status": "lone \\ud800 surrogate"}'), 422);
    expectError(await json('{"status": "ok", "poll": {"options": ["x\\udfff", "y"], "expires_in": 3600}}'), 422, /poll\.options\[0\]/);
    expectError(await json('{"status": "ok", "\\u0000": 1}'), 422);
    expectError(await raw(server, "POST", "/api/v1/statuses", { ...auth, "content-type": "application/x-www-form-urlencoded" }, "status=a%00b"), 422);
    expectError(await raw(server, "POST", "/api/v1/statuses", { ...auth, "content-type": "multipart/form-data; boundary=b" }, '--b\r\nContent-Disposition: form-data; name="status"\r\n\r\na\u0000b\r\n--b--\r\n'), 422);
    expectError(await raw(server, "GET", "/api/v1/accounts/search?q=a%00b", auth), 422, /query/);
    expectError(await raw(server, "GET", "/api/v1/statuses/%00", auth), 422, /path/);
    expectError(await raw(server, "GET", "/api/v1/accounts/%ED%A0%80", auth), 400); // encoded surrogates are not UTF-8
    // Basic credentials are decoded past the boundary: the sign-in applies the rule itself
    const basic = { authorization: `Basic ${Buffer.from("ali\u0000ce:secret-password").toString("base64")}` };
    expectError(await raw(server, "GET", "/api/v1/accounts/verify_credentials", basic), 422);
    expect(await statusCount()).toBe(before);
  });

  test("bodies: wrong or unsupported media types 415, malformed 400, too large 413", async () => {
    const post = (type: string, body: string | Buffer) => raw(server, "POST", "/api/v1/statuses", { ...auth, "content-type": type }, body);
    expectError(await post("text/plain", '{"status":"x"}'), 415, /text\/plain/);
    expectError(await post("application/xml", "<status>x</status>"), 415);
    expectError(await post("application/json; charset=iso-8859-1", '{"status":"x"}'), 415, /charset/i);
    expectError(await post("application/x-www-form-urlencoded; charset=koi8-r", "status=x"), 415, /charset/i);
    expectError(await post("application/json", '{"status": "x",'), 400, /Invalid JSON/);
    expectError(await post("multipart/form-data", "--x\r\n\r\n--x--"), 400, /multipart/i);
    expectError(await post("multipart/form-data; boundary=z", '--z\r\nContent-Disposition: form-data; name="status"\r\n\r\nunterminated'), 400, /multipart/i);
    expectError(await post("application/x-www-form-urlencoded", "a" + "[b]".repeat(20) + "=1"), 400);
    expectError(await post("application/x-www-form-urlencoded", Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join("&")), 413);
    expectError(await post("application/json", Buffer.alloc(11 * 1024 * 1024, 32)), 413);
    let deep = '"x"';
    for (let i = 0; i < 40; i++) deep = `{"a":${deep}}`;
    expectError(await post("application/json", `{"status":"x","poll":${deep}}`), 400, /nested deeper/);
    expect(await statusCount()).toBe(0);
  });

  test("every string and array of a schema has a maximum length; user text has a larger documented cap", async () => {
    const post = (body: unknown) => raw(server, "POST", "/api/v1/statuses", { ...auth, "content-type": "application/json" }, JSON.stringify(body));
    // language: its own max (35); visibility and in_reply_to_id: the default cap
    expectError(await post({ status: "x", in_reply_to_id: "x".repeat(10_001) }), 400, /in_reply_to_id: Too big/);
    expectError(await post({ status: "x", media_ids: Array.from({ length: 1001 }, () => "a") }), 400, /media_ids: Too big/);
    expectError(await post({ status: "x".repeat(100_001) }), 400, /status: Too big/);
    // under the cap, the instance's own limit answers (422, the family's text)
    expect((await post({ status: "x".repeat(20_000) })).status).toBe(422);
    const doc = await (await server.fetch("/api/openapi")).json();
    const schemas = JSON.stringify(doc);
    expect(schemas).toContain('"maxLength":10000');
    expect(schemas).toContain('"maxLength":100000');
  });

  test("ids that are not ids: 404", async () => {
    for (const id of ["99999999999999999999", "-1", "1e309", "' OR '1'='1", "..%2F..%2Fetc%2Fpasswd", "x".repeat(3000)]) {
      const res = await raw(server, "GET", `/api/v1/statuses/${encodeURI(id).replaceAll("'", "%27")}`, auth);
      expectError(res, 404);
    }
    expectError(await raw(server, "GET", "/api/v1/ext/admin/users/99999999999999999999/chats", auth), 403);
  });

  test("GraphQL and tRPC apply the same text rule (422) before anything reaches the database", async () => {
    const before = await statusCount();
    const gql = (query: string, variables?: unknown) => raw(server, "POST", "/graphql", { ...auth, "content-type": "application/json" }, JSON.stringify({ query, variables }));
    const viaVariables = await gql("mutation($s: String!) { postStatus(input: {status: $s}) { id } }", { s: "a\u0000b" });
    expect(viaVariables.status).toBe(422);
    expect(viaVariables.body.errors[0]).toMatchObject({ message: expect.stringMatching(/NUL/), extensions: { code: "UNPROCESSABLE" } });
    const inline = await gql('{ account(nickname: "al\\u0000ice") { id } }');
    expect(inline.status).toBe(422);
    const surrogate = await gql("query($n: String) { account(nickname: $n) { id } }", { n: "\ud800" });
    expect(surrogate.status).toBe(422);
    expect(await statusCount()).toBe(before);

    // yoga and tRPC read their own bodies: the REST size limit applies to them too
    expectError(await raw(server, "POST", "/graphql", { "content-type": "application/json" }, Buffer.alloc(11 * 1024 * 1024, 32)), 413);

    const trpc = await raw(server, "POST", "/trpc/session.signIn", { "content-type": "application/json" }, JSON.stringify({ username: "ali\u0000ce", password: "x" }));
    expect(trpc.status).toBe(422);
    expect(JSON.stringify(trpc.body)).toMatch(/NUL/);
  });
});
