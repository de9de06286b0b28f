// Filters v1 (and the matching helpers timelines use), bookmarks, favourites, an account's favourites,
// suggestions and the empty stubs, on both databases.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { matchesKeyword } from "../../src/domain/filters/filters.read.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";

test("matchesKeyword: case-insensitive, whole words only where the keyword starts or ends with a word character", () => {
  const f = (keyword: string, wholeWord = true) => ({ keyword, wholeWord });
  expect(matchesKeyword("I like Cats a lot", f("cats"))).toBe(true);
  expect(matchesKeyword("concatenate", f("cat"))).toBe(false);
  expect(matchesKeyword("concatenate", f("cat", false))).toBe(true);
  expect(matchesKeyword("überall", f("über"))).toBe(false);
  expect(matchesKeyword("say #tag!", f("#tag"))).toBe(true);
  expect(matchesKeyword("a.b (c)", f("(c)"))).toBe(true);
  expect(matchesKeyword("anything", f("  "))).toBe(false);
});

const ids = (body: { id: string }[]) => body.map((s) => s.id);

describe.each(suiteKinds(import.meta.url))("filters and collections on %s", (kind) => {
  let server: TestServer;
  let ana: User;
  let ben: User;
  let cai: User;

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cai] = await Promise.all(["ana", "ben", "cai"].map((n) => user(server, n)));
    expect((await call(server, ana, "POST", `/api/v1/accounts/${ben.id}/follow`)).status).toBe(200);
  });
  afterAll(() => server?.close());

  test("filters: create, show, update, delete; expired filters are not listed; others' filters are not found", async () => {
    const created = await call(server, ana, "POST", "/api/v1/filters", { phrase: "spoilers", "context[]": ["home", "public"], irreversible: "true", expires_in: "3600" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(String), phrase: "spoilers", context: ["home", "public"], whole_word: true, irreversible: true });
    expect(new Date(created.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    const id = created.body.id;
    // a v1 filter is a keyword (its id) of a filter of its own
    const keyword = await server.services.db.filterKeyword.findUniqueOrThrow({ where: { id }, include: { filter: true } });
    expect(keyword).toMatchObject({ keyword: "spoilers", wholeWord: true, filter: { accountId: ana.id, title: "spoilers", action: "hide" } });

    expect((await call(server, ana, "POST", "/api/v1/filters", { phrase: "x", "context[]": ["everywhere"] })).status).toBe(400);
    expect((await call(server, ana, "POST", "/api/v1/filters", { phrase: "x" })).status).toBe(400);
    expect((await call(server, ana, "POST", "/api/v1/filters", { phrase: "", "context[]": ["home"] })).status).toBe(400);

    const updated = await call(server, ana, "PUT", `/api/v1/filters/${id}`, { phrase: "Spoiler", whole_word: "false", expires_in: "" });
    expect(updated.body).toEqual({ id, phrase: "Spoiler", context: ["home", "public"], whole_word: false, expires_at: null, irreversible: true });
    expect((await call(server, ana, "GET", `/api/v1/filters/${id}`)).body.phrase).toBe("Spoiler");

    const old = (await call(server, ana, "POST", "/api/v1/filters", { phrase: "old", "context[]": ["thread"] })).body;
    await server.services.db.filter.updateMany({ where: { keywords: { some: { id: old.id } } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(ids((await call(server, ana, "GET", "/api/v1/filters")).body)).toEqual([id]);

    expect((await call(server, ben, "GET", `/api/v1/filters/${id}`)).status).toBe(404);
    expect((await call(server, ben, "DELETE", `/api/v1/filters/${id}`)).status).toBe(404);
    expect((await call(server, ben, "GET", "/api/v1/filters")).body).toEqual([]);
    expect(await call(server, ana, "DELETE", `/api/v1/filters/${id}`)).toMatchObject({ status: 200, body: {} });
    expect(await server.services.db.filterKeyword.findUnique({ where: { id } })).toBeNull();
    expect(await server.services.db.filter.findUnique({ where: { id: keyword.filterId } })).toBeNull();
  });

  test("irreversible home filters drop matching statuses (and reblogs of them) from the list timeline", async () => {
    const list = (await call(server, ana, "POST", "/api/v1/lists", { title: "Filtered" })).body;
    await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ben.id] });
    const keep = (await call(server, ben, "POST", "/api/v1/statuses", { status: "a calm post" })).body;
    const drop = (await call(server, ben, "POST", "/api/v1/statuses", { status: "Big BROCCOLI news" })).body;
    const caiPost = (await call(server, cai, "POST", "/api/v1/statuses", { status: "broccoli forever" })).body;
    const reblog = (await call(server, ben, "POST", `/api/v1/statuses/${caiPost.id}/reblog`)).body;
    const filter = (await call(server, ana, "POST", "/api/v1/filters", { phrase: "broccoli", "context[]": ["home"], irreversible: "true" })).body;
    await call(server, ana, "POST", "/api/v1/filters", { phrase: "calm", "context[]": ["home"] }); // not irreversible: left to the client

    const tl = ids((await call(server, ana, "GET", `/api/v1/timelines/list/${list.id}`)).body);
    expect(tl).toContain(keep.id);
    expect(tl).not.toContain(drop.id);
    expect(tl).not.toContain(reblog.id);
    await call(server, ana, "DELETE", `/api/v1/filters/${filter.id}`);
    expect(ids((await call(server, ana, "GET", `/api/v1/timelines/list/${list.id}`)).body)).toEqual(expect.arrayContaining([drop.id, reblog.id]));
  });

  test("bookmarks and favourites: newest first by bookmark, Link paging, only visible statuses", async () => {
    const s1 = (await call(server, ben, "POST", "/api/v1/statuses", { status: "one" })).body;
    const s2 = (await call(server, ben, "POST", "/api/v1/statuses", { status: "two" })).body;
    const s3 = (await call(server, cai, "POST", "/api/v1/statuses", { status: "three" })).body;
    // bookmarked in the order 2, 1, 3: the newest bookmark comes first whatever the status ids
    for (const s of [s2, s1, s3]) {
      expect((await call(server, ana, "POST", `/api/v1/statuses/${s.id}/bookmark`)).status).toBe(200);
      expect((await call(server, ana, "POST", `/api/v1/statuses/${s.id}/favourite`)).status).toBe(200);
    }
    expect(await server.services.db.bookmark.count({ where: { accountId: ana.id } })).toBe(3);
    for (const path of ["/api/v1/bookmarks", "/api/v1/favourites"]) {
      const all = await call(server, ana, "GET", path);
      expect(all.status).toBe(200);
      expect(ids(all.body)).toEqual([s3.id, s1.id, s2.id]);
      const first = await call(server, ana, "GET", `${path}?limit=2`);
      expect(ids(first.body)).toEqual([s3.id, s1.id]);
      const next = (first.headers.get("link") ?? "").match(/<([^>]+)>; rel="next"/)?.[1];
      expect(next).toBeDefined();
      const rest = await call(server, ana, "GET", new URL(next as string).pathname + new URL(next as string).search);
      expect(ids(rest.body)).toEqual([s2.id]);
    }
    expect((await call(server, ben, "GET", "/api/v1/bookmarks")).body).toEqual([]);
    expect((await call(server, null, "GET", "/api/v1/favourites")).status).toBe(403);

    // cai blocks ana: cai's status drops out of both
    expect((await call(server, cai, "POST", `/api/v1/accounts/${ana.id}/block`)).status).toBe(200);
    expect(ids((await call(server, ana, "GET", "/api/v1/bookmarks")).body)).toEqual([s1.id, s2.id]);
    expect(ids((await call(server, ana, "GET", "/api/v1/favourites")).body)).toEqual([s1.id, s2.id]);
    await call(server, cai, "POST", `/api/v1/accounts/${ana.id}/unblock`);
  });

  test("an account's favourites: hidden by default from others, visible statuses only once shown", async () => {
    const pub = (await call(server, cai, "POST", "/api/v1/statuses", { status: "public fav" })).body;
    const priv = (await call(server, ana, "POST", "/api/v1/statuses", { status: "ana followers only", visibility: "private" })).body;
    await call(server, ben, "POST", `/api/v1/statuses/${pub.id}/favourite`);
    // ben does not follow ana, so he cannot see (or favourite) her private status: the favourite is made in the database
    await server.services.db.favourite.create({ data: { id: newId(), accountId: ben.id, statusId: priv.id } });

    const word = server.services.settings.namespace;
    const p = `/api/v1/${word}/accounts/${ben.id}/favourites`;
    expect(await call(server, cai, "GET", p)).toMatchObject({ status: 403, body: { error: "Can't get favorites" } });
    expect((await call(server, null, "GET", p)).status).toBe(403);
    const own = await call(server, ben, "GET", p);
    expect(own.status).toBe(200);
    expect(ids(own.body)).toContain(pub.id);
    expect((await call(server, cai, "GET", `/api/v1/${word}/accounts/nobody/favourites`)).status).toBe(404);

    await server.services.db.account.update({ where: { id: ben.id }, data: { hideFavorites: false } });
    const shown = await call(server, null, "GET", p);
    expect(shown.status).toBe(200);
    expect(ids(shown.body)).toContain(pub.id);
    expect(ids(shown.body)).not.toContain(priv.id);
    // ana wrote the private status: she sees it among ben's favourites
    expect(ids((await call(server, ana, "GET", p)).body)).toContain(priv.id);
    expect(shown.headers.get("link")).toContain(`/api/v1/${word}/accounts/${ben.id}/favourites?max_id=`);
  });

  test("v2 suggestions come from the staff's choice, without the viewer and followed accounts; v1 and the others are stubs", async () => {
    await server.services.db.account.updateMany({ where: { id: { in: [ana.id, ben.id, cai.id] } }, data: { isSuggested: true } });
    const v1 = await call(server, ana, "GET", "/api/v1/suggestions");
    expect(v1).toMatchObject({ status: 200, body: [] });
    const own = await call(server, ana, "GET", "/api/v2/suggestions");
    expect(own.body.map((s: { account: { acct: string } }) => s.account.acct)).toEqual(["cai"]);
    const v2 = await call(server, cai, "GET", "/api/v2/suggestions");
    expect(v2.body.map((s: { source: string; account: { acct: string } }) => [s.source, s.account.acct]).sort()).toEqual([
      ["staff", "ana"],
      ["staff", "ben"],
    ]);
    expect((await call(server, null, "GET", "/api/v2/suggestions")).body).toHaveLength(3);

    for (const stub of ["/api/v1/trends", "/api/v1/identity_proofs", "/api/v1/endorsements" /* none endorsed */]) expect(await call(server, ana, "GET", stub)).toMatchObject({ status: 200, body: [] });
    expect(await call(server, null, "GET", "/api/v1/trends")).toMatchObject({ status: 200, body: [] });
    // served since issue 19: nothing featured yet
    expect(await call(server, ana, "GET", "/api/v1/featured_tags")).toMatchObject({ status: 200, body: [] });
  });

  test("dismissing a suggestion: {} and a stored record; v2 suggestions leave it out for that viewer only; unknown accounts 404", async () => {
    await server.services.db.account.updateMany({ where: { id: { in: [ana.id, ben.id, cai.id] } }, data: { isSuggested: true } });
    const acct = async (who: User | null) => (await call(server, who, "GET", "/api/v2/suggestions")).body.map((s: { account: { acct: string } }) => s.account.acct).sort();
    expect(await call(server, cai, "DELETE", `/api/v1/suggestions/${ana.id}`)).toMatchObject({ status: 200, body: {} });
    // twice is fine (the family keeps one record)
    expect(await call(server, cai, "DELETE", `/api/v1/suggestions/${ana.id}`)).toMatchObject({ status: 200, body: {} });
    expect(await server.services.db.suggestionDismissal.count({ where: { accountId: cai.id } })).toBe(1);
    expect(await acct(cai)).toEqual(["ben"]);
    expect(await acct(ben)).toEqual(["ana", "cai"]);
    expect((await call(server, cai, "DELETE", "/api/v1/suggestions/999999999")).status).toBe(404);
    expect((await call(server, null, "DELETE", `/api/v1/suggestions/${ben.id}`)).status).toBe(403);
  });
});
