// The one way the server fetches a URL on someone's behalf (emoji packs, later media proxy, frontends,
// relays). It refuses what could reach the server's own network: non-http(s) schemes and hosts that are
// or resolve to private, loopback, link-local, unique-local or unspecified addresses (unless the runtime
// setting `http.allow_private_addresses` or `http.private_address_exceptions` says otherwise). The connection is pinned to the address that
// was checked, so a second DNS answer cannot swap it; redirects are followed by hand and each hop is
// checked again. A deadline and a body size limit bound every fetch.
import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Ctx } from "../kernel/context.ts";
import { DomainError } from "../kernel/errors.ts";
import { SOFTWARE_VERSION } from "../config/version.ts";

export type FetchFailure = "refused" | "timeout" | "too_large" | "too_many_redirects" | "network";

/** A fetch the guard refused or that failed; `reason` says which. REST routes map it to their documented status. */
export class GuardedFetchError extends DomainError {
  constructor(
    readonly reason: FetchFailure,
    message: string,
    readonly url: string,
  ) {
    super(reason === "refused" ? "forbidden" : "unprocessable", message);
  }
}

export interface GuardedInit {
  method?: "GET" | "HEAD" | "POST" | "PUT" | "DELETE";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** overrides `http.max_body_bytes` (lower it for small documents) */
  maxBytes?: number;
  /** overrides `http.fetch_timeout_ms` */
  timeoutMs?: number;
  /** false: answer a redirect as it is (the caller follows it, as Fedify does); default true */
  followRedirects?: boolean;
}

export interface GuardedResponse {
  /** the URL of the last hop */
  url: string;
  status: number;
  ok: boolean;
  headers: Headers;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

const MAX_REDIRECTS = 5;
/** Names the software; callers that know the instance add its URL (see userAgent). */
const USER_AGENT = "ext-server";

/** The User-Agent of requests made for an instance: the software and the instance's URL, as fediverse servers expect. */
export function userAgent(settings: { baseUrl: string }, version = SOFTWARE_VERSION): string {
  return `${USER_AGENT}/${version} (+${settings.baseUrl}/)`;
}
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];
const V6_BLOCKED: [string, number][] = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routable inside sites)
  ["ff00::", 8], // multicast
];

const blockedV4 = new net.BlockList();
for (const [a, p] of V4_BLOCKED) blockedV4.addSubnet(a, p, "ipv4");
const blockedV6 = new net.BlockList();
for (const [a, p] of V6_BLOCKED) blockedV6.addSubnet(a, p, "ipv6");

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tails included). */
function ipv6Groups(address: string): number[] {
  let s = address.split("%")[0].toLowerCase();
  const dotted = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    s = s.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.includes("::") ? s.split("::") : [s, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/** The IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64), if any. */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  const v4 = () => `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(); // ::ffff:a.b.c.d
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4(); // ::a.b.c.d (deprecated "compatible")
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(); // 64:ff9b::/96, NAT64
  return null;
}

/** A BlockList of the CIDRs (or single addresses) an operator exempted from the guard. */
function exemptions(cidrs: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of cidrs) {
    const [addr, bits] = entry.trim().split("/");
    const family = net.isIP(addr);
    if (!family) continue;
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  return list;
}

/** True when the literal address is one the guard refuses by default. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blockedV4.check(address, "ipv4");
  if (family === 6) {
    const inner = embeddedIPv4(address);
    if (inner !== null) return blockedV4.check(inner, "ipv4");
    return blockedV6.check(address, "ipv6");
  }
  return true; // not an address at all: refuse
}

const hasHeader = (headers: Record<string, string> | undefined, name: string) => Object.keys(headers ?? {}).some((k) => k.toLowerCase() === name);

interface Checked {
  url: URL;
  /** the address to connect to, already checked */
  address: string;
  family: 4 | 6;
}

/** Checks the scheme and every address the host resolves to; answers the address to connect to. */
async function checkTarget(raw: string, allowPrivate: boolean, exempt: net.BlockList): Promise<Checked> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GuardedFetchError("refused", `Refused to fetch ${raw}: not a URL`, raw);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new GuardedFetchError("refused", `Refused to fetch ${raw}: only http and https URLs are fetched`, raw);
  if (url.username || url.password) throw new GuardedFetchError("refused", `Refused to fetch ${raw}: credentials in URLs are not sent`, raw);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true });
    } catch {
      throw new GuardedFetchError("network", `Could not fetch ${raw}: the host ${host} does not resolve`, raw);
    }
  }
  if (addresses.length === 0) throw new GuardedFetchError("network", `Could not fetch ${raw}: the host ${host} does not resolve`, raw);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address) && !exempt.check(a.address, a.family === 6 ? "ipv6" : "ipv4"));
    if (bad) throw new GuardedFetchError("refused", `Refused to fetch ${raw}: ${host} is a private or local address (${bad.address})`, raw);
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

interface Hop {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** One request to an already-checked address; the body is read up to `maxBytes`. */
function request(target: Checked, init: GuardedInit, maxBytes: number, signal: AbortSignal): Promise<Hop> {
  const { url, address, family } = target;
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: init.method ?? "GET",
        headers: { "user-agent": USER_AGENT, accept: "*/*", ...init.headers },
        signal,
        // pins the connection to the address that passed the check (TLS still verifies the host name)
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          opts?.all ? cb(null, [{ address, family }]) : cb(null, address, family)) as unknown as net.LookupFunction,
      },
      (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
        const declared = Number(res.headers["content-length"] ?? NaN);
        if (declared > maxBytes) {
          res.destroy();
          return reject(new GuardedFetchError("too_large", `Could not fetch ${url}: the body is larger than ${maxBytes} bytes`, url.href));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new GuardedFetchError("too_large", `Could not fetch ${url}: the body is larger than ${maxBytes} bytes`, url.href));
          } else chunks.push(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
        res.on("close", () => res.complete || reject(new Error("connection closed before the end of the body")));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** Fetches `url` under the guard, following at most five redirects, each checked again. */
export async function guardedFetch(ctx: Pick<Ctx, "config"> & Partial<Pick<Ctx, "settings">>, url: string, init: GuardedInit = {}): Promise<GuardedResponse> {
  const allowPrivate = ctx.config.get("http", "allow_private_addresses");
  const exempt = exemptions(ctx.config.get("http", "private_address_exceptions"));
  const timeoutMs = init.timeoutMs ?? ctx.config.get("http", "fetch_timeout_ms");
  const maxBytes = init.maxBytes ?? ctx.config.get("http", "max_body_bytes");
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  let hopInit = ctx.settings && !hasHeader(init.headers, "user-agent") ? { ...init, headers: { ...init.headers, "user-agent": userAgent(ctx.settings) } } : init;
  for (let hop = 0; ; hop++) {
    const target = await checkTarget(current, allowPrivate, exempt);
    let res: Hop;
    try {
      res = await request(target, hopInit, maxBytes, signal);
    } catch (error) {
      if (error instanceof GuardedFetchError) throw error;
      if (signal.aborted) throw new GuardedFetchError("timeout", `Could not fetch ${current}: no answer within ${timeoutMs} ms`, current);
      throw new GuardedFetchError("network", `Could not fetch ${current}: ${(error as Error).message}`, current);
    }
    const location = res.headers.get("location");
    if (REDIRECTS.has(res.status) && location && init.followRedirects !== false) {
      if (hop >= MAX_REDIRECTS) throw new GuardedFetchError("too_many_redirects", `Could not fetch ${url}: more than ${MAX_REDIRECTS} redirects`, url);
      current = new URL(location, target.url).href;
      // like browsers: 303 (and 301/302 after a POST) continue as a GET without the body
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && hopInit.method === "POST")) hopInit = { ...hopInit, method: "GET", body: undefined };
      continue;
    }
    const body = res.body;
    return {
      url: target.url.href,
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
      headers: res.headers,
      body,
      text: () => body.toString("utf8"),
      json: <T>() => JSON.parse(body.toString("utf8")) as T,
    };
  }
}
