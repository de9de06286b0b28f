// Actors and statuses fetched over the real TLS test network (criteria 1 and 7): one of our servers at
// https://a.fed.test, and a Fedify peer inside this test process at https://peer.fed.test (and, with the
// same keys' documents, at https://blocked.fed.test, a domain `a` rejects). The peer fetches unsigned and
// with HTTP signatures (draft-cavage and RFC 9421) that `a` really verifies by fetching the peer's key.
// `activitypub-testing` 0.16.1 checks a local actor and its outbox.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createFederation, generateCryptoKeyPair, MemoryKvStore, signRequest, type Federation } from "@fedify/fedify";
import { Note, Person } from "@fedify/vocab";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { ADMIN_TOKEN, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";

const AP = "application/activity+json";
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const PRELOAD = path.join(ROOT, "test/support/federation/loopback-dns.mjs");

let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
let alice: { id: string; token: string };
let peerServer: http.Server;
let peer: Federation<void>;
let keys: CryptoKeyPair[];
const statuses: Record<string, { id: string; uri: string }> = {};

/** A minimal Fedify server: one Person, `peer`, with an RSA and an Ed25519 key, on whatever host it is asked as. */
async function startPeer() {
  keys = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), await generateCryptoKeyPair("Ed25519")];
  peer = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  peer
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (identifier !== "peer") return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        inbox: ctx.getInboxUri(identifier),
        publicKey: pairs[0]!.cryptographicKey,
        assertionMethods: pairs.map((p) => p.multikey),
      });
    })
    .setKeyPairsDispatcher(async () => keys);
  peer.setInboxListeners("/users/{identifier}/inbox", "/inbox");
  peerServer = http.createServer(async (req, res) => {
    const request = new Request(`https://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers as Record<string, string> });
    const response = await peer.fetch(request, { contextData: undefined });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => peerServer.listen(0, "127.0.0.1", r));
  const port = (peerServer.address() as AddressInfo).port;
  net.route("peer", port);
  net.route("blocked", port);
}

/** GET `url` as ActivityStreams, unsigned or signed by the peer actor of `host`. */
async function get(url: string, signer?: { host: string; spec?: "draft-cavage-http-signatures-12" | "rfc9421" }) {
  let request = new Request(url, { headers: { accept: AP } });
  if (signer) request = await signRequest(request, keys[0]!.privateKey, new URL(`https://${signer.host}/users/peer#main-key`), { spec: signer.spec });
  const res = await fetch(request, { redirect: "manual" });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null };
}

async function post(body: Record<string, unknown>) {
  const res = await a.api("/api/v1/statuses", { token: alice.token, json: body });
  if (res.status !== 200) throw new Error(`post: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; uri: string };
}

/** Sets runtime settings of `a` through its admin API, in the family's form. */
async function configure(key: string, entries: [string, unknown][]) {
  const res = await a.api("/api/v1/ext/admin/config", {
    headers: { "x-admin-token": ADMIN_TOKEN },
    json: { configs: [{ group: ":pleroma", key, value: entries.map(([k, v]) => ({ tuple: [`:${k}`, v] })) }] },
  });
  if (res.status !== 200) throw new Error(`config: ${res.status} ${await res.text()}`);
}
const authorizedFetch = (on: boolean) => configure(":activitypub", [["authorized_fetch_mode", on]]);

beforeAll(async () => {
  net = await startFederationNet();
  [a, b] = await Promise.all([net.start("a", { CONFIGURABLE_FROM_DATABASE: "true" }), net.start("b")]);
  alice = await a.createUser("alice");
  await startPeer();
  await configure(":mrf_simple", [["reject", [{ tuple: ["blocked.fed.test", "test"] }]]]);
  statuses.public = await post({ status: "hello from a", visibility: "public" });
  statuses.private = await post({ status: "followers only", visibility: "private" });
  statuses.direct = await post({ status: "to nobody", visibility: "direct" });
  statuses.local = await post({ status: "stays here", visibility: "local" });
}, 120_000);

afterAll(async () => {
  await net?.close();
  await new Promise<void>((r) => (peerServer ? peerServer.close(() => r()) : r()));
});

describe("authorized fetch off (the default)", () => {
  test("anyone fetches the actor, the public status and the outbox; a Fedify client reads them", async () => {
    const actor = await get("https://a.fed.test/users/alice");
    expect(actor.status).toBe(200);
    expect(actor.body).toMatchObject({ id: "https://a.fed.test/users/alice", type: "Person", inbox: "https://a.fed.test/users/alice/inbox" });
    expect((await get(statuses.public!.uri)).body).toMatchObject({ id: statuses.public!.uri, type: "Note" });
    expect((await get("https://a.fed.test/users/alice/outbox")).body).toMatchObject({ type: "OrderedCollection", totalItems: 1 });

    const ctx = peer.createContext(new URL("https://peer.fed.test"), undefined);
    const person = await ctx.lookupObject("acct:alice@a.fed.test");
    expect(person).toBeInstanceOf(Person);
    expect(person!.id!.href).toBe("https://a.fed.test/users/alice");
    const key = await (person as Person).getPublicKey();
    expect(key?.ownerId?.href).toBe("https://a.fed.test/users/alice");
    const note = await ctx.lookupObject(statuses.public!.uri);
    expect(note).toBeInstanceOf(Note);
    expect(String((note as Note).content)).toContain("hello from a");
  });

  test("a followers-only status is served only to a signed fetch from a follower's server; direct and local ones are not", async () => {
    for (const s of ["private", "direct", "local"]) expect((await get(statuses[s]!.uri)).status).toBe(404);
    // signed, but nobody on peer.fed.test follows alice yet
    expect((await get(statuses.private!.uri, { host: "peer.fed.test" })).status).toBe(404);
    const [{ id: peerId }] = await a.sql<{ id: string }>(
      "INSERT INTO accounts (id, nickname, domain, local, ap_id, inbox, updated_at) VALUES ($1, 'peer@peer.fed.test', 'peer.fed.test', false, 'https://peer.fed.test/users/peer', 'https://peer.fed.test/users/peer/inbox', now()) RETURNING id",
      [newId()],
    );
    await a.sql("INSERT INTO follows (id, follower_id, following_id, state, updated_at) VALUES ($1, $2, $3, 'accept', now())", [newId(), peerId, alice.id]);
    for (const spec of ["draft-cavage-http-signatures-12", "rfc9421"] as const) {
      const signed = await get(statuses.private!.uri, { host: "peer.fed.test", spec });
      expect([spec, signed.status]).toEqual([spec, 200]);
      expect(signed.body).toMatchObject({ id: statuses.private!.uri, type: "Note" });
    }
    expect((await get(statuses.direct!.uri, { host: "peer.fed.test" })).status).toBe(404);
    expect((await get(statuses.local!.uri, { host: "peer.fed.test" })).status).toBe(404);
    // the follower shows in the followers collection, and Fedify's followers synchronization filter keeps it
    const page = await get("https://a.fed.test/users/alice/followers?cursor=");
    expect([page.body.orderedItems].flat()).toContain("https://peer.fed.test/users/peer");
    const sync = await get("https://a.fed.test/users/alice/followers?base-url=https%3A%2F%2Fpeer.fed.test%2F&cursor=", { host: "peer.fed.test" });
    expect([sync.body.orderedItems].flat()).toEqual(["https://peer.fed.test/users/peer"]);
  });

  test("a request signed with a key of a rejected domain is refused", async () => {
    expect((await get(statuses.public!.uri, { host: "blocked.fed.test" })).status).toBe(401);
  });

  // `--output=json` compacts the results as JSON-LD and so fetches the actor's @context documents from the
  // internet; `text/plain` writes one JSON assertion per line and needs nothing but our server
  test("activitypub-testing 0.16.1 passes every applicable rule against a local actor and its outbox", async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(ROOT, "node_modules/activitypub-testing/src/cli.js"), "test", "actor", "https://a.fed.test/users/alice", "--output=text/plain"], {
        cwd: ROOT,
        env: { ...process.env, TEST_HOSTS_DEFAULT: net.front.address, NODE_OPTIONS: `--import ${PRELOAD}` },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`activitypub-testing exited with ${code}: ${stderr}\n${stdout}`))));
    });
    const results = out
      .trim()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { test: { slug: string }; result: { outcome: string; info?: string } });
    const outcomes = Object.fromEntries(results.map((r) => [r.test.slug, r.result.outcome]));
    // applicable rules must pass
    for (const slug of ["actor-must-serve-as2-object-to-get", "actor-objects-must-have-inbox-outbox-properties", "outbox-must-be-an-orderedcollection", "followers-collection-must-be-a-collection", "following-collection-must-be-a-collection"]) {
      expect([slug, outcomes[slug]]).toEqual([slug, "passed"]);
    }
    // nothing fails. Not applicable: the inbox is not readable by GET (404, as in Mastodon; the family shows
    // it to its owner only); actors have no liked/likes/shares collections; the client-to-server rules
    // (POST to the outbox) do not apply to a server without client-to-server ActivityPub: they answer
    // inapplicable, or cantTell for the 404 of the POST
    expect(results.filter((r) => r.result.outcome === "failed")).toEqual([]);
    expect(outcomes["inbox-must-be-an-orderedcollection"]).toBe("inapplicable");
    for (const [slug, outcome] of Object.entries(outcomes)) if (slug.includes("outbox-post") || slug.includes("post-outbox") || slug.includes("create-then-update")) expect(["passed", "inapplicable", "cantTell"]).toContain(outcome);
    expect(results.length).toBeGreaterThanOrEqual(15);
  }, 120_000);
});

describe("authorized fetch on", () => {
  beforeAll(() => authorizedFetch(true));
  afterAll(() => authorizedFetch(false));

  test("unsigned fetches of statuses and collections are 401; the actor and the instance actor stay readable", async () => {
    await waitFor(async () => (await get(statuses.public!.uri)).status === 401, "authorized fetch on");
    for (const url of [statuses.public!.uri, `${statuses.public!.uri}/activity`, "https://a.fed.test/users/alice/outbox", "https://a.fed.test/users/alice/followers", "https://a.fed.test/users/alice/collections/featured"]) {
      expect([url, (await get(url)).status]).toEqual([url, 401]);
    }
    expect((await get("https://a.fed.test/users/alice")).status).toBe(200);
    expect((await get("https://a.fed.test/internal/fetch")).body).toMatchObject({ id: "https://a.fed.test/internal/fetch", type: "Application" });
  });

  test("signed fetches from an accepted domain are served (both signature specs); a rejected domain's are 401", async () => {
    for (const spec of ["draft-cavage-http-signatures-12", "rfc9421"] as const) {
      expect((await get(statuses.public!.uri, { host: "peer.fed.test", spec })).body).toMatchObject({ id: statuses.public!.uri, type: "Note" });
      expect((await get("https://a.fed.test/users/alice/outbox", { host: "peer.fed.test", spec })).body).toMatchObject({ type: "OrderedCollection" });
    }
    expect((await get(statuses.public!.uri, { host: "blocked.fed.test" })).status).toBe(401);
    expect((await get("https://a.fed.test/users/alice/outbox", { host: "blocked.fed.test" })).status).toBe(401);
  });

  test("another of our servers resolves the actor and a status: its fetches are signed by its instance actor", async () => {
    const fresh = await post({ status: "found from b" });
    const bob = await b.createUser("bob");
    const res = await b.api(`/api/v2/search?q=${encodeURIComponent(fresh.uri)}&resolve=true`, { token: bob.token });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.statuses).toEqual([expect.objectContaining({ uri: fresh.uri, content: expect.stringContaining("found from b") })]);
    expect(body.statuses[0].account).toMatchObject({ acct: "alice@a.fed.test" });
  });

  test("a Fedify client reads the status with its actor's signed document loader, and not without", async () => {
    // a status the peer never fetched (its document loader caches what it fetched before)
    const fresh = await post({ status: "fetched with a signature" });
    const ctx = peer.createContext(new URL("https://peer.fed.test"), undefined);
    expect(await ctx.lookupObject(fresh.uri)).toBeNull();
    const documentLoader = await ctx.getDocumentLoader({ identifier: "peer" });
    const note = await ctx.lookupObject(fresh.uri, { documentLoader });
    expect(note).toBeInstanceOf(Note);
    expect(String((note as Note).content)).toContain("fetched with a signature");
  });
});
