import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("search on %s", (kind) => {
  let server: TestServer;
  let ana: User, ben: User, cal: User;
  const ids: Record<string, string> = {};
  const post = async (who: User, form: Record<string, string>) => {
    const r = await call(server, who, "POST", "/api/v1/statuses", form);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as string;
  };
  const find = async (who: User | null, query: string, version = 2) => (await call(server, who, "GET", `/api/v${version}/search?${query}`)).body;

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cal] = await Promise.all(["ana", "ben", "cal"].map((n) => user(server, n)));
    await call(server, cal, "POST", `/api/v1/accounts/${ana.id}/follow`);
    ids.public = await post(ana, { status: "Penguins are FANTASTIC birds #Penguins" });
    ids.unlisted = await post(ana, { status: "quiet penguins story", visibility: "unlisted" });
    ids.private = await post(ana, { status: "private penguins for followers", visibility: "private" });
    ids.direct = await post(ana, { status: "@ben direct penguins", visibility: "direct" });
    ids.other = await post(ben, { status: "penguins, are cool #penguinsrock", visibility: "public" });
    ids.compound = await post(ben, { status: "penguinsarecool is one word" });
    ids.nope = await post(ben, { status: "nothing to see" });
  });
  afterAll(() => server?.close());

  const found = (body: any) => body.statuses.map((s: any) => s.id).sort();

  test("statuses: case-insensitive, unlisted included, private and direct only for those who may see them", async () => {
    const anon = await find(null, "q=PENGUINS&type=statuses");
    expect(found(anon)).toEqual([ids.public, ids.unlisted, ids.other].sort());
    expect(anon.accounts).toEqual([]);
    expect(anon.hashtags).toEqual([]);
    expect(found(await find(cal, "q=penguins&type=statuses"))).toEqual([ids.public, ids.unlisted, ids.private, ids.other].sort());
    expect(found(await find(ben, "q=penguins&type=statuses"))).toEqual([ids.public, ids.unlisted, ids.direct, ids.other].sort());
    expect(found(await find(ana, "q=penguins&type=statuses"))).toEqual([ids.public, ids.unlisted, ids.private, ids.direct, ids.other].sort());
    // every word must match
    expect(found(await find(ana, "q=fantastic%20penguins"))).toEqual([ids.public]);
    expect(found(await find(ana, "q=penguins&account_id=" + ben.id))).toEqual([ids.other]);
    expect(found(await find(cal, "q=penguins&following=true&type=statuses"))).toEqual([ids.public, ids.unlisted, ids.private].sort());
    // limit and offset, newest first
    const first = await find(ana, "q=penguins&type=statuses&limit=2");
    const second = await find(ana, "q=penguins&type=statuses&limit=2&offset=2");
    expect(first.statuses.map((s: any) => s.id)).toEqual([ids.other, ids.direct]);
    expect(second.statuses.map((s: any) => s.id)).toEqual([ids.private, ids.unlisted]);
    const older = await find(ana, `q=penguins&type=statuses&max_id=${ids.private}`);
    expect(older.statuses.map((s: any) => s.id)).toEqual([ids.unlisted, ids.public]);
    const newer = await find(ana, `q=penguins&type=statuses&min_id=${ids.direct}`);
    expect(newer.statuses.map((s: any) => s.id)).toEqual([ids.other]);
  });

  test("accounts and hashtags; v1 answers hashtags as names", async () => {
    const v2 = await find(null, "q=pengu");
    expect(v2.hashtags).toEqual([
      { name: "penguins", url: "http://localhost:4000/tag/penguins", history: [] },
      { name: "penguinsrock", url: "http://localhost:4000/tag/penguinsrock", history: [] },
    ]);
    const v1 = await find(null, "q=%23penguinsr", 1);
    expect(v1.hashtags).toEqual(["penguinsrock"]);
    const accounts = await find(null, "q=ben&type=accounts");
    expect(accounts.accounts.map((a: any) => a.acct)).toEqual(["ben"]);
    expect(accounts.statuses).toEqual([]);
    const followed = await find(cal, "q=a&type=accounts&following=true");
    expect(followed.accounts.map((a: any) => a.acct)).toEqual(["ana"]);
    expect(await find(null, "q=")).toEqual({ accounts: [], statuses: [], hashtags: [] });
    // LIKE wildcards are literal characters
    for (const q of ["%25", "_", "penguin_", "%5C"]) {
      const r = await find(ana, `q=${q}`);
      expect([r.statuses, r.hashtags]).toEqual([[], []]);
    }
  });

  test("full-text: whole words, quoted phrases, exclusions, remote HTML; a GIN index backs it", async () => {
    expect(found(await find(ana, "q=penguinsarecool"))).toEqual([ids.compound]);
    expect(found(await find(ana, "q=%22fantastic%20birds%22"))).toEqual([ids.public]);
    expect(found(await find(ana, "q=penguins%20-fantastic&type=statuses"))).toEqual([ids.unlisted, ids.private, ids.direct, ids.other].sort());
    // a remote post has only HTML: the tags are not words
    await server.services.db.status.update({ where: { id: ids.nope }, data: { source: "", content: "<p>nothing <strong>remote</strong>ly</p>" } });
    expect(found(await find(ana, "q=remote"))).toEqual([ids.nope]);
    expect(found(await find(ana, "q=strong"))).toEqual([]);
    const indexes = await server.services.db.$queryRaw<{ indexdef: string }[]>`SELECT indexdef FROM pg_indexes WHERE tablename = 'statuses' AND indexdef LIKE '%search_vector%'`;
    expect(indexes.map((i) => i.indexdef).join()).toMatch(/USING gin \(search_vector\)/);
  });

  test("a status URL finds that status", async () => {
    const res = await find(null, `q=${encodeURIComponent(`http://localhost:4000/notice/${ids.public}`)}&type=statuses`);
    expect(found(res)).toEqual([ids.public]);
    const hidden = await find(null, `q=${encodeURIComponent(`http://localhost:4000/notice/${ids.private}`)}&type=statuses`);
    expect(hidden.statuses).toEqual([]);
  });
});
