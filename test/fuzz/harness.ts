// A fuzzer of our own, generated from the OpenAPI document the server serves at /api/openapi: every
// operation gets valid and invalid requests (wrong types, missing and extra fields, huge values, unicode
// edge cases, malformed encodings, wrong content types, nested query strings), sent as anonymous, a user
// and an admin. It checks what a hostile client must never see: a 5xx, a 4xx without the error shape, or
// a rejected request that changed the database. Deterministic for a seed (one request at a time).
import http from "node:http";
import { passwordToken, type TestServer } from "../support/server.ts";
import { responseValidator } from "../support/openapi-responses.ts";

// ---------------------------------------------------------------- seeded randomness

/** mulberry32: a tiny, fast, seeded PRNG; good enough to pick test cases reproducibly. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

// ---------------------------------------------------------------- the OpenAPI document

type Schema = Record<string, any>;
export interface Operation {
  method: string;
  /** the OpenAPI path, `{param}` placeholders */
  path: string;
  pathParams: string[];
  query: Record<string, { schema: Schema; required: boolean }>;
  body?: Schema;
  anonymous: boolean;
}

export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const params: any[] = op.parameters ?? [];
      const query: Operation["query"] = {};
      for (const p of params.filter((p) => p.in === "query")) query[p.name] = { schema: p.schema ?? {}, required: !!p.required };
      const content = op.requestBody?.content;
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query,
        body: content ? (content["application/json"] ?? Object.values<any>(content)[0]).schema : undefined,
        anonymous: (op.security ?? []).length === 0 || (op.security ?? []).some((s: object) => Object.keys(s).length === 0),
      });
    }
  }
  return ops;
}

function deref(doc: any, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 20) return {};
  if (schema.$ref) return deref(doc, doc.components.schemas[schema.$ref.split("/").pop()], depth + 1);
  return schema;
}

// ---------------------------------------------------------------- value generation

const WORDS = ["alpha", "bob", "fuzz", "public", "read", "true", "1", "0", "", "admin", "x"];
const INJECTIONS = ["' OR '1'='1", "'; DROP TABLE accounts; --", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "{{7*7}}", "${jndi:ldap://x}", "../../../../etc/passwd", "..\\..\\windows\\win.ini", "%00", "\\u0000", "javascript:alert(1)"];
const UNICODE = ["\u0000", "a\u0000b", "\ud800", "x\udfffy", "\ufeff", "\u202egnirts", "e\u0301", "🏳️‍🌈", "𝕏", "\u200b", "ǅ", "\uffff", "ß".repeat(50)];
export const BAD_SEGMENTS = ["%ZZ", "%E0%A4%A", "%", "%C0%AF", "%ED%A0%80", "%00", "..%2F..%2Fetc%2Fpasswd", "%2e%2e", "%FF%FE", "a%20b", "99999999999999999999", "-1", "1e309", "0", "null", "undefined", "x".repeat(3000), "%u0041", "%F0%9F%92"];

function valueFor(doc: any, rng: Rng, raw: Schema | undefined, pools: Pools, depth = 0): unknown {
  const schema = deref(doc, raw);
  if (depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.anyOf || schema.oneOf) return valueFor(doc, rng, rng.pick(schema.anyOf ?? schema.oneOf), pools, depth + 1);
  if (schema.allOf) {
    const parts = schema.allOf.map((s: Schema) => valueFor(doc, rng, s, pools, depth + 1));
    return parts.every((p: unknown) => p && typeof p === "object" && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(schema.type) ? rng.pick(schema.type.filter((t: string) => t !== "null").length ? schema.type.filter((t: string) => t !== "null") : schema.type) : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "binary") return FILE;
      if (schema.format === "date-time") return new Date(Date.now() + rng.int(-1e9, 1e10)).toISOString();
      if (schema.format === "uri") return rng.pick(["https://example.invalid/x", "http://127.0.0.1:1/pack.zip", "http://169.254.169.254/latest", "ftp://x.invalid/"]);
      if (schema.format === "email") return `fuzz${rng.int(0, 999)}@example.invalid`;
      return rng.chance(0.6) ? rng.pick(pools.strings()) : rng.pick(WORDS);
    case "integer":
    case "number": {
      const lo = Math.max(schema.minimum ?? -5, -5);
      const hi = Math.min(schema.maximum ?? 100, 100);
      return rng.int(lo, Math.max(lo, hi));
    }
    case "boolean":
      return rng.chance(0.5);
    case "array":
      return Array.from({ length: rng.int(0, 3) }, () => valueFor(doc, rng, schema.items, pools, depth + 1));
    case "null":
      return null;
    case "object":
    default: {
      if (!schema.properties) return type === "object" ? {} : rng.pick(WORDS);
      const out: Record<string, unknown> = {};
      const required: string[] = schema.required ?? [];
      for (const [key, sub] of Object.entries<Schema>(schema.properties)) if (required.includes(key) || rng.chance(0.5)) out[key] = valueFor(doc, rng, sub, pools, depth + 1);
      return out;
    }
  }
}

/** A small PNG (1×1), the file every multipart file field gets. */
const FILE = Symbol("file");
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

function weird(rng: Rng): unknown {
  switch (rng.int(0, 9)) {
    case 0:
      return rng.pick(UNICODE);
    case 1:
      return rng.pick(INJECTIONS);
    case 2:
      return "x".repeat(rng.pick([5001, 70_000, 300_000]));
    case 3:
      return rng.pick([1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 0.5, NaN]);
    case 4:
      return rng.pick([{}, [], { a: { b: { c: 1 } } }, [[["x"]]], null, true]);
    case 5:
      return Array.from({ length: rng.pick([1000, 5000]) }, (_, i) => String(i));
    case 6: {
      let v: unknown = "deep";
      for (let i = 0; i < 500; i++) v = { a: v };
      return v;
    }
    case 7:
      return rng.pick(BAD_SEGMENTS);
    case 8:
      return rng.pick(["99999999999999999999", "-1", "1e5", "0x10", " 1", "true", "NaN"]);
    default:
      return rng.pick(UNICODE) + rng.pick(INJECTIONS);
  }
}

// ---------------------------------------------------------------- id pools, harvested as we go

export class Pools {
  ids = new Set<string>();
  names = new Set<string>(["fuzzuser", "fuzzadmin", "fuzzother", "@fuzzother", "fuzzother@localhost:4000"]);
  harvest(value: unknown, depth = 0) {
    if (depth > 4 || !value || typeof value !== "object") return;
    if (Array.isArray(value)) return value.slice(0, 20).forEach((v) => this.harvest(v, depth + 1));
    for (const [k, v] of Object.entries(value)) {
      if ((k === "id" || k.endsWith("_id")) && (typeof v === "string" || typeof v === "number") && this.ids.size < 500) this.ids.add(String(v));
      else if ((k === "acct" || k === "username" || k === "shortcode" || k === "name") && typeof v === "string" && v.length < 64 && this.names.size < 200) this.names.add(v);
      else this.harvest(v, depth + 1);
    }
  }
  strings = () => [...this.ids, ...this.names];
}

// ---------------------------------------------------------------- requests

export interface FuzzRequest {
  persona: string;
  variant: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  op: Operation;
}

function encodeForm(value: Record<string, unknown>, prefix = ""): string[] {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (v === FILE) continue;
    if (Array.isArray(v)) v.forEach((item) => (item && typeof item === "object" ? parts.push(...encodeForm(item as any, `${key}[]`)) : parts.push(`${encodeURIComponent(key)}[]=${encodeURIComponent(String(item))}`)));
    else if (v && typeof v === "object") parts.push(...encodeForm(v as Record<string, unknown>, key));
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(v === null ? "" : String(v))}`);
  }
  return parts;
}

/** encodeURIComponent that leaves lone surrogates to be written as the bytes a hostile client would send. */
function safeEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s.replace(/[\ud800-\udfff]/g, "%ED%A0%80").replace(/[^A-Za-z0-9%]/g, (c) => encodeURIComponent(c));
  }
}
function safeForm(value: Record<string, unknown>): string {
  try {
    return encodeForm(value).join("&");
  } catch {
    return Object.entries(value).map(([k, v]) => `${safeEncode(k)}=${safeEncode(String(v))}`).join("&");
  }
}

function multipart(value: Record<string, unknown>, boundary: string): Buffer {
  const chunks: Buffer[] = [];
  const field = (name: string, data: string | Buffer, filename?: string) => {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: image/png` : ""}\r\n\r\n`));
    chunks.push(typeof data === "string" ? Buffer.from(data) : data, Buffer.from("\r\n"));
  };
  for (const [k, v] of Object.entries(value)) {
    if (v === FILE) field(k, PNG, "f.png");
    else if (Array.isArray(v)) v.forEach((item) => field(`${k}[]`, typeof item === "object" ? JSON.stringify(item) : String(item)));
    else field(k, v && typeof v === "object" ? JSON.stringify(v) : String(v ?? ""));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const JSON_VARIANTS = new Set(["json"]);

export function buildRequest(doc: any, rng: Rng, op: Operation, persona: string, token: string | undefined, pools: Pools): FuzzRequest {
  const variant = rng.chance(0.35)
    ? "valid"
    : rng.pick(["missing", "wrong-type", "extra", "weird-value", "weird-value", "bad-path", "bad-path", "bad-query", "bad-body", "content-type", "nested-query", "many-keys"]);
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;

  // path
  let path = op.path.replace(/\{([^}]+)\}/g, () => {
    if (variant === "bad-path" && rng.chance(0.7)) return rng.pick(BAD_SEGMENTS);
    const v = rng.chance(0.8) && pools.ids.size ? rng.pick([...pools.ids]) : rng.pick(pools.strings());
    return safeEncode(v);
  });

  // query
  const query: Record<string, unknown> = {};
  for (const [name, q] of Object.entries(op.query)) if (q.required || rng.chance(0.4)) query[name] = valueFor(doc, rng, q.schema, pools);
  // body
  const bodySchema = op.body ? deref(doc, op.body) : undefined;
  let body = bodySchema ? (valueFor(doc, rng, bodySchema, pools) as Record<string, unknown>) : undefined;
  if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) body = { value: body };
  const target = body ?? query;
  const keys = Object.keys(target);
  if (variant === "missing" && keys.length) delete target[rng.pick(keys)];
  if (variant === "wrong-type" || variant === "weird-value") {
    const key = keys.length ? rng.pick(keys) : rng.pick([...Object.keys(bodySchema?.properties ?? {}), ...Object.keys(op.query), "x"]);
    target[key] = variant === "weird-value" ? weird(rng) : rng.pick([123, true, { x: 1 }, ["a", "b"], null, "not-a-number"]);
  }
  if (variant === "extra") Object.assign(target, rng.pick<Record<string, unknown>>([{ __proto__x: 1, constructor: { prototype: { polluted: true } } }, { zzz: "x", "a[b]": "c" }, { admin: true, is_admin: true, role: "admin" }]));

  let qs = safeForm(query);
  if (variant === "bad-query") qs = rng.pick(["a=%ZZ", "max_id=%E0%A4%A", "limit=%", "q=%00", "q=%ED%A0%80", "a[=1", "a]=1", "&&&==&", "%=%", "a[][][]=1", `q=${"%41".repeat(20000)}`, "limit[]=1&limit[]=2", "with_muted[$ne]=1", "__proto__[x]=1", "a[__proto__][b]=1", `ids[${2 ** 31}]=1`]);
  if (variant === "nested-query") qs = "a" + "[b]".repeat(rng.pick([10, 100, 2000])) + "=1";
  if (variant === "many-keys") qs = Array.from({ length: rng.pick([1001, 5000, 30000]) }, (_, i) => `k${i}=${i}`).join("&");
  if (qs) path += (path.includes("?") ? "&" : "?") + qs;

  let payload: Buffer | undefined;
  if (body !== undefined || op.method !== "GET") {
    const encoding = rng.pick(["json", "json", "form", "multipart"]);
    const b = body ?? {};
    if (variant === "content-type") {
      const raw = JSON.stringify(b, (_k, v) => (v === FILE ? "file" : v));
      const pick = rng.int(0, 8);
      const choices: [string, string | Buffer][] = [
        ["text/plain", raw],
        ["application/xml", "<a>1</a>"],
        ["application/json", safeForm(b)],
        ["application/x-www-form-urlencoded", raw],
        ["multipart/form-data", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--x--\r\n"],
        ["multipart/form-data; boundary=zzz", "--zzz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated"],
        ["application/json; charset=utf-7", raw],
        ["application/x-www-form-urlencoded; charset=koi8-r", safeForm(b)],
        ["application/json", Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x22, 0x7d])],
      ];
      const [type, data] = choices[pick];
      headers["content-type"] = type;
      payload = Buffer.from(data);
    } else if (variant === "bad-body") {
      const choices: [string, string | Buffer][] = [
        ["application/json", '{"status": "x",'],
        ["application/json", "[" .repeat(5000)],
        ["application/json", '"just a string"'],
        ["application/json", "null"],
        ["application/json", `{"a":"${"\\ud800"}","b":"\\u0000"}`],
        ["application/x-www-form-urlencoded", "status=%ZZ&a=%E0%A4%A"],
        ["application/x-www-form-urlencoded", "a" + "[b]".repeat(100) + "=1"],
        ["application/x-www-form-urlencoded", Array.from({ length: 3000 }, (_, i) => `k${i}=1`).join("&")],
        ["application/x-www-form-urlencoded", "status=a%00b&spoiler_text=%ED%A0%80"],
        ["multipart/form-data; boundary=b", `--b\r\nContent-Disposition: form-data; name="status"\r\n\r\na\u0000b\r\n--b--\r\n`],
        ["multipart/form-data; boundary=b", `--b\r\nContent-Disposition: form-data; name="file"; filename="../../x.png"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--b--\r\n`],
        ["multipart/form-data; boundary=b", `--b\r\nContent-Disposition: form-data; name="unexpected_file"; filename="a.png"\r\n\r\nx\r\n--b--\r\n`],
      ];
      const [type, data] = rng.pick(choices);
      headers["content-type"] = type;
      payload = Buffer.from(data);
    } else if (encoding === "json" || JSON_VARIANTS.has(variant)) {
      headers["content-type"] = "application/json";
      payload = Buffer.from(JSON.stringify(b, (_k, v) => (v === FILE ? "file" : typeof v === "number" && !Number.isFinite(v) ? 1e308 : v)));
    } else if (encoding === "form") {
      headers["content-type"] = "application/x-www-form-urlencoded";
      payload = Buffer.from(safeForm(b));
    } else {
      const boundary = `fuzz${rng.int(0, 1e9)}`;
      headers["content-type"] = `multipart/form-data; boundary=${boundary}`;
      payload = multipart(b, boundary);
    }
  }
  return { persona, variant, method: op.method, path, headers, body: payload, op };
}

// ---------------------------------------------------------------- sending and checking

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function send(base: string, req: FuzzRequest): Promise<{ status: number; contentType: string; text: string; headers: http.IncomingHttpHeaders }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers: { ...req.headers, ...(req.body ? { "content-length": String(req.body.length) } : {}) }, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
        res.on("error", reject);
      },
    );
    r.setTimeout(60_000, () => r.destroy(new Error(`timeout: ${req.method} ${req.path.slice(0, 200)}`)));
    r.on("error", reject);
    r.end(req.body);
  });
}

/**
 * Endpoints whose 4xx bodies are documented as something other than `{error}` (their route declarations
 * carry `errors:`, or they answer HTML pages for browsers). Each entry: method, path pattern, and a
 * predicate of the body.
 */
const DOCUMENTED_SHAPES: { method: string; path: RegExp; ok: (res: { contentType: string; text: string; json: any }) => boolean }[] = [
  // HTML pages (OAuth authorization, password reset, MFA, e-mail confirmation, sign-up and invitation pages, the frontend switcher, the remote-follow pages) answer HTML to browsers
  { method: "*", path: /^\/(oauth\/(authorize|mfa)|auth\/password|api\/v1\/\w+\/password_reset|api\/account\/confirm_email|registration\b|\w+\/confirm_email|\w+\/frontend$|ostatus_subscribe|main\/ostatus|authorize_interaction)/, ok: (r) => r.contentType.startsWith("text/html") || typeof r.json?.error === "string" },
  // WebFinger and host-meta answer the family's plain-text 404
  { method: "GET", path: /^\/\.well-known\//, ok: (r) => r.contentType.startsWith("text/plain") || r.contentType.includes("xml") || typeof r.json?.error === "string" },
  // admin: credentials edit {errors: {field: msg}}, user creation conflicts [..], report updates [..], invites [{error}]
  { method: "*", path: /\/admin\/users\/[^/]+\/credentials/, ok: (r) => typeof r.json?.errors === "object" || typeof r.json?.error === "string" },
  { method: "POST", path: /\/admin\/users$/, ok: (r) => Array.isArray(r.json) || typeof r.json?.error === "string" },
  { method: "PATCH", path: /\/admin\/reports$/, ok: (r) => Array.isArray(r.json) || typeof r.json?.error === "string" },
  { method: "*", path: /\/admin\/users\/(email_invite|invite)/, ok: (r) => Array.isArray(r.json) || typeof r.json?.error === "string" },
  // admin statuses: the family answers a bare JSON string
  { method: "*", path: /\/admin\/statuses\//, ok: (r) => typeof r.json === "string" || typeof r.json?.error === "string" },
  // OAuth apps' field errors {errors: {...}}; unknown apps and report ids: the bare string "Invalid parameters"
  { method: "*", path: /\/admin\/(oauth_app|reports)/, ok: (r) => typeof r.json?.errors === "object" || typeof r.json?.error === "string" || r.json === "Invalid parameters" },
];

export function errorShapeOk(req: FuzzRequest, res: { contentType: string; text: string }): boolean {
  let json: any;
  try {
    json = res.contentType.includes("json") ? JSON.parse(res.text) : undefined;
  } catch {
    json = undefined;
  }
  if (json && typeof json === "object" && !Array.isArray(json) && typeof json.error === "string") return true;
  const pathOnly = req.path.split("?")[0];
  return DOCUMENTED_SHAPES.some((d) => (d.method === "*" || d.method === req.method) && d.path.test(pathOnly) && d.ok({ ...res, json }));
}

/** Row counts of every table that requests change (the job queue and caches excluded): one statement. */
export async function fingerprintQuery(server: TestServer): Promise<() => Promise<string>> {
  const tables = await server.services.db.$queryRawUnsafe<{ table_name: string }[]>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const names = tables.map((t) => t.table_name).filter((n) => !["jobs", "_prisma_migrations", "federation_kv", "instance_secrets"].includes(n));
  const sql = `SELECT ${names.map((n) => `(SELECT count(*) FROM "${n}")::int AS "${n}"`).join(", ")}`;
  return async () => {
    const [row] = await server.services.db.$queryRawUnsafe<Record<string, number>[]>(sql);
    return JSON.stringify(row);
  };
}

export interface Failure {
  reason: string;
  persona: string;
  variant: string;
  request: string;
  status: number;
  body: string;
}

export interface FuzzResult {
  sent: number;
  byStatus: Record<number, number>;
  byVariant: Record<string, number>;
  failures: Failure[];
  operations: number;
  /** 2xx JSON answers checked against their operation's success schema */
  validated: number;
  ms: number;
}

interface Persona {
  name: string;
  nickname?: string;
  admin?: boolean;
  token?: string;
}

async function ensureToken(server: TestServer, p: Persona, generation: number) {
  if (!p.nickname) return;
  if (p.token) {
    const res = await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${p.token}` } });
    if (res.status === 200) return;
  }
  // the fuzzer may have deactivated, deleted or signed out its own personas: start a fresh one
  const nickname = `${p.nickname}${generation}`;
  await server.createUser(nickname, { admin: p.admin });
  p.token = (await passwordToken(server, nickname, p.admin ? "read write follow push admin" : "read write follow push")).access_token;
}

/** Runs `requests` fuzzed requests against `server`, deterministic for `seed`. */
export async function runFuzz(server: TestServer, opts: { seed: number; requests: number; onProgress?: (done: number, result: FuzzResult) => void; only?: RegExp }): Promise<FuzzResult> {
  const started = Date.now();
  const rng = prng(opts.seed);
  const doc = await (await server.fetch("/api/openapi")).json();
  const responses = responseValidator(doc);
  const ops = operationsOf(doc).filter((o) => !opts.only || opts.only.test(`${o.method} ${o.path}`));
  const pools = new Pools();
  const personas: Persona[] = [{ name: "anonymous" }, { name: "user", nickname: "fuzzuser" }, { name: "admin", nickname: "fuzzadmin", admin: true }];
  const other = await server.createUser("fuzzother");
  pools.ids.add(other.id);
  let generation = 0;
  const fingerprint = await fingerprintQuery(server);
  const result: FuzzResult = { sent: 0, byStatus: {}, byVariant: {}, failures: [], operations: ops.length, validated: 0, ms: 0 };
  // seed content to act on
  for (const p of personas) await ensureToken(server, p, generation);
  for (const p of personas.filter((p) => p.token)) {
    const res = await server.fetch("/api/v1/statuses", { headers: { authorization: `Bearer ${p.token}` }, json: { status: `hello from ${p.name} #fuzz @fuzzother` } });
    pools.harvest(await res.json());
    pools.harvest(await (await server.fetch("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${p.token}` } })).json());
  }
  const order = [...ops];
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  let before = await fingerprint();
  for (let i = 0; i < opts.requests; i++) {
    if (i % 100 === 0 && i > 0) {
      generation++;
      for (const p of personas) await ensureToken(server, p, generation);
      before = await fingerprint();
    }
    // every operation in turn (in a seeded order), each round as the next persona
    const op = order[i % order.length];
    const persona = personas[Math.floor(i / order.length) % personas.length];
    const req = buildRequest(doc, rng, op, persona.name, persona.token, pools);
    const describe = `${req.method} ${req.path.length > 300 ? req.path.slice(0, 300) + "…" : req.path} [${req.headers["content-type"] ?? "-"}] ${req.body ? req.body.subarray(0, 300).toString("utf8") : ""}`;
    let res: Awaited<ReturnType<typeof send>>;
    try {
      res = await send(server.url, req);
    } catch (error) {
      result.failures.push({ reason: `no answer: ${(error as Error).message}`, persona: persona.name, variant: req.variant, request: describe, status: 0, body: "" });
      continue;
    }
    result.sent++;
    result.byStatus[res.status] = (result.byStatus[res.status] ?? 0) + 1;
    result.byVariant[req.variant] = (result.byVariant[req.variant] ?? 0) + 1;
    const fail = (reason: string) => result.failures.push({ reason, persona: persona.name, variant: req.variant, request: describe, status: res.status, body: res.text.slice(0, 500) });
    // 502 is the documented answer when a remote fetch made for the request fails (docs/security.md)
    if (res.status >= 500 && !(res.status === 502 && errorShapeOk(req, res))) fail("5xx");
    else if (res.status >= 400 && res.status !== 502) {
      if (!errorShapeOk(req, res)) fail("4xx without the error shape");
      const after = await fingerprint();
      if (after !== before) fail(`rejected request changed the database: ${diff(before, after)}`);
      before = after;
    } else {
      if (res.status < 300 && res.contentType.includes("json")) {
        let body: unknown;
        try {
          body = JSON.parse(res.text);
        } catch {
          /* not JSON after all */
        }
        if (body !== undefined) {
          pools.harvest(body);
          // the answer matches the success schema its operation declares in the OpenAPI document
          const checked = responses.forOperation(op.method, op.path, res.status, body);
          if (checked.operation) result.validated++;
          if (checked.errors.length) fail(`response does not match the OpenAPI schema of ${checked.operation}: ${checked.errors.join("; ")}`);
        }
      }
      before = await fingerprint();
    }
    opts.onProgress?.(i + 1, result);
  }
  result.ms = Date.now() - started;
  return result;
}

function diff(a: string, b: string): string {
  const x = JSON.parse(a);
  const y = JSON.parse(b);
  return Object.keys(y)
    .filter((k) => x[k] !== y[k])
    .map((k) => `${k} ${x[k]}→${y[k]}`)
    .join(", ");
}
