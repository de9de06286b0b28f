// Criterion 6 in one process: every outbound request of the server goes through the guarded client.
// (1) A source check: no module makes HTTP requests itself (only src/net/guarded-fetch.ts does), and every
// entry into Fedify (whose requests use the global fetch) is wrapped by `withGuard` / `inFederation`.
// (2) Fedify's own lookups made inside the guard are refused for private addresses before any
// connection, re-checked on redirects, and carry the instance's User-Agent when allowed.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { lookupObject } from "@fedify/vocab";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import { lookupWebFinger } from "@fedify/webfinger";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isHttpUrl, parseHandle } from "../../src/domain/federation/port.ts";
import { userAgent } from "../../src/net/guarded-fetch.ts";
import { withGuard } from "../../src/net/outbound.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return rel.startsWith("src/generated") ? [] : sources(rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

describe("every outbound request goes through the guarded client (source check)", () => {
  const files = [...sources("src"), ...sources("compat-rest")].map((file) => ({ file, text: withoutComments(fs.readFileSync(path.join(ROOT, file), "utf8")) }));

  test("only src/net/guarded-fetch.ts opens HTTP connections", () => {
    const raw = /\b(?:https?|net|tls)\.(?:request|get|connect)\(|\bcreateConnection\(|from "undici"|new WebSocket\(|\bXMLHttpRequest\b/;
    const offenders = files.filter((f) => f.file !== "src/net/guarded-fetch.ts" && raw.test(f.text)).map((f) => f.file);
    expect(offenders).toEqual([]);
  });

  test("the global fetch is called only by the guard's router, never directly", () => {
    // a call of a free `fetch(` (not `x.fetch(`); files where `fetch` is a local parameter are listed with the reason
    const localParameter = new Set(["src/graphql/offset-paging.ts", "src/graphql/paging.ts"]);
    const direct = /(^|[^.\w$])fetch\(/m;
    const offenders = files.filter((f) => !localParameter.has(f.file) && f.file !== "src/net/outbound.ts" && direct.test(f.text)).map((f) => f.file);
    expect(offenders).toEqual([]);
    for (const file of localParameter) expect(files.find((f) => f.file === file)?.text).toMatch(/\bfetch\s*[:)]|\(\s*fetch\b|,\s*fetch\b/);
  });

  test("every entry into Fedify runs inside withGuard / inFederation", () => {
    // federationFor(…) / federationContext(…) give Fedify objects whose requests use the global fetch:
    // each call must sit in a guarded scope (the definitions in federation.ts excepted)
    const unguarded: string[] = [];
    for (const { file, text } of files) {
      const lines = text.split("\n");
      lines.forEach((line, i) => {
        if (!/\bfederation(For|Context)\(/.test(line) || /export function federation(For|Context)\(/.test(line)) return;
        if (file === "src/federation/federation.ts" && /return federationFor\(services\)\.createContext/.test(line)) return;
        const around = lines.slice(Math.max(0, i - 4), i + 1).join("\n");
        if (!/withGuard\(|inFederation\(/.test(around)) unguarded.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(unguarded).toEqual([]);
  });

  test("Fedify's lookups and sends are reached only through the guarded context", () => {
    // Fedify's free functions (lookupObject, lookupWebFinger, getDocumentLoader, sendActivity …) imported
    // directly would fetch without knowing our scope only if called outside it: they are not imported at all
    const freeFetchers = /import\s*\{[^}]*\b(lookupObject|lookupWebFinger|getDocumentLoader|getAuthenticatedDocumentLoader|fetchKey|getNodeInfo|traverseCollection)\b[^}]*\}\s*from\s*"@fedify\//;
    expect(files.filter((f) => freeFetchers.test(f.text)).map((f) => f.file)).toEqual([]);
  });
});

describe("Fedify's requests inside the guard", () => {
  let target: http.Server;
  let port: number;
  const hits: { path: string; ua: string | undefined }[] = [];
  const settings = { baseUrl: "https://guarded.example" };
  const ctxWith = (allow: boolean) => {
    const group: Record<string, unknown> = { allow_private_addresses: allow, private_address_exceptions: [], fetch_timeout_ms: 3000, max_body_bytes: 1024 * 1024 };
    return { settings, config: { get: (_g: string, key: string) => group[key] } } as never;
  };

  beforeAll(async () => {
    target = http.createServer((req, res) => {
      hits.push({ path: req.url!, ua: req.headers["user-agent"] });
      const url = new URL(req.url!, "http://x");
      if (url.pathname === "/redirect") return void res.writeHead(302, { location: url.searchParams.get("to")! }).end();
      if (url.pathname === "/.well-known/webfinger") {
        return void res.writeHead(200, { "content-type": "application/jrd+json" }).end(JSON.stringify({ subject: url.searchParams.get("resource"), links: [] }));
      }
      res.writeHead(200, { "content-type": "application/activity+json" }).end(JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", id: `http://127.0.0.1:${port}${url.pathname}`, type: "Note", content: "hi" }));
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    port = (target.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => target.close(() => r())));

  test("a private address is refused before any connection (lookupObject, lookupWebFinger, document loader)", async () => {
    hits.length = 0;
    const denied = ctxWith(false);
    const base = `http://127.0.0.1:${port}`;
    // Fedify's own address check is off (allowPrivateAddress: true), as in federation.ts: only our guard refuses
    expect(await withGuard(denied, () => lookupObject(`${base}/objects/1`, { documentLoader: getDocumentLoader({ allowPrivateAddress: true }) }))).toBeNull();
    expect(await withGuard(denied, () => lookupWebFinger(`${base}/users/x`, { allowPrivateAddress: true }))).toBeNull();
    await expect(withGuard(denied, () => getDocumentLoader({ allowPrivateAddress: true })(`${base}/objects/2`))).rejects.toThrow(/private or local address/);
    expect(hits).toEqual([]);
  });

  test("allowed (tests, closed networks): the same lookup reaches the target with the instance's User-Agent", async () => {
    hits.length = 0;
    const object = await withGuard(ctxWith(true), () => lookupObject(`http://127.0.0.1:${port}/objects/3`, { documentLoader: getDocumentLoader({ allowPrivateAddress: true }) }));
    expect(object?.id?.href).toBe(`http://127.0.0.1:${port}/objects/3`);
    expect(hits.length).toBeGreaterThan(0);
    // Fedify's default User-Agent is replaced only when the caller set none: the guard adds ours for raw calls
    for (const hit of hits) expect(hit.ua).toBeTruthy();
  });

  test("a redirect to a private address is refused at the hop (the first hop exempted by the operator)", async () => {
    hits.length = 0;
    const group: Record<string, unknown> = { allow_private_addresses: false, private_address_exceptions: ["127.0.0.1"], fetch_timeout_ms: 3000, max_body_bytes: 1024 * 1024 };
    const exempt = { settings, config: { get: (_g: string, key: string) => group[key] } } as never;
    const to = encodeURIComponent(`http://[::1]:${port}/objects/4`);
    const loader = getDocumentLoader({ allowPrivateAddress: true });
    await expect(withGuard(exempt, () => loader(`http://127.0.0.1:${port}/redirect?to=${to}`))).rejects.toThrow(/private or local address/);
    expect(hits.map((h) => h.path)).toEqual([`/redirect?to=${to}`]);
  });

  test("requests made inside the guard name the software and the instance unless Fedify set its own", async () => {
    hits.length = 0;
    await withGuard(ctxWith(true), () => fetch(`http://127.0.0.1:${port}/objects/5`));
    expect(hits[0]?.ua).toBe(userAgent(settings));
  });
});

describe("handles", () => {
  test("the forms clients send, and what is not a handle", () => {
    expect(parseHandle("alice@a.example")).toEqual({ username: "alice", host: "a.example" });
    expect(parseHandle("@alice@A.Example")).toEqual({ username: "alice", host: "a.example" });
    expect(parseHandle("acct:alice@a.example:8443")).toEqual({ username: "alice", host: "a.example:8443" });
    expect(parseHandle("alice")).toBeNull();
    expect(parseHandle("alice@")).toBeNull();
    expect(parseHandle("a/b@host")).toBeNull();
    expect(parseHandle("alice@host/path")).toBeNull();
    expect(parseHandle("alice@user:pw@host")).toBeNull();
    expect(isHttpUrl("https://a.example/users/alice")).toBe(true);
    expect(isHttpUrl("ftp://a.example/x")).toBe(false);
  });
});
