// Issue 17: the count cache (src/domain/accounts/count-cache.ts). A page of statuses and an account's
// own page take the followers/following counts from the cache once they were counted; every follow
// change (follow, unfollow, an accepted request, a block, a removed follower, a deleted account) shows
// on the very next page, in this process and, over Redis, in the others; a warm page is the same JSON as
// a cold one; a follow write the announcements cannot name drops the counts but not the token cache.
// `statuses_count` (public and unlisted statuses, no reblogs: Pleroma's note_count) is cached with them,
// and a post, a deletion or an admin's visibility change shows on the next page likewise.
// Each case first checks that the counts it is about are cached, then changes them, then asks once.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accountCache } from "../../src/domain/accounts/account-cache.ts";
import { purgeAccount } from "../../src/domain/accounts/account-actions.ops.ts";
import { countCache } from "../../src/domain/accounts/count-cache.ts";
import { tokenCache } from "../../src/domain/auth/token-cache.ts";
import { systemCtx } from "../../src/domain/context.ts";
import type { RunningServer } from "../../src/server.ts";
import { admin, bearer, user, type User } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { serversSharingRedis, signInOn, type SharedServers } from "../support/redis-servers.ts";
import { pageCacheOf } from "../../src/http/routes/page-cache.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

/** the statement that counts follows (accounts/account-counts.ts), alone or in the page's statement */
const COUNTING = /count\(\*\)::int FROM follows f WHERE f\.following_id/;

/** The SQL statements `fn` sent through `server`'s database (the job queue's polling left out). */
async function statements(server: Pick<RunningServer, "database">, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const stop = server.database.onQuery((sql) => void (/\bjobs\b/.test(sql) || seen.push(sql)));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen;
}

const countsOf = (a: { followers_count: number; following_count: number }) => [a.followers_count, a.following_count];

describe.each(suiteKinds(import.meta.url))("count cache on %s", (kind) => {
  let server: TestServer;
  let ana: User; // the author
  let ben: User; // a reader who follows ana

  const ok = async (r: Promise<{ status: number; body: any }>) => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const home = async () => (await ok(call(server, ben, "GET", "/api/v1/timelines/home?limit=40"))) as any[];
  /** ana's [followers, following] as ben's next home page shows them */
  const anaOnHome = async () => countsOf((await home()).find((s) => s.account.id === ana.id)!.account);
  /** an account's [followers, following] as GET /api/v1/accounts/:id shows it to ben */
  const onProfile = async (who: User) => countsOf(await ok(call(server, ben, "GET", `/api/v1/accounts/${who.id}`)));
  const cached = (who: User) => countCache(server.services).get(who.id);
  /** reads the page and the profile, and checks that both left `who`'s counts in the cache */
  const warm = async (...who: User[]) => {
    await home();
    for (const w of who) {
      await onProfile(w);
      expect(cached(w), `${w.nickname}'s counts cached`).toBeDefined();
    }
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben] = [await user(server, "ana"), await user(server, "ben")];
    await ok(call(server, ben, "POST", `/api/v1/accounts/${ana.id}/follow`));
    await ok(server.fetch("/api/v1/statuses", { json: { status: "hello" }, headers: ana.auth }).then(async (r) => ({ status: r.status, body: await r.json() })));
  }, 120_000);
  afterAll(() => server?.close());

  test("a warm page takes the counts from the cache and renders the same as a cold one; a warm profile counts nothing", async () => {
    const cache = countCache(server.services);
    cache.invalidate({ all: "f" });
    const cold = await home();
    expect(cached(ana)).toEqual({ followers: 1, following: 0, statuses: 1 });
    expect(await home()).toEqual(cold);
    // the counts come from the cache, not from the database: a value put there shows on both pages
    cache.store(cache.begin(), ana.id, { followers: 77, following: 5, statuses: 1 });
    pageCacheOf(server.services)!.clear(); // the page kept above was rendered before that value: render it again
    expect(await anaOnHome()).toEqual([77, 5]);
    const profile = await statements(server, async () => expect(await onProfile(ana)).toEqual([77, 5]));
    expect(profile.filter((s) => COUNTING.test(s)), "no counting statement").toEqual([]);
    cache.invalidate({ keys: [`f:${ana.id}`] });
    pageCacheOf(server.services)!.clear();
    expect(await anaOnHome()).toEqual([1, 0]);
    expect(await onProfile(ana)).toEqual([1, 0]);
  });

  test("a follow and an unfollow show on the next page and profile", async () => {
    const cat = await user(server, "cat");
    await warm(ana, cat);
    await ok(call(server, cat, "POST", `/api/v1/accounts/${ana.id}/follow`));
    expect(await anaOnHome()).toEqual([2, 0]);
    expect(await onProfile(cat)).toEqual([0, 1]);
    await warm(ana, cat);
    await ok(call(server, cat, "POST", `/api/v1/accounts/${ana.id}/unfollow`));
    expect(await anaOnHome()).toEqual([1, 0]);
    expect(await onProfile(cat)).toEqual([0, 0]);
  });

  test("a follow request counts once accepted", async () => {
    const lou = await user(server, "lou"); // locked
    await ok(server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", json: { locked: true }, headers: lou.auth }).then(async (r) => ({ status: r.status, body: await r.json() })));
    const dan = await user(server, "dan");
    expect((await ok(call(server, dan, "POST", `/api/v1/accounts/${lou.id}/follow`))).requested).toBe(true);
    await warm(lou, dan);
    expect(await onProfile(lou)).toEqual([0, 0]);
    await ok(call(server, lou, "POST", `/api/v1/follow_requests/${dan.id}/authorize`));
    expect(await onProfile(lou)).toEqual([1, 0]);
    expect(await onProfile(dan)).toEqual([0, 1]);
  });

  test("a block ends the follows both ways: both accounts' counts change on the next page", async () => {
    const eve = await user(server, "eve");
    await ok(call(server, eve, "POST", `/api/v1/accounts/${ana.id}/follow`));
    await ok(call(server, ana, "POST", `/api/v1/accounts/${eve.id}/follow`));
    await warm(ana, eve);
    expect(await anaOnHome()).toEqual([2, 1]);
    await ok(call(server, ana, "POST", `/api/v1/accounts/${eve.id}/block`));
    expect(await anaOnHome()).toEqual([1, 0]);
    expect(await onProfile(eve)).toEqual([0, 0]);
  });

  test("a follower removed (remove_from_followers) no longer counts", async () => {
    const gus = await user(server, "gus");
    await ok(call(server, gus, "POST", `/api/v1/accounts/${ana.id}/follow`));
    await warm(ana, gus);
    expect(await anaOnHome()).toEqual([2, 0]);
    await ok(call(server, ana, "POST", `/api/v1/accounts/${gus.id}/remove_from_followers`));
    expect(await anaOnHome()).toEqual([1, 0]);
    expect(await onProfile(gus)).toEqual([0, 0]);
  });

  test("a deleted account's follows no longer count, on either end", async () => {
    const fay = await user(server, "fay");
    await ok(call(server, fay, "POST", `/api/v1/accounts/${ana.id}/follow`));
    await ok(call(server, ana, "POST", `/api/v1/accounts/${fay.id}/follow`));
    await warm(ana, fay);
    expect(await anaOnHome()).toEqual([2, 1]);
    await purgeAccount(systemCtx(server.services), fay.id); // what the deletion job runs
    expect(await anaOnHome()).toEqual([1, 0]);
  });

  test("a follow write that names no follow drops every count, and neither the token nor the account cache", async () => {
    await warm(ana);
    // ben's token is cached: his requests read no token
    expect((await statements(server, () => home())).filter((s) => /\boauth_tokens\b/.test(s))).toEqual([]);
    const tokens = tokenCache(server.services).size;
    const follow = await server.services.db.follow.findFirstOrThrow({ where: { followerId: ben.id, followingId: ana.id } });
    // by id alone: the announcement cannot name its ends (src/db/row-writes.ts)
    await server.services.db.follow.updateMany({ where: { id: follow.id }, data: { state: "accept" } });
    expect(countCache(server.services).size).toBe(0);
    expect(tokenCache(server.services).size).toBe(tokens);
    expect(accountCache(server.services).get(ana.id)).toBeDefined();
    expect((await statements(server, () => home())).filter((s) => /\boauth_tokens\b/.test(s))).toEqual([]);
  });

  test("statuses_count: public and unlisted posts count, reblogs and private or direct ones do not; a post, a deletion and a visibility change show at once", async () => {
    const ida = await user(server, "ida");
    const adm = await admin(server, "adm");
    const post = async (status: string, visibility: string) => (await ok(call(server, ida, "POST", "/api/v1/statuses", { status, visibility }))).id as string;
    /** ida's statuses_count as her own verify_credentials, ben's view of her profile and her latest status on ben's public timeline show it */
    const counts = async () => {
      const own = (await ok(call(server, ida, "GET", "/api/v1/accounts/verify_credentials"))).statuses_count;
      const profile = (await ok(call(server, ben, "GET", `/api/v1/accounts/${ida.id}`))).statuses_count;
      const onPage = ((await ok(call(server, ben, "GET", `/api/v1/accounts/${ida.id}/statuses`))) as any[])[0]?.account.statuses_count;
      expect(countCache(server.services).get(ida.id)?.statuses, "cached after the reads").toBe(own);
      return [own, profile, onPage];
    };
    await post("one", "public");
    expect(await counts()).toEqual([1, 1, 1]);
    const two = await post("two", "unlisted");
    expect(await counts()).toEqual([2, 2, 2]);
    await post("three", "private");
    await post("@ben four", "direct");
    expect((await counts()).slice(0, 2)).toEqual([2, 2]);
    // her reblog of her own status and ben's reblog of hers count for no one
    await ok(call(server, ida, "POST", `/api/v1/statuses/${two}/reblog`));
    await ok(call(server, ben, "POST", `/api/v1/statuses/${two}/reblog`));
    expect((await counts()).slice(0, 2)).toEqual([2, 2]);
    expect((await ok(call(server, ben, "GET", "/api/v1/accounts/verify_credentials"))).statuses_count).toBe(0);
    // an admin makes the unlisted one private: it leaves the count; back to public: it is counted again
    const setVisibility = (visibility: string) => ok(call(server, adm, "PUT", `/api/v1/ext/admin/statuses/${two}`, { visibility }));
    await setVisibility("private");
    expect((await counts()).slice(0, 2)).toEqual([1, 1]);
    await setVisibility("public");
    expect((await counts()).slice(0, 2)).toEqual([2, 2]);
    await ok(call(server, ida, "DELETE", `/api/v1/statuses/${two}`));
    expect(await counts()).toEqual([1, 1, 1]);
    // what is stored agrees with a count straight from the table
    const [row] = await server.services.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM statuses WHERE account_id = $1 AND reblog_of_id IS NULL AND visibility IN ('public', 'unlisted')`,
      ida.id,
    );
    expect(row.n).toBe(1);
    // GraphQL's Account.statusesCount is the same count
    const gql = await server.fetch("/graphql", { json: { query: `{ account(id: "${ida.id}") { statusesCount } }` }, headers: ben.auth });
    expect(((await gql.json()) as any).data.account.statusesCount).toBe(1);
  });

  test("ACCOUNT_CACHE_ENTRIES=0 counts every time", async () => {
    const off = await startTestServer(kind, { ACCOUNT_CACHE_ENTRIES: "0" });
    try {
      const [a, b] = [await user(off, "ana"), await user(off, "ben")];
      await call(off, b, "POST", `/api/v1/accounts/${a.id}/follow`);
      for (let i = 0; i < 2; i++) {
        const sql = await statements(off, async () => expect(countsOf((await call(off, b, "GET", `/api/v1/accounts/${a.id}`)).body)).toEqual([1, 0]));
        expect(sql.filter((s) => COUNTING.test(s))).toHaveLength(1);
      }
      expect(countCache(off.services).size).toBe(0);
    } finally {
      await off.close();
    }
  }, 120_000);
});

describe("count cache across two servers sharing Redis", () => {
  let a: RunningServer;
  let b: RunningServer;
  let shared: SharedServers;

  beforeAll(async () => {
    shared = await serversSharingRedis(2);
    [a, b] = shared.servers;
  }, 120_000);
  afterAll(() => shared?.close());

  test("a follow through A reaches B's next page", async () => {
    const [ana, ben, cat] = [await signInOn(a, "ana"), await signInOn(a, "ben"), await signInOn(a, "cat")];
    const send = (server: RunningServer, who: { token: string }, method: string, p: string, body?: unknown) =>
      fetch(server.url + p, { method, headers: { ...bearer(who.token), "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    expect((await send(a, ben, "POST", `/api/v1/accounts/${ana.id}/follow`)).status).toBe(200);
    expect((await send(a, ana, "POST", "/api/v1/statuses", { status: "hello" })).status).toBe(200);
    const anaOn = async (server: RunningServer) => ((await (await send(server, ben, "GET", "/api/v1/timelines/home")).json()) as any[])[0].account.followers_count;
    expect(await anaOn(b)).toBe(1);
    expect(countCache(b.services).get(ana.id)).toEqual({ followers: 1, following: 0, statuses: 1 });
    expect((await send(a, cat, "POST", `/api/v1/accounts/${ana.id}/follow`)).status).toBe(200);
    // the event crosses Redis within a second or two; the cache would hold the counts for a minute
    await waitFor(async () => (await anaOn(b)) === 2, "B to show the new count", { timeoutMs: 3_000, intervalMs: 50 });
  });
});
