// Filters v2 through an outside client (masto.js, JSON bodies as it sends them): filters, their keywords
// and statuses; the `filtered` results statuses carry for the viewer in timelines, threads,
// notifications and streams; `hide` dropping statuses; v1 filters as views of the same filters.
// Entities are compared whole with the library's types, so a missing or extra field fails.
import { createRestAPIClient, createStreamingAPIClient, type mastodon } from "masto";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { streamHub } from "../../src/domain/streams/hub.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

// masto declares Node 22+: on Node 20 it needs a global WebSocket and Promise.withResolvers
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
const P = Promise as unknown as { withResolvers?: () => unknown };
P.withResolvers ??= () => {
  let resolve!: (v: unknown) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
};

type Client = ReturnType<typeof createRestAPIClient>;

const keywordShape = (keyword: string, wholeWord: boolean): mastodon.v1.FilterKeyword => ({ id: expect.any(String), keyword, wholeWord });

describe.each(suiteKinds(import.meta.url))("filters v2 through masto (%s)", (kind) => {
  let server: TestServer;
  let mia: Client;
  let noa: Client;
  let miaToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("mia");
    const noaId = (await server.createUser("noa")).id;
    miaToken = (await passwordToken(server, "mia")).access_token;
    mia = createRestAPIClient({ url: server.url, accessToken: miaToken });
    noa = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "noa")).access_token });
    await mia.v1.accounts.$select(noaId).follow();
  });
  afterAll(() => server?.close());

  test("filters, keywords and statuses: create, read, update and delete each", async () => {
    const created = await mia.v2.filters.create({
      title: "Spoilers",
      context: ["home", "public"],
      filterAction: "warn",
      expiresIn: 3600,
      keywordsAttributes: [{ keyword: "finale" }, { keyword: "plot twist", wholeWord: false }],
    });
    const expected: mastodon.v2.Filter = {
      id: expect.any(String),
      title: "Spoilers",
      context: ["home", "public"],
      expiresAt: expect.any(String),
      filterAction: "warn",
      keywords: [keywordShape("finale", true), keywordShape("plot twist", false)],
      statuses: [],
    };
    expect(created).toEqual(expected);
    expect(new Date(created.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(await mia.v2.filters.$select(created.id).fetch()).toEqual(created);
    expect(await mia.v2.filters.list()).toEqual([created]);

    // keywords_attributes: change one, delete one, add one; and the filter's own fields
    const [finale, twist] = created.keywords;
    const updated = await mia.v2.filters.$select(created.id).update({
      title: "TV spoilers",
      filterAction: "blur",
      expiresIn: null,
      keywordsAttributes: [{ id: finale.id, keyword: "season finale" }, { id: twist.id, _destroy: true }, { keyword: "cliffhanger" }],
    });
    expect(updated).toEqual({ ...expected, title: "TV spoilers", filterAction: "blur", expiresAt: null, keywords: [{ ...finale, keyword: "season finale" }, keywordShape("cliffhanger", true)] });

    // the keywords sub-resource
    const added = await mia.v2.filters.$select(created.id).keywords.create({ keyword: "ending", wholeWord: false });
    expect(added).toEqual(keywordShape("ending", false));
    expect(await mia.v2.filters.keywords.$select(added.id).fetch()).toEqual(added);
    expect(await mia.v2.filters.keywords.$select(added.id).update({ keyword: "the end", wholeWord: true })).toEqual({ id: added.id, keyword: "the end", wholeWord: true });
    expect((await mia.v2.filters.$select(created.id).keywords.list()).map((k) => k.keyword)).toEqual(["season finale", "cliffhanger", "the end"]);
    await mia.v2.filters.keywords.$select(added.id).remove();
    await expect(mia.v2.filters.keywords.$select(added.id).fetch()).rejects.toMatchObject({ statusCode: 404 });

    // the statuses sub-resource
    const post = await noa.v1.statuses.create({ status: "an ordinary post" });
    const filtered = await mia.v2.filters.$select(created.id).statuses.create({ statusId: post.id });
    const statusShape: mastodon.v1.FilterStatus = { id: expect.any(String), statusId: post.id };
    expect(filtered).toEqual(statusShape);
    expect(await mia.v2.filters.statuses.$select(filtered.id).fetch()).toEqual(filtered);
    expect(await mia.v2.filters.$select(created.id).statuses.list()).toEqual([filtered]);
    await expect(mia.v2.filters.$select(created.id).statuses.create({ statusId: post.id })).rejects.toMatchObject({ statusCode: 422 });
    await mia.v2.filters.statuses.$select(filtered.id).remove();
    expect(await mia.v2.filters.$select(created.id).statuses.list()).toEqual([]);

    // someone else's filter is not found; bad input is a 4xx with {error}
    await expect(noa.v2.filters.$select(created.id).fetch()).rejects.toMatchObject({ statusCode: 404 });
    await expect(noa.v2.filters.$select(created.id).keywords.create({ keyword: "x" })).rejects.toMatchObject({ statusCode: 404 });
    await expect(mia.v2.filters.create({ title: "", context: ["home"] })).rejects.toMatchObject({ statusCode: 400 });
    await expect(mia.v2.filters.create({ title: "x", context: ["nowhere" as "home"] })).rejects.toMatchObject({ statusCode: 400 });
    await expect(mia.v2.filters.create({ title: "x", context: ["home"], filterAction: "explode" as "warn" })).rejects.toMatchObject({ statusCode: 400 });

    await mia.v2.filters.$select(created.id).remove();
    await expect(mia.v2.filters.$select(created.id).fetch()).rejects.toMatchObject({ statusCode: 404 });
    expect(await server.services.db.filterKeyword.count({ where: { filterId: created.id } })).toBe(0);
  });

  test("statuses carry the viewer's filter results in timelines, threads and notifications; hide drops them; v1 shows the same filters", async () => {
    const warn = await mia.v2.filters.create({ title: "Durians", context: ["home", "public", "thread", "notifications"], keywordsAttributes: [{ keyword: "durian", wholeWord: false }] });
    const matching = await noa.v1.statuses.create({ status: "Durians are in season, @mia" });
    const plain = await noa.v1.statuses.create({ status: "apples are fine" });
    const byStatus = await mia.v2.filters.create({ title: "That one", context: ["home"], filterAction: "blur" });
    await mia.v2.filters.$select(byStatus.id).statuses.create({ statusId: plain.id });
    const mine = await mia.v1.statuses.create({ status: "my own durian" });
    const reblog = await noa.v1.statuses.$select(matching.id).reblog();

    const warnResult: mastodon.v1.FilterResult = { filter: await mia.v2.filters.$select(warn.id).fetch(), keywordMatches: ["durian"], statusMatches: null };
    const home = await mia.v1.timelines.home.list();
    const byId = new Map(home.map((s) => [s.id, s]));
    expect(byId.get(matching.id)?.filtered).toEqual([warnResult]);
    // a reblog is matched by its original, and the original inside carries it too
    expect(byId.get(reblog.id)?.filtered).toEqual([warnResult]);
    expect(byId.get(reblog.id)?.reblog?.filtered).toEqual([warnResult]);
    expect(byId.get(plain.id)?.filtered).toEqual([{ filter: await mia.v2.filters.$select(byStatus.id).fetch(), keywordMatches: null, statusMatches: [plain.id] }]);
    expect(byId.get(mine.id)?.filtered).toEqual([]); // one's own statuses are never filtered

    expect((await mia.v1.timelines.public.list({ local: true })).find((s) => s.id === matching.id)?.filtered).toEqual([warnResult]);
    expect((await mia.v1.statuses.$select(matching.id).fetch()).filtered).toEqual([warnResult]);
    const mention = (await mia.v1.notifications.list({ types: ["mention"] })).find((n) => n.status?.id === matching.id);
    expect(mention?.status?.filtered).toEqual([warnResult]);
    // others see no results of mia's filters; anonymous readers get no `filtered` at all
    expect((await noa.v1.statuses.$select(matching.id).fetch()).filtered).toEqual([]);
    const anonymous = await (await server.fetch(`/api/v1/statuses/${matching.id}`)).json();
    expect(anonymous).not.toHaveProperty("filtered");

    // hide: left out of the timelines of its contexts (and its reblogs with it), not of the others
    await mia.v2.filters.$select(warn.id).update({ filterAction: "hide", context: ["home"] });
    const hidden = (await mia.v1.timelines.home.list()).map((s) => s.id);
    expect(hidden).not.toContain(matching.id);
    expect(hidden).not.toContain(reblog.id);
    expect(hidden).toContain(plain.id);
    expect((await mia.v1.timelines.public.list({ local: true })).map((s) => s.id)).toContain(matching.id);

    // v1: each keyword is a filter; a v1 filter is a filter of one keyword in v2
    const v1 = await mia.v1.filters.list();
    const durian = warn.keywords[0];
    const v1Shape: mastodon.v1.Filter = { id: durian.id, phrase: "durian", context: ["home"], wholeWord: false, expiresAt: null, irreversible: true };
    expect(v1).toEqual([v1Shape]);
    const made = await mia.v1.filters.create({ phrase: "kiwi", context: ["public"], irreversible: false });
    const asV2 = (await mia.v2.filters.list()).find((f) => f.keywords.some((k) => k.id === made.id));
    expect(asV2).toEqual({ id: expect.any(String), title: "kiwi", context: ["public"], expiresAt: null, filterAction: "warn", keywords: [{ id: made.id, keyword: "kiwi", wholeWord: true }], statuses: [] });
    await mia.v1.filters.$select(made.id).remove();
    expect((await mia.v2.filters.list()).some((f) => f.id === asV2!.id)).toBe(false);

    // expired filters mark nothing
    await server.services.db.filter.updateMany({ where: { id: { in: [warn.id, byStatus.id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const after = await mia.v1.timelines.home.list();
    expect(after.find((s) => s.id === matching.id)?.filtered).toEqual([]);
    expect(after.find((s) => s.id === plain.id)?.filtered).toEqual([]);
    await mia.v2.filters.$select(warn.id).remove();
    await mia.v2.filters.$select(byStatus.id).remove();
  });

  test("a stream's updates carry the subscriber's filter results", async () => {
    const filter = await mia.v2.filters.create({ title: "Mangos", context: ["public"], keywordsAttributes: [{ keyword: "mango" }] });
    const streaming = createStreamingAPIClient({ streamingApiUrl: server.url.replace(/^http/, "ws"), accessToken: miaToken, implementation: WebSocket, retry: false });
    try {
      const before = streamHub(server.services).stats().subscriptions;
      const events = streaming.public.local.subscribe()[Symbol.asyncIterator]();
      const first = events.next();
      await waitFor(() => streamHub(server.services).stats().subscriptions >= before + 1, "the public:local subscription", { intervalMs: 10 });
      const posted = await noa.v1.statuses.create({ status: "Mango time" });
      const { value } = await first;
      expect(value).toMatchObject({ event: "update", payload: { id: posted.id } });
      const status = (value as { payload: mastodon.v1.Status }).payload;
      expect(status.filtered).toEqual([{ filter: await mia.v2.filters.$select(filter.id).fetch(), keywordMatches: ["mango"], statusMatches: null }]);
      await events.return?.();
    } finally {
      streaming.close();
      await mia.v2.filters.$select(filter.id).remove();
    }
  });
});
