// Criterion 6 over the real network: a server with ALLOW_PRIVATE_FETCH off refuses to resolve handles
// on private/loopback addresses (the whole test network is on loopback) before any request leaves it,
// answers a JSON 4xx (never a 500), refuses a redirect to a private address even when the first hop is
// exempted by the operator, and a server with it on (as tests run) reaches the peer with a User-Agent
// naming the software and the instance.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";

let net: FederationNet;
let open: TestInstance; // ALLOW_PRIVATE_FETCH=true
let closed: TestInstance; // ALLOW_PRIVATE_FETCH=false
let closedUser: { token: string };
let openUser: { token: string };
let peer: http.Server;
let inner: http.Server;
let innerPort = 0;
const peerHits: { path: string; ua: string }[] = [];
const innerHits: string[] = [];

beforeAll(async () => {
  net = await startFederationNet();
  [open, closed] = await Promise.all([net.start("open"), net.start("closed", { ALLOW_PRIVATE_FETCH: "false", CONFIGURABLE_FROM_DATABASE: "true" })]);
  [openUser, closedUser] = await Promise.all([open.createUser("olga"), closed.createUser("carl")]);
  // a peer reached through the TLS front (https://peer.fed.test): WebFinger for x@, a redirect for r@
  peer = http.createServer((req, res) => {
    peerHits.push({ path: req.url!, ua: String(req.headers["user-agent"]) });
    const url = new URL(req.url!, "http://x");
    const resource = url.searchParams.get("resource");
    if (url.pathname === "/.well-known/webfinger" && resource === "acct:r@peer.fed.test") {
      return void res.writeHead(302, { location: `http://127.0.0.1:${innerPort}/.well-known/webfinger?resource=acct:r@peer.fed.test` }).end();
    }
    if (url.pathname === "/.well-known/webfinger" && resource === "acct:x@peer.fed.test") {
      return void res.writeHead(200, { "content-type": "application/jrd+json" }).end(JSON.stringify({ subject: resource, links: [] }));
    }
    res.writeHead(404, { "content-type": "application/json" }).end("{}");
  });
  // a service on the machine's own network that nothing may reach through a redirect
  inner = http.createServer((req, res) => {
    innerHits.push(req.url!);
    res.writeHead(200, { "content-type": "application/jrd+json" }).end("{}");
  });
  await Promise.all([new Promise<void>((r) => peer.listen(0, "127.0.0.1", r)), new Promise<void>((r) => inner.listen(0, "127.0.0.1", r))]);
  innerPort = (inner.address() as AddressInfo).port;
  net.route("peer", (peer.address() as AddressInfo).port);
}, 120_000);

afterAll(async () => {
  await net?.close();
  await Promise.all([peer, inner].map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))));
});

test("with ALLOW_PRIVATE_FETCH off, a handle on a loopback address is refused before any request: 404 JSON, no hit", async () => {
  peerHits.length = 0;
  for (const path of ["/api/v1/accounts/lookup?acct=x@peer.fed.test", "/api/v1/accounts/lookup?acct=olga@open.fed.test"]) {
    const res = await closed.api(path, { token: closedUser.token });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBeTruthy();
  }
  const search = await closed.api("/api/v2/search?q=https://open.fed.test/users/olga&resolve=true", { token: closedUser.token });
  expect(search.status).toBe(200);
  expect((await search.json()).accounts).toEqual([]);
  const follow = await closed.api("/api/v1/follows", { token: closedUser.token, json: { uri: "olga@open.fed.test" } });
  expect(follow.status).toBe(404);
  expect(peerHits).toEqual([]);
  expect(await closed.sql("SELECT id FROM accounts WHERE local = false")).toEqual([]);
});

test("with it on, the same resolution reaches the peer, whose log shows the software and the instance", async () => {
  peerHits.length = 0;
  const res = await open.api("/api/v1/accounts/lookup?acct=x@peer.fed.test", { token: openUser.token });
  expect(res.status).toBe(404); // the peer has no actor for x: but it was asked
  expect(peerHits.map((h) => h.path)).toContain("/.well-known/webfinger?resource=acct%3Ax%40peer.fed.test");
  for (const hit of peerHits) expect(hit.ua).toMatch(/^ext-server\/\S+ \(\+https:\/\/open\.fed\.test\/\)$/);
});

test("a redirect to a private address is refused at that hop, even when the first hop is an operator's exception", async () => {
  // the operator exempts the test network's front (where peer.fed.test lives), not the rest of loopback
  await closed.sql(
    `INSERT INTO config_entries ("group", key, value, updated_at) VALUES ('http', 'private_address_exceptions', $1::jsonb, now())
     ON CONFLICT ("group", key) DO UPDATE SET value = EXCLUDED.value`,
    [JSON.stringify([net.front.address])],
  );
  await closed.restart();
  peerHits.length = 0;
  innerHits.length = 0;
  // the exemption works: x@ is asked for
  expect((await closed.api("/api/v1/accounts/lookup?acct=x@peer.fed.test", { token: closedUser.token })).status).toBe(404);
  expect(peerHits.map((h) => h.path)).toContain("/.well-known/webfinger?resource=acct%3Ax%40peer.fed.test");
  for (const hit of peerHits) expect(hit.ua).toMatch(/^ext-server\/\S+ \(\+https:\/\/closed\.fed\.test\/\)$/);
  // r@ redirects to 127.0.0.1: refused, the inner service never sees a request
  const res = await closed.api("/api/v1/accounts/lookup?acct=r@peer.fed.test", { token: closedUser.token });
  expect(res.status).toBe(404);
  expect(peerHits.some((h) => h.path.includes("acct%3Ar%40peer.fed.test"))).toBe(true);
  expect(innerHits).toEqual([]);
});
