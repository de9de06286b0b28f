import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { guardedFetch, GuardedFetchError, isPrivateAddress } from "../../src/net/guarded-fetch.ts";

/** Just the settings the fetcher reads. */
function ctxWith(http: { allow_private_addresses?: boolean; private_address_exceptions?: string[]; fetch_timeout_ms?: number; max_body_bytes?: number }) {
  const group = { allow_private_addresses: false, private_address_exceptions: [] as string[], fetch_timeout_ms: 5000, max_body_bytes: 1024 * 1024, ...http };
  return { config: { get: (_g: string, key: string) => (group as Record<string, unknown>)[key] } } as never;
}

async function refusal(p: Promise<unknown>): Promise<GuardedFetchError> {
  const error = await p.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(GuardedFetchError);
  return error as GuardedFetchError;
}

describe("guardedFetch", () => {
  let server: http.Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      const url = new URL(req.url!, "http://x");
      if (url.pathname === "/hello") return void res.end("hello");
      if (url.pathname === "/redirect") return void res.writeHead(302, { location: url.searchParams.get("to")! }).end();
      if (url.pathname === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
      if (url.pathname === "/big") return void res.end("x".repeat(5000));
      if (url.pathname === "/silent") return; // never answers: only the deadline ends the wait
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  test("classifies addresses, including IPv6 and IPv4-mapped forms", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "192.168.0.1", "172.16.5.4", "169.254.169.254", "0.0.0.0", "100.64.0.1", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::a00:1"])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isPrivateAddress(a), a).toBe(false);
  });

  test("refuses loopback and private literals, IPv6 and mapped ones, and hosts resolving to them, before connecting", async () => {
    const ctx = ctxWith({});
    const before = hits;
    for (const host of ["127.0.0.1", "[::1]", "10.0.0.1", "192.168.1.1", "[::ffff:127.0.0.1]", "localhost"]) {
      const e = await refusal(guardedFetch(ctx, `http://${host}:${port}/hello`));
      expect(e.reason, host).toBe("refused");
      expect(e.kind).toBe("forbidden");
    }
    expect(hits).toBe(before);
  });

  test("refuses schemes other than http(s) and URLs with credentials", async () => {
    const ctx = ctxWith({ allow_private_addresses: true });
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/", `http://user:pw@127.0.0.1:${port}/hello`, "not a url"])
      expect((await refusal(guardedFetch(ctx, url))).reason, url).toBe("refused");
  });

  test("fetches private addresses when the setting allows them", async () => {
    const res = await guardedFetch(ctxWith({ allow_private_addresses: true }), `http://localhost:${port}/hello`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe("hello");
  });

  test("re-checks every redirect hop: a redirect to a private address is refused", async () => {
    // 127.0.0.1 is exempted (an operator's exception), the hop's target is not
    const ctx = ctxWith({ private_address_exceptions: ["127.0.0.1/32"] });
    expect((await guardedFetch(ctx, `http://127.0.0.1:${port}/hello`)).text()).toBe("hello");
    for (const to of [`http://127.0.0.2:${port}/hello`, `http://10.0.0.1/`, `http://[::1]:${port}/hello`, "file:///etc/passwd"]) {
      const e = await refusal(guardedFetch(ctx, `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(to)}`));
      expect(e.reason, to).toBe("refused");
      expect(e.url).toBe(to);
    }
    // an allowed redirect is followed
    const ok = await guardedFetch(ctx, `http://127.0.0.1:${port}/redirect?to=/hello`);
    expect([ok.status, ok.text(), ok.url]).toEqual([200, "hello", `http://127.0.0.1:${port}/hello`]);
  });

  test("at most five redirects, a body limit and a deadline", async () => {
    const ctx = ctxWith({ allow_private_addresses: true, max_body_bytes: 1000 });
    expect((await refusal(guardedFetch(ctx, `http://127.0.0.1:${port}/loop`))).reason).toBe("too_many_redirects");
    expect((await refusal(guardedFetch(ctx, `http://127.0.0.1:${port}/big`))).reason).toBe("too_large");
    expect((await guardedFetch(ctx, `http://127.0.0.1:${port}/big`, { maxBytes: 10_000 })).body.length).toBe(5000);
    expect((await refusal(guardedFetch(ctx, `http://127.0.0.1:${port}/silent`, { timeoutMs: 200 }))).reason).toBe("timeout");
  });
});
