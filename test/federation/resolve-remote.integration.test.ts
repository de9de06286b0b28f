// Remote resolution between two of our servers over the real TLS test network (criterion 4): account
// lookup by handle, search with resolve=true by actor URL and by status URL, follow by handle, thread
// context fetching missing ancestors, background refresh of stale remote accounts, remote interaction.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";

let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
let alice: { id: string; token: string };
let carol: { id: string; token: string };
let bob: { id: string; token: string };
let peer: http.Server;
let peerUrl = "";
const peerHits: { path: string; ua: string }[] = [];

const json = async (res: Response) => ({ status: res.status, body: await res.json() });

beforeAll(async () => {
  net = await startFederationNet();
  // a delivery whose first try fails on a loaded machine is tried again within the tests' waits (30 s by default)
  const retrySoon = { FEDERATION_RETRY_INITIAL_SECONDS: "3" };
  // b's account rows are edited with SQL below ("stale remote accounts"), which no cache hears: b keeps none
  [a, b] = await Promise.all([net.start("a", retrySoon), net.start("b", { ...retrySoon, ACCOUNT_CACHE_ENTRIES: "0" })]);
  [alice, carol, bob] = await Promise.all([a.createUser("alice"), a.createUser("carol"), b.createUser("bob")]);
  // a WebFinger-only peer for the remote-interaction flow: it answers the family's subscribe template
  peer = http.createServer((req, res) => {
    peerHits.push({ path: req.url!, ua: String(req.headers["user-agent"]) });
    const url = new URL(req.url!, "http://x");
    if (url.pathname === "/.well-known/webfinger" && url.searchParams.get("resource") === "acct:zed@peer.fed.test") {
      return void res.writeHead(200, { "content-type": "application/jrd+json" }).end(
        JSON.stringify({
          subject: "acct:zed@peer.fed.test",
          links: [
            { rel: "self", type: "application/activity+json", href: "https://peer.fed.test/users/zed" },
            { rel: "http://ostatus.org/schema/1.0/subscribe", template: "https://peer.fed.test/authorize_interaction?uri={uri}" },
          ],
        }),
      );
    }
    res.writeHead(404, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((r) => peer.listen(0, "127.0.0.1", r));
  peerUrl = net.route("peer", (peer.address() as AddressInfo).port);
}, 120_000);

afterAll(async () => {
  await net?.close();
  await new Promise<void>((r) => (peer ? peer.close(() => r()) : r()));
});

describe("accounts", () => {
  test("lookup of alice@a.fed.test from b fetches and stores the remote account", async () => {
    const { status, body } = await json(await b.api("/api/v1/accounts/lookup?acct=alice@a.fed.test", { token: bob.token }));
    expect(status).toBe(200);
    // the profile URL is the one a gives its own account
    const home = (await json(await a.api(`/api/v1/accounts/${alice.id}`))).body;
    expect(body).toMatchObject({ username: "alice", acct: "alice@a.fed.test", url: home.url, display_name: home.display_name });
    const [row] = await b.sql<{ local: boolean; domain: string; ap_id: string; nickname: string; last_fetched_at: Date | null; inbox: string | null }>(
      "SELECT local, domain, ap_id, nickname, last_fetched_at, inbox FROM accounts WHERE nickname = 'alice@a.fed.test'",
    );
    expect(row).toMatchObject({ local: false, domain: "a.fed.test", ap_id: "https://a.fed.test/users/alice" });
    expect(row.last_fetched_at).toBeTruthy();
    expect(row.inbox).toBe("https://a.fed.test/users/alice/inbox");
    // a second lookup answers the stored account (same id)
    const again = await json(await b.api("/api/v1/accounts/lookup?acct=@alice@a.fed.test"));
    expect(again.body.id).toBe(body.id);
  });

  test("an unknown remote handle is 404 with a JSON error, not a server error", async () => {
    const { status, body } = await json(await b.api("/api/v1/accounts/lookup?acct=nobody@a.fed.test", { token: bob.token }));
    expect(status).toBe(404);
    expect(body.error).toBeTruthy();
  });

  test("v2 search with resolve=true finds an account by its actor URL (signed-in only)", async () => {
    // anonymous: the server does not fetch
    const anon = await json(await b.api("/api/v2/search?q=https://a.fed.test/users/carol&resolve=true"));
    expect(anon.status).toBe(200);
    expect(anon.body.accounts).toEqual([]);
    expect(await b.sql("SELECT id FROM accounts WHERE nickname = 'carol@a.fed.test'")).toEqual([]);

    const { status, body } = await json(await b.api("/api/v2/search?q=https://a.fed.test/users/carol&resolve=true", { token: bob.token }));
    expect(status).toBe(200);
    expect(body.accounts.map((x: { acct: string }) => x.acct)).toEqual(["carol@a.fed.test"]);
  });

  test("accounts/search with resolve=true finds a handle", async () => {
    await a.createUser("dave");
    const { status, body } = await json(await b.api("/api/v1/accounts/search?q=dave@a.fed.test&resolve=true", { token: bob.token }));
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({ acct: "dave@a.fed.test", username: "dave" });
  });
});

describe("follow by handle", () => {
  test("POST /api/v1/follows {uri: user@host} fetches the account and follows it", async () => {
    await a.createUser("erin");
    const { status, body } = await json(await b.api("/api/v1/follows", { token: bob.token, json: { uri: "erin@a.fed.test" } }));
    expect(status).toBe(200);
    expect(body.following || body.requested).toBe(true);
    const rows = await b.sql<{ state: string }>(
      "SELECT f.state FROM follows f JOIN accounts t ON t.id = f.following_id JOIN accounts s ON s.id = f.follower_id WHERE t.nickname = 'erin@a.fed.test' AND s.nickname = 'bob'",
    );
    expect(rows.length).toBe(1);
  });

  test("end to end: the Follow reaches a, which stores bob@b.fed.test as erin's follower", async () => {
    await waitFor(
      async () =>
        (await a.sql("SELECT 1 FROM follows f JOIN accounts s ON s.id = f.follower_id JOIN accounts t ON t.id = f.following_id WHERE s.nickname = 'bob@b.fed.test' AND t.nickname = 'erin'")).length === 1, "a's follows to hold bob@b.fed.test → erin", { timeoutMs: 20_000 });
  });

  test("by actor URL too", async () => {
    await a.createUser("fern");
    const { status, body } = await json(await b.api("/api/v1/follows", { token: bob.token, json: { uri: "https://a.fed.test/users/fern" } }));
    expect(status).toBe(200);
    expect(body.following || body.requested).toBe(true);
  });
});

describe("statuses", () => {
  test("v2 search with resolve=true finds a status by its URL", async () => {
    const posted = await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "a findable post", visibility: "public" } }));
    expect(posted.status).toBe(200);
    for (const q of [posted.body.uri as string]) {
      const { status, body } = await json(await b.api(`/api/v2/search?q=${encodeURIComponent(q)}&resolve=true`, { token: bob.token }));
      expect(status).toBe(200);
      expect(body.statuses.map((s: { uri: string }) => s.uri)).toEqual([posted.body.uri]);
      expect(body.statuses[0].content).toContain("a findable post");
      expect(body.statuses[0].account.acct).toBe("alice@a.fed.test");
    }
  });

  test("thread context of a remote reply shows its ancestors, also those beyond what storing the reply fetched", async () => {
    // a chain of six on a (deeper than the parents fetched when a reply is stored): b is shown the leaf
    const chain: { id: string; uri: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const author = i % 2 ? carol : alice;
      const json_ = { status: `thread post ${i}`, ...(chain.length ? { in_reply_to_id: chain.at(-1)!.id } : {}) };
      chain.push((await json(await a.api("/api/v1/statuses", { token: author.token, json: json_ }))).body);
    }
    const leaf = chain.at(-1)!;
    const found = (await json(await b.api(`/api/v2/search?q=${encodeURIComponent(leaf.uri)}&resolve=true`, { token: bob.token }))).body;
    expect(found.statuses).toHaveLength(1);
    const { status, body } = await json(await b.api(`/api/v1/statuses/${found.statuses[0].id}/context`, { token: bob.token }));
    expect(status).toBe(200);
    expect(body.ancestors.map((s: { uri: string }) => s.uri)).toEqual(chain.slice(0, -1).map((s) => s.uri));
    // the chain is linked in b's database: every post but the root has its parent
    const rows = await b.sql<{ uri: string; parent: string | null }>(
      "SELECT s.uri, p.uri AS parent FROM statuses s LEFT JOIN statuses p ON p.id = s.in_reply_to_id WHERE s.uri = ANY($1)",
      [chain.map((c) => c.uri)],
    );
    const parentOf = new Map(rows.map((r) => [r.uri, r.parent]));
    chain.forEach((c, i) => expect(parentOf.get(c.uri)).toBe(i ? chain[i - 1].uri : null));
    // and the root's context is the whole thread, seen from the root
    const rootId = (await b.sql<{ id: string }>("SELECT id FROM statuses WHERE uri = $1", [chain[0].uri]))[0].id;
    const fromRoot = (await json(await b.api(`/api/v1/statuses/${rootId}/context`, { token: bob.token }))).body;
    expect(fromRoot.descendants.map((s: { uri: string }) => s.uri)).toEqual(chain.slice(1).map((s) => s.uri));
  });

  test("a thread walk that fails (a parent the server will not show) is tried again after minutes, a complete one after a day", async () => {
    // alice's root is followers-only: b's instance actor is refused it, so the walk above the public reply stops short
    const root = (await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "hidden root", visibility: "private" } }))).body;
    const reply = (await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "public reply", in_reply_to_id: root.id } }))).body;
    const found = (await json(await b.api(`/api/v2/search?q=${encodeURIComponent(reply.uri)}&resolve=true`, { token: bob.token }))).body;
    expect(found.statuses).toHaveLength(1);
    const id = found.statuses[0].id;
    const { status, body } = await json(await b.api(`/api/v1/statuses/${id}/context`, { token: bob.token }));
    expect(status).toBe(200);
    expect(body.ancestors).toEqual([]);
    expect(await b.sql("SELECT 1 FROM statuses WHERE uri = $1", [root.uri])).toHaveLength(0);
    const expiresIn = async (statusId: string) => {
      const [row] = await b.sql<{ seconds: number }>(
        "SELECT EXTRACT(EPOCH FROM expires_at - now())::float8 AS seconds FROM federation_kv WHERE key = $1",
        [JSON.stringify(["ext", "ancestors_checked", statusId])],
      );
      return row?.seconds;
    };
    // the failed walk is remembered for five minutes: views meanwhile do not wait on a again
    const failed = await expiresIn(id);
    expect(failed).toBeGreaterThan(4 * 60);
    expect(failed).toBeLessThanOrEqual(5 * 60);
    // a public chain walked to its root is remembered for a day
    const top = (await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "public root" } }))).body;
    const next = (await json(await a.api("/api/v1/statuses", { token: alice.token, json: { status: "public next", in_reply_to_id: top.id } }))).body;
    const nextOnB = (await json(await b.api(`/api/v2/search?q=${encodeURIComponent(next.uri)}&resolve=true`, { token: bob.token }))).body.statuses[0];
    const whole = (await json(await b.api(`/api/v1/statuses/${nextOnB.id}/context`, { token: bob.token }))).body;
    expect(whole.ancestors.map((s: { uri: string }) => s.uri)).toEqual([top.uri]);
    // (the root came with the reply; the walk up from the root found it is the root)
    const [topOnB] = await b.sql<{ id: string }>("SELECT id FROM statuses WHERE uri = $1", [top.uri]);
    expect(await expiresIn(topOnB.id)).toBeGreaterThan(23 * 3600);
  });
});

describe("stale remote accounts", () => {
  test("reading a remote account last fetched over a day ago refreshes it in the background, once", async () => {
    await b.api("/api/v1/accounts/lookup?acct=alice@a.fed.test", { token: bob.token });
    const updated = await a.api("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, json: { display_name: "Alice Renamed" } });
    expect(updated.status).toBe(200);
    await b.sql("UPDATE accounts SET last_fetched_at = now() - interval '2 days' WHERE nickname = 'alice@a.fed.test'");
    const [{ id }] = await b.sql<{ id: string }>("SELECT id FROM accounts WHERE nickname = 'alice@a.fed.test'");
    // read twice: one refresh job, not two
    expect((await b.api(`/api/v1/accounts/${id}`, { token: bob.token })).status).toBe(200);
    expect((await b.api(`/api/v1/accounts/${id}`)).status).toBe(200);
    const account = await waitFor(
      async () => {
        const body = (await json(await b.api(`/api/v1/accounts/${id}`))).body;
        return body.display_name === "Alice Renamed" ? body : null;
      }, "the refreshed display name", { timeoutMs: 30_000 });
    expect(account.acct).toBe("alice@a.fed.test");
    const jobs = await b.sql("SELECT id FROM jobs WHERE name = 'federation.refresh_account' AND payload->>'accountId' = $1", [id]);
    expect(jobs).toHaveLength(1);
  });
});

describe("remote interaction", () => {
  test("answers the profile's server subscribe template with the object's id", async () => {
    const apId = "https://b.fed.test/objects/123?x=1";
    const { status, body } = await json(await b.api("/api/v1/ext/remote_interaction", { json: { ap_id: apId, profile: "zed@peer.fed.test" } }));
    expect(status).toBe(200);
    expect(body).toEqual({ url: `${peerUrl}/authorize_interaction?uri=${encodeURIComponent(apId)}` });
    // the peer saw our instance's User-Agent
    expect(peerHits.some((h) => h.path.startsWith("/.well-known/webfinger") && /^ext-server\/\S+ \(\+https:\/\/b\.fed\.test\/\)$/.test(h.ua))).toBe(true);
  });

  test("an unknown profile answers the family's {error}", async () => {
    const { status, body } = await json(await b.api("/api/v1/ext/remote_interaction", { json: { ap_id: "https://b.fed.test/objects/1", profile: "nobody@peer.fed.test" } }));
    expect(status).toBe(200);
    expect(body).toEqual({ error: "Couldn't find user" });
  });
});
