import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { countCache } from "../../src/domain/accounts/count-cache.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";

const THUMBS = "👍";
const HEART = "❤️"; // U+2764 U+FE0F, the fully-qualified spelling
const BARE_HEART = "\u2764"; // the same emoji without its variation selector

describe.each(suiteKinds(import.meta.url))("emoji reactions on %s", (kind) => {
  let server: TestServer;
  let ana: User; // posts the statuses
  let ben: User;
  let cat: User;

  const post = async (extra: Record<string, unknown> = {}) => {
    const res = await server.fetch("/api/v1/statuses", { json: { status: "react to me", ...extra }, headers: ana.auth });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };
  const path = (id: string, emoji?: string) => `/api/v1/ext/statuses/${id}/reactions${emoji === undefined ? "" : `/${encodeURIComponent(emoji)}`}`;
  const react = (who: User | null, id: string, emoji: string) => call(server, who, "PUT", path(id, emoji));
  const unreact = (who: User | null, id: string, emoji: string) => call(server, who, "DELETE", path(id, emoji));
  const reactionNotes = (statusId: string) => server.services.db.notification.findMany({ where: { type: "emoji_reaction", statusId } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cat] = [await user(server, "ana"), await user(server, "ben"), await user(server, "cat")];
  });
  afterAll(() => server?.close());

  test("reacting answers the status with the groups and notifies the author once", async () => {
    const id = await post();
    const res = await react(ben, id, THUMBS);
    expect(res.status).toBe(200);
    const group = { name: THUMBS, count: 1, me: true, account_ids: [ben.id] };
    expect(res.body).toMatchObject({ id, emoji_reactions: [group], ext: { emoji_reactions: [group] } });
    const notes = await reactionNotes(id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ accountId: ana.id, fromAccountId: ben.id, emoji: THUMBS });

    const again = await react(ben, id, THUMBS);
    expect(again.status).toBe(200);
    expect(again.body.emoji_reactions).toEqual([group]);
    expect(await reactionNotes(id)).toHaveLength(1);

    // reacting to one's own status notifies nobody
    const own = await react(ana, id, THUMBS);
    expect(own.body.emoji_reactions).toEqual([{ name: THUMBS, count: 2, me: true, account_ids: [ben.id, ana.id] }]);
    expect(await reactionNotes(id)).toHaveLength(1);
  });

  test("spellings with and without the variation selector are one reaction", async () => {
    const id = await post();
    await react(ben, id, BARE_HEART);
    const res = await react(cat, id, HEART);
    expect(res.body.emoji_reactions).toEqual([{ name: HEART, count: 2, me: true, account_ids: [ben.id, cat.id] }]);
    // a keycap typed without its selector, and a flag
    const keycap = await react(ben, id, "#\u20E3");
    expect(keycap.status).toBe(200);
    expect((await react(ben, id, "🇫🇷")).status).toBe(200);
    expect((await react(ben, id, "🇦")).status).toBe(200); // a lone regional indicator, as the family allows
    const names = (await call(server, null, "GET", path(id))).body.map((g: { name: string }) => g.name);
    expect(names).toEqual([HEART, "#\uFE0F\u20E3", "🇫🇷", "🇦"]);
    // removing with the other spelling works too
    expect((await unreact(ben, id, HEART)).body.emoji_reactions[0]).toEqual({ name: HEART, count: 1, me: false, account_ids: [cat.id] });
  });

  test("the list: groups by first reaction, accounts rendered, me per viewer; one emoji's group", async () => {
    const id = await post();
    await react(ben, id, THUMBS);
    await react(cat, id, HEART);
    await react(cat, id, THUMBS);

    const anonymous = await call(server, null, "GET", path(id));
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject([
      { name: THUMBS, count: 2, me: false, accounts: [{ id: ben.id, acct: "ben" }, { id: cat.id, acct: "cat" }] },
      { name: HEART, count: 1, me: false, accounts: [{ id: cat.id, acct: "cat" }] },
    ]);
    const asBen = await call(server, ben, "GET", path(id));
    expect(asBen.body.map((g: { me: boolean }) => g.me)).toEqual([true, false]);

    const one = await call(server, cat, "GET", path(id, BARE_HEART));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject([{ name: HEART, count: 1, me: true, accounts: [{ id: cat.id }] }]);
    expect((await call(server, null, "GET", path(id, "😀"))).body).toEqual([]);
    expect((await call(server, null, "GET", path(id, "not an emoji"))).body).toEqual([]);
  });

  test("the list leaves out muted (unless with_muted) and blocked reactors for the viewer", async () => {
    const id = await post();
    await react(ben, id, THUMBS);
    await react(cat, id, THUMBS);
    await react(cat, id, HEART);
    const dan = await user(server, "dan");
    expect((await call(server, dan, "POST", `/api/v1/accounts/${cat.id}/mute`)).status).toBe(200);
    const muted = await call(server, dan, "GET", path(id));
    expect(muted.body).toMatchObject([{ name: THUMBS, count: 1, accounts: [{ id: ben.id }] }]);
    const withMuted = await call(server, dan, "GET", `${path(id)}?with_muted=true`);
    expect(withMuted.body).toMatchObject([{ name: THUMBS, count: 2 }, { name: HEART, count: 1 }]);
    expect((await call(server, dan, "POST", `/api/v1/accounts/${ben.id}/block`)).status).toBe(200);
    expect((await call(server, dan, "GET", `${path(id)}?with_muted=true`)).body).toMatchObject([
      { name: THUMBS, count: 1, accounts: [{ id: cat.id }] },
      { name: HEART, count: 1 },
    ]);
  });

  test("removing: the status without the reaction, its notification gone; twice is a 400", async () => {
    const id = await post();
    await react(ben, id, THUMBS);
    await react(cat, id, THUMBS);
    expect(await reactionNotes(id)).toHaveLength(2);
    const res = await unreact(ben, id, THUMBS);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, emoji_reactions: [{ name: THUMBS, count: 1, me: false, account_ids: [cat.id] }] });
    expect((await reactionNotes(id)).map((n) => n.fromAccountId)).toEqual([cat.id]);
    expect(await unreact(ben, id, THUMBS)).toMatchObject({ status: 400, body: { error: "Could not remove reaction emoji" } });
    await unreact(cat, id, THUMBS);
    expect((await call(server, null, "GET", `/api/v1/statuses/${id}`)).body.emoji_reactions).toEqual([]);
  });

  test("refusals: not an emoji, several emoji, custom emoji; signed out; invisible status", async () => {
    const id = await post();
    for (const bad of ["a", "👍👍", "👍 ", "x❤"]) {
      const res = await react(ben, id, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toMatch(/is not an emoji/);
    }
    const custom = await react(ben, id, ":blobcat:");
    expect(custom.status).toBe(400);
    expect(custom.body.error).toMatch(/custom emoji/);
    expect(await server.services.db.reaction.count({ where: { statusId: id } })).toBe(0);
    expect((await react(null, id, THUMBS)).status).toBe(403);

    const hidden = await post({ visibility: "private" });
    expect((await react(ben, hidden, THUMBS)).status).toBe(404);
    expect((await call(server, null, "GET", path(hidden))).status).toBe(404);
    expect((await react(ben, "nope", THUMBS)).status).toBe(404);
    expect((await react(ana, hidden, THUMBS)).status).toBe(200);
  });

  test("the later variant's alias reacts too", async () => {
    const id = await post();
    const res = await call(server, ben, "PUT", `/api/v1/statuses/${id}/emoji_reactions/${encodeURIComponent("🎉")}`);
    expect(res.status).toBe(200);
    expect(res.body.emoji_reactions).toEqual([{ name: "🎉", count: 1, me: true, account_ids: [ben.id] }]);
    expect(await reactionNotes(id)).toHaveLength(1);
  });

  test("a reaction through a reblog goes to the reblogged status", async () => {
    const id = await post();
    const reblogId = newId();
    // a reblog row as the reblog action stores it (its route belongs to another area)
    await server.services.db.status.create({ data: { id: reblogId, uri: `http://localhost:4000/activities/${reblogId}`, accountId: ben.id, reblogOfId: id, context: "x", visibility: "public" } });
    const res = await react(cat, reblogId, THUMBS);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reblogId, reblog: { id, emoji_reactions: [{ name: THUMBS, count: 1, me: true, account_ids: [cat.id] }] } });
    expect(await server.services.db.reaction.count({ where: { statusId: id } })).toBe(1);
    expect((await call(server, null, "GET", path(reblogId))).body).toMatchObject([{ name: THUMBS, count: 1 }]);
    expect((await reactionNotes(id)).map((n) => n.accountId)).toEqual([ana.id]);
  });

  test("listing costs the same number of queries for one reactor or many", async () => {
    const id = await post();
    const many = await post();
    await react(ben, id, THUMBS);
    const accounts = await Promise.all(["eve", "fay", "gus", "hal", "ivy", "jon"].map((n) => server.createUser(n)));
    await server.services.db.reaction.createMany({
      data: accounts.flatMap((a, i) => [
        { id: newId(), accountId: a.id, statusId: many, emoji: THUMBS },
        ...(i % 2 ? [{ id: newId(), accountId: a.id, statusId: many, emoji: HEART }] : []),
      ]),
    });
    // both with no follower counts cached (ben's were counted before: his listing would count nothing)
    const cold = <T>(fn: () => Promise<T>) => (countCache(server.services).invalidate({ all: "f" }), server.countQueries(fn));
    const one = await cold(() => server.fetch(path(id), { headers: cat.auth }));
    const six = await cold(() => server.fetch(path(many), { headers: cat.auth }));
    expect((await six.result.json()).map((g: { count: number }) => g.count)).toEqual([6, 3]);
    expect(six.queries).toBe(one.queries);
  });
});
