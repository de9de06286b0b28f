import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, expectLink, remoteAccount, user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("timelines on %s", (kind) => {
  let server: TestServer;
  let ana: User; // the viewer
  let ben: User; // followed by ana
  let cat: User; // not followed
  let dan: User; // followed, reblogs hidden
  let remote: { id: string };

  const post = async (who: User, body: Record<string, unknown>) => {
    const res = await server.fetch("/api/v1/statuses", { json: body, headers: who.auth });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; visibility: string };
  };
  const ids = async (who: User | null, path: string) => {
    const r = await call(server, who, "GET", path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body as { id: string; reblog: { id: string } | null }[]).map((s) => s.id);
  };
  const remoteStatus = (accountId: string, extra: Record<string, unknown> = {}) => {
    const id = newId();
    return server.services.db.status.create({
      data: { id, uri: `https://remote.example/objects/${id}`, accountId, local: false, context: `ctx-${id}`, content: "remote", visibility: "public", ...extra },
    });
  };
  const addMedia = (statusId: string, accountId: string) =>
    server.services.db.mediaAttachment.create({ data: { id: newId(), accountId, statusId, type: "image", mimeType: "image/png", url: "http://x/y.png" } });

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    [ana, ben, cat, dan] = await Promise.all(["ana", "ben", "cat", "dan"].map((n) => user(server, n)));
    remote = await remoteAccount(server, "rob", "remote.example");
    expect((await call(server, ana, "POST", `/api/v1/accounts/${ben.id}/follow`)).status).toBe(200);
    expect((await call(server, ana, "POST", `/api/v1/accounts/${dan.id}/follow`, { reblogs: "false" })).status).toBe(200);
  });
  afterAll(() => server?.close());

  test("home: own, followed, addressed; reblogs unless show_reblogs is off; not others", async () => {
    const own = await post(ana, { status: "mine" });
    const benPost = await post(ben, { status: "ben public" });
    const benPrivate = await post(ben, { status: "ben followers", visibility: "private" });
    const catPost = await post(cat, { status: "cat public" });
    const catDm = await post(cat, { status: "@ana psst", visibility: "direct" });
    const benReblog = (await call(server, ben, "POST", `/api/v1/statuses/${catPost.id}/reblog`)).body;
    const danPost = await post(dan, { status: "dan public" });
    const danReblog = (await call(server, dan, "POST", `/api/v1/statuses/${catPost.id}/reblog`)).body;
    const home = await ids(ana, "/api/v1/timelines/home?limit=40");
    expect(home).toEqual(expect.arrayContaining([own.id, benPost.id, benPrivate.id, catDm.id, benReblog.id, danPost.id]));
    expect(home).not.toContain(catPost.id);
    expect(home).not.toContain(danReblog.id);
    // newest first
    expect(home.indexOf(danPost.id)).toBeLessThan(home.indexOf(benPost.id));
    expect((await call(server, null, "GET", "/api/v1/timelines/home")).status).toBe(403);
  });

  test("public: public only (local-only for signed-in users), no reblogs; local, remote, only_media, instance", async () => {
    const pub = await post(cat, { status: "public one" });
    const unlisted = await post(cat, { status: "unlisted one", visibility: "unlisted" });
    const localOnly = await post(cat, { status: "local only", visibility: "local" });
    const reblog = (await call(server, ben, "POST", `/api/v1/statuses/${pub.id}/reblog`)).body;
    const far = await remoteStatus(remote.id);
    const other = await remoteAccount(server, "zed", "other.example");
    const farther = await remoteStatus(other.id);
    await addMedia(farther.id, other.id);

    const anon = await ids(null, "/api/v1/timelines/public?limit=40");
    expect(anon).toEqual(expect.arrayContaining([pub.id, far.id, farther.id]));
    expect(anon).not.toContain(unlisted.id);
    expect(anon).not.toContain(localOnly.id);
    expect(anon).not.toContain(reblog.id);
    expect(await ids(ana, "/api/v1/timelines/public?limit=40")).toContain(localOnly.id);

    const local = await ids(null, "/api/v1/timelines/public?local=true&limit=40");
    expect(local).toContain(pub.id);
    expect(local).not.toContain(far.id);
    const rem = await ids(null, "/api/v1/timelines/public?remote=true&limit=40");
    expect(rem).toEqual(expect.arrayContaining([far.id, farther.id]));
    expect(rem).not.toContain(pub.id);
    expect(await ids(null, "/api/v1/timelines/public?only_media=true&limit=40")).toEqual([farther.id]);
    expect(await ids(null, "/api/v1/timelines/public?instance=remote.example&limit=40")).toEqual([far.id]);
  });

  test("tag timeline: hashtag, any[], all[], none[], local/remote", async () => {
    const a = await post(cat, { status: "#apple" });
    const ab = await post(cat, { status: "#apple #banana" });
    const b = await post(cat, { status: "#banana" });
    const c = await post(cat, { status: "#cherry #apple #durian" });
    const hidden = await post(cat, { status: "#apple secret", visibility: "unlisted" });
    expect(await ids(null, "/api/v1/timelines/tag/Apple")).toEqual([c.id, ab.id, a.id]);
    expect(await ids(null, "/api/v1/timelines/tag/apple?any[]=banana")).toEqual([c.id, b.id, ab.id, a.id]);
    expect(await ids(null, "/api/v1/timelines/tag/apple?all[]=banana")).toEqual([ab.id]);
    expect(await ids(null, "/api/v1/timelines/tag/apple?none[]=banana&none[]=durian")).toEqual([a.id]);
    expect(await ids(null, "/api/v1/timelines/tag/apple?remote=true")).toEqual([]);
    expect(await ids(null, "/api/v1/timelines/tag/apple?local=true")).not.toContain(hidden.id);
  });

  test("with_muted, blocks, domain blocks, exclude_visibilities", async () => {
    const eve = await user(server, "eve");
    const mo = await user(server, "mo");
    const bo = await user(server, "bo");
    const far = await remoteAccount(server, "fay", "blocked.example");
    await call(server, eve, "POST", `/api/v1/accounts/${mo.id}/follow`);
    await call(server, eve, "POST", `/api/v1/accounts/${bo.id}/follow`);
    const moPost = await post(mo, { status: "muted soon" });
    const moUnlisted = await post(mo, { status: "muted unlisted", visibility: "unlisted" });
    const boPost = await post(bo, { status: "blocked soon" });
    const farPost = await remoteStatus(far.id);
    expect((await call(server, eve, "POST", `/api/v1/accounts/${mo.id}/mute`)).status).toBe(200);
    expect((await call(server, eve, "POST", "/api/v1/domain_blocks", { domain: "blocked.example" })).status).toBe(200);

    const home = await ids(eve, "/api/v1/timelines/home");
    expect(home).not.toContain(moPost.id);
    const withMuted = await ids(eve, "/api/v1/timelines/home?with_muted=true");
    expect(withMuted).toEqual(expect.arrayContaining([moPost.id, moUnlisted.id, boPost.id]));
    expect(await ids(eve, "/api/v1/timelines/home?with_muted=true&exclude_visibilities[]=unlisted")).not.toContain(moUnlisted.id);
    expect(await ids(eve, "/api/v1/timelines/public?limit=40")).not.toContain(moPost.id);
    expect(await ids(eve, "/api/v1/timelines/public?with_muted=true&limit=40")).toContain(moPost.id);

    // domain blocks hide statuses everywhere, and reblogs of them
    const boReblog = (await call(server, bo, "POST", `/api/v1/statuses/${farPost.id}/reblog`)).body;
    expect(await ids(null, "/api/v1/timelines/public?limit=40")).toContain(farPost.id);
    expect(await ids(eve, "/api/v1/timelines/public?limit=40")).not.toContain(farPost.id);
    expect(await ids(eve, "/api/v1/timelines/home?limit=40")).not.toContain(boReblog.id);
    expect(await ids(ana, "/api/v1/accounts/bo/statuses")).toContain(boReblog.id);
    expect(await ids(eve, "/api/v1/accounts/bo/statuses")).not.toContain(boReblog.id);

    // blocked accounts never show, even with_muted
    await call(server, eve, "POST", `/api/v1/accounts/${bo.id}/block`);
    expect(await ids(eve, "/api/v1/timelines/public?with_muted=true&limit=40")).not.toContain(boPost.id);
    expect(await ids(eve, `/api/v1/accounts/${bo.id}/statuses`)).toEqual([]);
  });

  test("a reblog follows the visibility of its original", async () => {
    const gus = await user(server, "gus");
    const hal = await user(server, "hal");
    await call(server, gus, "POST", `/api/v1/accounts/${hal.id}/follow`);
    const cats = await post(cat, { status: "to be reblogged" });
    const reblog = (await call(server, hal, "POST", `/api/v1/statuses/${cats.id}/reblog`)).body;
    expect(await ids(gus, "/api/v1/timelines/home")).toContain(reblog.id);
    await call(server, cat, "POST", `/api/v1/accounts/${gus.id}/block`); // the original's author blocks the viewer
    expect(await ids(gus, "/api/v1/timelines/home")).not.toContain(reblog.id);
    expect(await ids(gus, `/api/v1/accounts/${hal.id}/statuses`)).not.toContain(reblog.id);
    // and a muted original author hides the reblog unless with_muted
    const ivy = await user(server, "ivy");
    await call(server, ivy, "POST", `/api/v1/accounts/${hal.id}/follow`);
    await call(server, ivy, "POST", `/api/v1/accounts/${cat.id}/mute`);
    expect(await ids(ivy, "/api/v1/timelines/home")).not.toContain(reblog.id);
    expect(await ids(ivy, "/api/v1/timelines/home?with_muted=true")).toContain(reblog.id);
    expect(await ids(ivy, `/api/v1/accounts/${hal.id}/statuses`)).not.toContain(reblog.id);
    expect(await ids(ivy, `/api/v1/accounts/${hal.id}/statuses?with_muted=true`)).toContain(reblog.id);
  });

  test("irreversible keyword filters drop matches in their context (reblogs by the original's text)", async () => {
    const nia = await user(server, "nia");
    const oz = await user(server, "oz");
    await call(server, nia, "POST", `/api/v1/accounts/${oz.id}/follow`);
    const spoiler = await post(oz, { status: "about Durians today" });
    const fine = await post(oz, { status: "about apples" });
    const reblog = (await call(server, oz, "POST", `/api/v1/statuses/${(await post(cat, { status: "durian season" })).id}/reblog`)).body;
    const filter = (irreversible: boolean, context: string[]) =>
      server.services.db.filter.create({
        data: { id: newId(), accountId: nia.id, title: "durian", action: irreversible ? "hide" : "warn", context, keywords: { create: { id: newId(), keyword: "durian", wholeWord: false } } },
      });
    await filter(false, ["home"]); // a reversible filter is the client's business
    expect(await ids(nia, "/api/v1/timelines/home")).toEqual(expect.arrayContaining([spoiler.id, reblog.id]));
    await filter(true, ["home"]);
    const home = await ids(nia, "/api/v1/timelines/home");
    expect(home).toContain(fine.id);
    expect(home).not.toContain(spoiler.id);
    expect(home).not.toContain(reblog.id);
    expect(await ids(nia, "/api/v1/accounts/oz/statuses")).toContain(spoiler.id);
    await filter(true, ["account"]);
    expect(await ids(nia, "/api/v1/accounts/oz/statuses")).toEqual([fine.id]);
  });

  test("reply_visibility: following and self", async () => {
    const joe = await user(server, "joe");
    const kim = await user(server, "kim");
    const lou = await user(server, "lou");
    await call(server, joe, "POST", `/api/v1/accounts/${kim.id}/follow`);
    const joePost = await post(joe, { status: "joe root" });
    const louPost = await post(lou, { status: "lou root" });
    const kimPost = await post(kim, { status: "kim root" });
    const toJoe = await post(kim, { status: "@joe reply", in_reply_to_id: joePost.id });
    const toLou = await post(kim, { status: "@lou reply", in_reply_to_id: louPost.id });
    const toKim = await post(lou, { status: "@kim reply", in_reply_to_id: kimPost.id });
    const path = "/api/v1/timelines/public?limit=40";
    const all = await ids(joe, path);
    expect(all).toEqual(expect.arrayContaining([toJoe.id, toLou.id, toKim.id]));
    const following = await ids(joe, `${path}&reply_visibility=following`);
    expect(following).toEqual(expect.arrayContaining([toJoe.id, toKim.id, kimPost.id]));
    expect(following).not.toContain(toLou.id);
    const self = await ids(joe, `${path}&reply_visibility=self`);
    expect(self).toEqual(expect.arrayContaining([toJoe.id, kimPost.id]));
    expect(self).not.toContain(toKim.id);
    expect(self).not.toContain(toLou.id);
    const home = await ids(joe, "/api/v1/timelines/home?reply_visibility=self");
    expect(home).toContain(toJoe.id);
    expect(home).not.toContain(toLou.id);
  });

  test("account statuses: nickname id, pinned, tagged, only_media, exclude_reblogs, exclude_replies, exclude_visibilities", async () => {
    const max = await user(server, "max");
    const first = await post(max, { status: "first #tagged" });
    const second = await post(max, { status: "second" });
    const reply = await post(max, { status: "a reply", in_reply_to_id: first.id });
    const priv = await post(max, { status: "private", visibility: "private" });
    const reblog = (await call(server, max, "POST", `/api/v1/statuses/${(await post(cat, { status: "c" })).id}/reblog`)).body;
    await addMedia(second.id, max.id);
    await call(server, max, "POST", `/api/v1/statuses/${second.id}/pin`);
    await call(server, max, "POST", `/api/v1/statuses/${first.id}/pin`);

    expect(await ids(null, "/api/v1/accounts/max/statuses")).toEqual([reblog.id, reply.id, second.id, first.id]);
    expect(await ids(max, `/api/v1/accounts/${max.id}/statuses`)).toEqual([reblog.id, priv.id, reply.id, second.id, first.id]);
    expect(await ids(null, "/api/v1/accounts/max/statuses?pinned=true")).toEqual([first.id, second.id]);
    expect(await ids(null, "/api/v1/accounts/max/statuses?tagged=Tagged")).toEqual([first.id]);
    expect(await ids(null, "/api/v1/accounts/max/statuses?only_media=true")).toEqual([second.id]);
    expect(await ids(null, "/api/v1/accounts/max/statuses?exclude_reblogs=true")).toEqual([reply.id, second.id, first.id]);
    expect(await ids(null, "/api/v1/accounts/max/statuses?exclude_replies=true")).toEqual([reblog.id, second.id, first.id]);
    expect(await ids(max, "/api/v1/accounts/max/statuses?exclude_visibilities[]=private&exclude_visibilities[]=public")).toEqual([]);
    expect((await call(server, null, "GET", "/api/v1/accounts/nobody/statuses")).status).toBe(404);
  });

  test("bubble: local plus the administrator's hosts", async () => {
    const bub = await remoteAccount(server, "bub", "bubble.example");
    const inBubble = await remoteStatus(bub.id);
    const outside = await remoteStatus(remote.id);
    const local = await post(cat, { status: "bubble local" });
    expect(await ids(null, "/api/v1/timelines/bubble?limit=40")).not.toContain(inBubble.id);
    await server.services.db.configEntry.create({ data: { group: "instance", key: "local_bubble", value: ["bubble.example"] } });
    await server.services.config.reload();
    const bubble = await ids(null, "/api/v1/timelines/bubble?limit=40");
    expect(bubble).toEqual(expect.arrayContaining([inBubble.id, local.id]));
    expect(bubble).not.toContain(outside.id);
    expect(await ids(null, "/api/v1/timelines/bubble?remote=true&limit=40")).toEqual([inBubble.id]);
  });

  test("pagination: limit, max_id, since_id, min_id and Link headers; constant query count", async () => {
    const pia = await user(server, "pia");
    const made: string[] = [];
    for (let i = 0; i < 25; i++) made.push((await post(pia, { status: `page ${i} #paging` })).id);
    const newest = [...made].reverse();
    const first = await call(server, null, "GET", "/api/v1/accounts/pia/statuses?limit=5");
    expect(first.body.map((s: { id: string }) => s.id)).toEqual(newest.slice(0, 5));
    expectLink(first.headers, { max_id: newest[4], min_id: newest[0] });
    expect(await ids(null, `/api/v1/accounts/pia/statuses?limit=5&max_id=${newest[4]}`)).toEqual(newest.slice(5, 10));
    expect(await ids(null, `/api/v1/accounts/pia/statuses?limit=3&min_id=${newest[10]}`)).toEqual(newest.slice(7, 10));
    expect(await ids(null, `/api/v1/accounts/pia/statuses?limit=3&since_id=${newest[10]}`)).toEqual(newest.slice(0, 3));
    expect(await ids(null, "/api/v1/accounts/pia/statuses")).toHaveLength(20);
    expect(await ids(null, "/api/v1/accounts/pia/statuses?limit=100")).toHaveLength(25);
    const tag = await call(server, null, "GET", "/api/v1/timelines/tag/paging?limit=2");
    expectLink(tag.headers, { max_id: newest[1], min_id: newest[0] });
    expect(tag.headers.get("link")).toContain("/api/v1/timelines/tag/paging?limit=2");

    await call(server, ana, "POST", `/api/v1/accounts/${pia.id}/follow`);
    for (const path of ["/api/v1/timelines/home", "/api/v1/timelines/public", "/api/v1/timelines/tag/paging", "/api/v1/accounts/pia/statuses"]) {
      const one = await server.countQueries(() => ids(ana, `${path}?limit=1`));
      const many = await server.countQueries(() => ids(ana, `${path}?limit=20`));
      expect(many.result.length, path).toBeGreaterThanOrEqual(20);
      expect(many.queries, path).toBe(one.queries);
    }
  });
});
