// Actions on statuses: favourite, reblog, bookmark, pin, thread mute, their undos, and who favourited or reblogged.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("status actions on %s", (kind) => {
  let server: TestServer;
  let ana: User, ben: User, cat: User, dan: User;

  async function call(who: User | null, method: string, path: string, json?: unknown) {
    const res = await server.fetch(path, { method, headers: who ? who.auth : {}, ...(json !== undefined ? { json } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }
  const post = async (who: User, json: Record<string, unknown>) => {
    const res = await call(who, "POST", "/api/v1/statuses", json);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: string };
  };
  const act = (who: User | null, id: string, action: string, json: Record<string, unknown> = {}) => call(who, "POST", `/api/v1/statuses/${id}/${action}`, json);
  const db = () => server.services.db;

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    [ana, ben, cat, dan] = await Promise.all(["ana", "ben", "cat", "dan"].map((n) => user(server, n)));
    expect((await call(ben, "POST", `/api/v1/accounts/${ana.id}/follow`)).status).toBe(200); // ben sees ana's private posts
  });
  afterAll(() => server?.close());

  test("favourite and unfavourite: idempotent, counted, notified once, and undone", async () => {
    const s = await post(ana, { status: "like me" });
    const fav = await act(ben, s.id, "favourite");
    expect(fav.status).toBe(200);
    expect(fav.body).toMatchObject({ id: s.id, favourited: true, favourites_count: 1 });
    const again = await act(ben, s.id, "favourite");
    expect(again.body).toMatchObject({ favourited: true, favourites_count: 1 });
    expect(await db().favourite.count({ where: { statusId: s.id } })).toBe(1);
    expect(await db().notification.count({ where: { type: "favourite", statusId: s.id, accountId: ana.id, fromAccountId: ben.id } })).toBe(1);
    const asAuthor = await call(ana, "GET", `/api/v1/statuses/${s.id}`);
    expect(asAuthor.body).toMatchObject({ favourited: false, favourites_count: 1 });

    const unfav = await act(ben, s.id, "unfavourite");
    expect(unfav.body).toMatchObject({ favourited: false, favourites_count: 0 });
    expect(await db().favourite.count({ where: { statusId: s.id } })).toBe(0);
    expect(await db().notification.count({ where: { type: "favourite", statusId: s.id } })).toBe(0);
    expect((await act(ben, s.id, "unfavourite")).status).toBe(200);
    // the author favouriting their own status is not notified
    await act(ana, s.id, "favourite");
    expect(await db().notification.count({ where: { type: "favourite", statusId: s.id } })).toBe(0);
  });

  test("reblog answers the reblog wrapping the original; once per account; unreblog answers the original", async () => {
    const s = await post(ana, { status: "boost me" });
    const rb = await act(ben, s.id, "reblog", { visibility: "unlisted" });
    expect(rb.status).toBe(200);
    expect(rb.body).toMatchObject({ visibility: "unlisted", account: { acct: "ben" }, reblog: { id: s.id, reblogged: true, reblogs_count: 1, account: { acct: "ana" } } });
    expect(rb.body.id).not.toBe(s.id);
    const row = await db().status.findUniqueOrThrow({ where: { id: rb.body.id } });
    const original = await db().status.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ reblogOfId: s.id, accountId: ben.id, context: original.context, visibility: "unlisted", content: "" });
    expect(await db().notification.count({ where: { type: "reblog", statusId: s.id, accountId: ana.id, fromAccountId: ben.id } })).toBe(1);

    expect((await act(ben, s.id, "reblog")).body.id).toBe(rb.body.id);
    expect((await act(ben, rb.body.id, "reblog")).body.id).toBe(rb.body.id); // the reblog's id names the original
    expect(await db().status.count({ where: { reblogOfId: s.id } })).toBe(1);
    expect((await call(cat, "GET", `/api/v1/statuses/${s.id}`)).body).toMatchObject({ reblogged: false, reblogs_count: 1 });

    const plain = await act(cat, s.id, "reblog");
    expect(plain.body.visibility).toBe("public");

    const un = await act(ben, s.id, "unreblog");
    expect(un.status).toBe(200);
    expect(un.body).toMatchObject({ id: s.id, reblog: null, reblogged: false, reblogs_count: 1 });
    expect(await db().status.findUnique({ where: { id: rb.body.id } })).toBeNull();
    expect(await db().notification.count({ where: { type: "reblog", statusId: s.id, fromAccountId: ben.id } })).toBe(0);
    expect((await act(ben, s.id, "unreblog")).status).toBe(200);
    expect((await act(ben, s.id, "reblog", { visibility: "direct" })).status).toBe(400);
  });

  test("private and direct statuses: only the author reblogs a private one, to followers", async () => {
    const priv = await post(ana, { status: "followers only", visibility: "private" });
    expect((await act(ben, priv.id, "reblog")).status).toBe(404);
    expect((await act(cat, priv.id, "favourite")).status).toBe(404); // cat cannot see it
    const own = await act(ana, priv.id, "reblog", { visibility: "public" });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ visibility: "private", reblog: { id: priv.id } });

    const dm = await post(ana, { status: "@ben psst", visibility: "direct" });
    expect((await act(ben, dm.id, "reblog")).status).toBe(404);
    expect((await act(ana, dm.id, "reblog")).status).toBe(422);
    expect((await act(ben, dm.id, "favourite")).body).toMatchObject({ favourited: true });
    expect(await db().status.count({ where: { reblogOfId: dm.id } })).toBe(0);
  });

  test("bookmark and unbookmark", async () => {
    const s = await post(ana, { status: "keep me" });
    expect((await act(ben, s.id, "bookmark")).body).toMatchObject({ bookmarked: true });
    expect((await act(ben, s.id, "bookmark")).body).toMatchObject({ bookmarked: true });
    expect(await db().bookmark.count({ where: { statusId: s.id, accountId: ben.id } })).toBe(1);
    expect((await call(cat, "GET", `/api/v1/statuses/${s.id}`)).body.bookmarked).toBe(false);
    expect((await act(ben, s.id, "unbookmark")).body).toMatchObject({ bookmarked: false });
    expect(await db().bookmark.count({ where: { statusId: s.id } })).toBe(0);
  });

  test("pin: own public statuses only, up to max_pinned_statuses; unpin", async () => {
    await db().configEntry.create({ data: { group: "instance", key: "max_pinned_statuses", value: 2 } });
    await server.services.config.reload();
    const [a, b, c] = [await post(dan, { status: "one" }), await post(dan, { status: "two", visibility: "unlisted" }), await post(dan, { status: "three" })];
    const pinned = await act(dan, a.id, "pin");
    expect(pinned.status).toBe(200);
    expect(pinned.body.pinned).toBe(true);
    expect(pinned.body.ext.pinned_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await db().status.findUniqueOrThrow({ where: { id: a.id } })).pinnedAt).not.toBeNull();
    expect((await act(dan, a.id, "pin")).status).toBe(200); // already pinned: no second slot taken
    expect((await act(dan, b.id, "pin")).body.pinned).toBe(true);
    const over = await act(dan, c.id, "pin");
    expect(over.status).toBe(400);
    expect(over.body.error).toBe("You have already pinned the maximum number of statuses");

    const other = await act(ben, c.id, "pin");
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("Someone else's status cannot be pinned");
    const priv = await post(dan, { status: "mine", visibility: "private" });
    const nonPublic = await act(dan, priv.id, "pin");
    expect(nonPublic.status).toBe(422);
    expect(nonPublic.body.error).toBe("Non-public status cannot be pinned");

    const un = await act(dan, a.id, "unpin");
    expect(un.body).toMatchObject({ pinned: false, ext: { pinned_at: null } });
    expect((await db().status.findUniqueOrThrow({ where: { id: a.id } })).pinnedAt).toBeNull();
    expect((await act(dan, c.id, "pin")).body.pinned).toBe(true);
    expect((await act(ben, c.id, "unpin")).body.pinned).toBe(true); // someone else's pin is left alone
    await db().configEntry.deleteMany({ where: { key: "max_pinned_statuses" } });
    await server.services.config.reload();
  });

  test("thread mute by context, with expiry; marks the thread's notifications read; unmute", async () => {
    const root = await post(ana, { status: "a thread" });
    const reply = await post(ben, { status: "a reply", in_reply_to_id: root.id });
    await post(ana, { status: "@ben hey", in_reply_to_id: reply.id });
    expect(await db().notification.count({ where: { accountId: ben.id, type: "mention", seen: false, status: { inReplyToId: reply.id } } })).toBe(1);

    const muted = await act(ben, reply.id, "mute", { expires_in: 3600 });
    expect(muted.status).toBe(200);
    expect(muted.body).toMatchObject({ muted: true, ext: { thread_muted: true } });
    const context = (await db().status.findUniqueOrThrow({ where: { id: root.id } })).context;
    const row = await db().threadMute.findUniqueOrThrow({ where: { accountId_context: { accountId: ben.id, context } } });
    expect(Math.abs(row.expiresAt!.getTime() - Date.now() - 3600_000)).toBeLessThan(60_000);
    expect((await call(ben, "GET", `/api/v1/statuses/${root.id}`)).body).toMatchObject({ muted: true, ext: { thread_muted: true } });
    expect((await call(ana, "GET", `/api/v1/statuses/${root.id}`)).body.muted).toBe(false);
    expect(await db().notification.count({ where: { accountId: ben.id, seen: false, status: { context } } })).toBe(0);

    await db().threadMute.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call(ben, "GET", `/api/v1/statuses/${root.id}`)).body.muted).toBe(false);
    expect((await act(ben, root.id, "mute")).body.muted).toBe(true);
    expect((await db().threadMute.findUniqueOrThrow({ where: { id: row.id } })).expiresAt).toBeNull();

    expect((await act(ben, root.id, "unmute")).body).toMatchObject({ muted: false, ext: { thread_muted: false } });
    expect(await db().threadMute.count({ where: { accountId: ben.id, context } })).toBe(0);
  });

  test("favourited_by and reblogged_by: newest first, paged with Link headers, only what the viewer may see", async () => {
    const s = await post(ana, { status: "popular" });
    for (const who of [ben, cat, dan]) await act(who, s.id, "favourite");
    const first = await call(null, "GET", `/api/v1/statuses/${s.id}/favourited_by?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.map((a: { acct: string }) => a.acct)).toEqual(["dan", "cat"]);
    const next = first.headers.get("link")!.match(/<([^>]+)>; rel="next"/)![1];
    const second = await call(null, "GET", new URL(next).pathname + new URL(next).search);
    expect(second.body.map((a: { acct: string }) => a.acct)).toEqual(["ben"]);

    await act(ben, s.id, "reblog");
    await act(dan, s.id, "reblog", { visibility: "private" });
    const anon = await call(null, "GET", `/api/v1/statuses/${s.id}/reblogged_by`);
    expect(anon.body.map((a: { acct: string }) => a.acct)).toEqual(["ben"]); // dan's reblog is for dan's followers
    const self = await call(dan, "GET", `/api/v1/statuses/${s.id}/reblogged_by`);
    expect(self.body.map((a: { acct: string }) => a.acct)).toEqual(["dan", "ben"]);

    expect((await call(ana, "POST", `/api/v1/accounts/${cat.id}/block`)).status).toBe(200);
    const blocked = await call(ana, "GET", `/api/v1/statuses/${s.id}/favourited_by`);
    expect(blocked.body.map((a: { acct: string }) => a.acct)).toEqual(["dan", "ben"]);

    const priv = await post(ana, { status: "hidden", visibility: "private" });
    expect((await call(null, "GET", `/api/v1/statuses/${priv.id}/favourited_by`)).status).toBe(404);
    expect((await call(null, "GET", `/api/v1/statuses/${priv.id}/reblogged_by`)).status).toBe(404);
  });

  test("refusals: unknown status, anonymous, missing scope", async () => {
    expect((await act(ben, "nope", "favourite")).status).toBe(404);
    const s = await post(ana, { status: "scoped" });
    expect((await act(null, s.id, "favourite")).status).toBe(403);
    const readOnly = await user(server, "eve", "read");
    expect((await act(readOnly, s.id, "favourite")).status).toBe(403);
    expect((await act(readOnly, s.id, "pin")).status).toBe(403);
    expect(await db().favourite.count({ where: { statusId: s.id } })).toBe(0);
  });
});
