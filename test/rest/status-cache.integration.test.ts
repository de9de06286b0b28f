// Issue 17: the status cache (src/domain/statuses/status-cache.ts). Every write that changes what all
// viewers see of a status must reach the next read through the cache (each case reads the status
// first, so that it is cached, then writes, then reads as another viewer); the viewer's own fields
// stay per viewer; a warm page costs the same statements as a cold one.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { statusCache } from "../../src/domain/statuses/status-cache.ts";
import { pageCacheOf } from "../../src/http/routes/page-cache.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";

const PNG = fs.readFileSync("src/media/assets/avi.png");

// PostgreSQL, the database the benchmark measures (the cache sits above the database either way)
describe("status cache on postgres", () => {
  let server: TestServer;
  let ana: User; // the author
  let ben: User; // a reader who follows ana and cat
  let cat: User; // a reader who acts on ana's statuses

  const ok = async (r: Promise<{ status: number; body: any }>) => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const json = (who: User, method: string, path: string, body: Record<string, unknown>) =>
    server.fetch(path, { method, json: body, headers: who.auth }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const status = (who: User, id: string) => ok(call(server, who, "GET", `/api/v1/statuses/${id}`));
  /** the status as it appears in ben's home timeline (the page's statement reads it, cached or not) */
  const inHome = async (id: string) => ((await ok(call(server, ben, "GET", "/api/v1/timelines/home?limit=40"))) as any[]).find((s) => s.id === id);

  beforeAll(async () => {
    server = await startTestServer("postgres");
    [ana, ben, cat] = [await user(server, "ana"), await user(server, "ben"), await user(server, "cat")];
    for (const who of [ana, cat]) await ok(call(server, ben, "POST", `/api/v1/accounts/${who.id}/follow`));
  }, 120_000);
  afterAll(() => server?.close());

  async function cachedPost(body: Record<string, unknown> = { status: "hello" }) {
    const posted = await ok(json(ana, "POST", "/api/v1/statuses", body));
    await inHome(posted.id);
    expect(statusCache(server.services).get(posted.id), "read once: cached").toBeDefined();
    return posted;
  }

  test("favourites: the count changes for everyone, `favourited` only for the one who did", async () => {
    const s = await cachedPost();
    await ok(call(server, cat, "POST", `/api/v1/statuses/${s.id}/favourite`));
    expect(await inHome(s.id)).toMatchObject({ favourites_count: 1, favourited: false });
    expect(await status(cat, s.id)).toMatchObject({ favourites_count: 1, favourited: true });
    await ok(call(server, cat, "POST", `/api/v1/statuses/${s.id}/unfavourite`));
    expect(await inHome(s.id)).toMatchObject({ favourites_count: 0, favourited: false });
  });

  test("reblogs, replies and their deletion change the counts; a reblog shows the original's edit", async () => {
    const s = await cachedPost();
    const reblog = await ok(call(server, cat, "POST", `/api/v1/statuses/${s.id}/reblog`));
    expect(await inHome(s.id)).toMatchObject({ reblogs_count: 1, reblogged: false });
    expect(await status(cat, s.id)).toMatchObject({ reblogs_count: 1, reblogged: true });
    const reply = await ok(json(cat, "POST", "/api/v1/statuses", { status: "a reply", in_reply_to_id: s.id }));
    expect(await inHome(s.id)).toMatchObject({ replies_count: 1 });
    // the reblog in ben's home carries the original, read from the cache
    expect((await inHome(reblog.id)).reblog).toMatchObject({ id: s.id, content: "hello" });
    await ok(json(ana, "PUT", `/api/v1/statuses/${s.id}`, { status: "hello again" }));
    expect((await inHome(reblog.id)).reblog.content).toBe("hello again");
    await ok(call(server, cat, "DELETE", `/api/v1/statuses/${reply.id}`));
    await ok(call(server, cat, "POST", `/api/v1/statuses/${s.id}/unreblog`));
    expect(await inHome(s.id)).toMatchObject({ replies_count: 0, reblogs_count: 0 });
  });

  test("deleting a status shows at once on its cached replies and quotes (the database nulls their links)", async () => {
    const parent = await ok(json(cat, "POST", "/api/v1/statuses", { status: "to be deleted" }));
    const reply = await cachedPost({ status: "a reply", in_reply_to_id: parent.id });
    const quote = await cachedPost({ status: "a quote", quote_id: parent.id });
    expect(await inHome(reply.id)).toMatchObject({ in_reply_to_id: parent.id });
    await ok(call(server, cat, "DELETE", `/api/v1/statuses/${parent.id}`));
    expect(await inHome(reply.id)).toMatchObject({ in_reply_to_id: null });
    expect(await status(ben, reply.id)).toMatchObject({ in_reply_to_id: null });
    expect(await inHome(quote.id)).toMatchObject({ quote: null, ext: { quote_id: null } });
  });

  test("emoji reactions: the groups change for everyone, `me` only for the one who reacted", async () => {
    const s = await cachedPost();
    await ok(call(server, cat, "PUT", `/api/v1/ext/statuses/${s.id}/reactions/${encodeURIComponent("👍")}`));
    expect((await inHome(s.id)).emoji_reactions).toEqual([{ name: "👍", count: 1, me: false, account_ids: [cat.id] }]);
    expect((await status(cat, s.id)).emoji_reactions).toEqual([{ name: "👍", count: 1, me: true, account_ids: [cat.id] }]);
    await ok(call(server, cat, "DELETE", `/api/v1/ext/statuses/${s.id}/reactions/${encodeURIComponent("👍")}`));
    expect((await inHome(s.id)).emoji_reactions).toEqual([]);
  });

  test("poll votes: the totals change for everyone, own_votes only for the voter", async () => {
    const s = await cachedPost({ status: "which?", poll: { options: ["this", "that"], expires_in: 3600 } });
    await ok(json(cat, "POST", `/api/v1/polls/${s.poll.id}/votes`, { choices: [1] }));
    expect((await inHome(s.id)).poll).toMatchObject({ votes_count: 1, voters_count: 1, voted: false, own_votes: [] });
    expect((await status(cat, s.id)).poll).toMatchObject({ votes_count: 1, voted: true, own_votes: [1] });
  });

  test("pinning and an attachment's new description", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "a.png");
    form.append("description", "before");
    const media = await server.fetch("/api/v1/media", { method: "POST", body: form, headers: ana.auth }).then((r) => r.json());
    const s = await cachedPost({ status: "a picture", media_ids: [media.id] });
    await ok(call(server, ana, "POST", `/api/v1/statuses/${s.id}/pin`));
    expect(await inHome(s.id)).toMatchObject({ pinned: true });
    await ok(json(ana, "PUT", `/api/v1/media/${media.id}`, { description: "after" }));
    expect((await inHome(s.id)).media_attachments[0].description).toBe("after");
    await ok(call(server, ana, "POST", `/api/v1/statuses/${s.id}/unpin`));
    expect(await inHome(s.id)).toMatchObject({ pinned: false });
  });

  test("a warm page costs the statements a cold one does, and renders the same", async () => {
    const cold = async () => {
      statusCache(server.services).clear();
      return server.countQueries(() => call(server, ben, "GET", "/api/v1/timelines/home?limit=40"));
    };
    // a reblog (its original read from the cache when warm) and a reply (its parent's visibility) on the page
    const s = await cachedPost({ status: "to be reblogged" });
    await ok(call(server, cat, "POST", `/api/v1/statuses/${s.id}/reblog`));
    await ok(json(cat, "POST", "/api/v1/statuses", { status: "a reply", in_reply_to_id: s.id }));
    const first = await cold();
    pageCacheOf(server.services)!.clear(); // the page rendered again, from the status cache this time
    const warm = await server.countQueries(() => call(server, ben, "GET", "/api/v1/timelines/home?limit=40"));
    expect(first.result.body.length).toBeGreaterThanOrEqual(5);
    expect(first.result.body.some((x: any) => x.reblog)).toBe(true);
    expect(warm.result.body).toEqual(first.result.body);
    expect(JSON.stringify(warm.result.body)).toBe(JSON.stringify(first.result.body)); // same key order too
    expect(warm.queries).toBe(first.queries);
  });

  // A timeline page is read in one statement, which asks the cache about what the last page of the same timeline
  // showed (status-data.ts, PageHint). A public page is the same for every viewer: what one viewer's page put in
  // the cache serves the next viewer's first page. Shown by a favourite written behind the cache's back (no event):
  // the second viewer still sees the cached count, until the entry is dropped.
  test("a public page that one viewer read serves another viewer's first page from the cache", async () => {
    const dan = await user(server, "dan");
    const s = await ok(json(ana, "POST", "/api/v1/statuses", { status: "for everyone" }));
    const publicPage = (who: User) => ok(call(server, who, "GET", "/api/v1/timelines/public?limit=20"));
    expect(((await publicPage(cat)) as any[]).find((x) => x.id === s.id)).toMatchObject({ favourites_count: 0 });
    expect(statusCache(server.services).get(s.id)).toBeDefined();
    await server.services.db.$executeRaw`INSERT INTO favourites (id, account_id, status_id) VALUES (${`direct-${s.id}`}, ${cat.id}, ${s.id})`;
    expect(((await publicPage(dan)) as any[]).find((x) => x.id === s.id)).toMatchObject({ favourites_count: 0 });
    statusCache(server.services).invalidate([s.id]);
    expect(((await publicPage(dan)) as any[]).find((x) => x.id === s.id)).toMatchObject({ favourites_count: 1 });
  });
});
