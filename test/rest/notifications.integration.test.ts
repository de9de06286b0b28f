// GET/POST /api/v1/notifications…: type filters (types and include_types, opt-in family types,
// exclusions), visibility, read-marking (id vs max_id, the 80 cap), deletion, the bus event, query counts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { moderator, USER_SCOPES } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

describe.each(suiteKinds(import.meta.url))("notifications on %s", (kind) => {
  let server: TestServer;
  let ana: User; // receives most notifications
  let ben: User;
  let cat: User;
  let mod: User;

  const db = () => server.services.db;
  const post = async (who: User, status: string, extra: Record<string, unknown> = {}) => {
    const res = await server.fetch("/api/v1/statuses", { json: { status, ...extra }, headers: who.auth });
    expect(res.status).toBe(200);
    return (await res.json()).id as string;
  };
  const list = (who: User, query = "") => call(server, who, "GET", `/api/v1/notifications${query}`);
  const types = (body: { type: string }[]) => body.map((n) => n.type);
  /** stores `n` notifications for `to` directly (oldest first) and returns their ids */
  const seed = async (to: User, from: User, n: number, type = "follow") => {
    const ids = Array.from({ length: n }, () => newId());
    await db().notification.createMany({ data: ids.map((id) => ({ id, accountId: to.id, fromAccountId: from.id, type })) });
    return ids;
  };
  const reset = () => db().notification.deleteMany({});

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cat] = [await user(server, "ana"), await user(server, "ben"), await user(server, "cat")];
    mod = await moderator(server, "mod", USER_SCOPES);
  });
  afterAll(() => server?.close());

  test("mentions, favourites, reactions and follows show newest first with wire names, filtered by types or include_types", async () => {
    await reset();
    const s = await post(ana, "hello");
    await call(server, ben, "POST", `/api/v1/statuses/${s}/favourite`);
    await call(server, ben, "PUT", `/api/v1/ext/statuses/${s}/reactions/${encodeURIComponent("👍")}`);
    await post(cat, "hi @ana");
    await call(server, cat, "POST", `/api/v1/accounts/${ana.id}/follow`);

    const all = await list(ana);
    expect(all.status).toBe(200);
    expect(types(all.body)).toEqual(["follow", "mention", "ext:emoji_reaction", "favourite"]);
    const reaction = all.body[2];
    expect(reaction).toMatchObject({ emoji: "👍", account: { id: ben.id }, status: { id: s }, ext: { is_seen: false } });
    expect(all.body[0]).toMatchObject({ account: { id: cat.id }, ext: { is_seen: false } });
    expect(all.body[0].status).toBeUndefined();
    expect(typeof all.body[0].created_at).toBe("string");

    for (const name of ["types[]", "include_types[]"]) {
      const only = await list(ana, `?${name}=mention&${name}=ext:emoji_reaction`);
      expect(types(only.body)).toEqual(["mention", "ext:emoji_reaction"]);
    }
    expect(types((await list(ana, "?exclude_types[]=follow&exclude_types[]=ext:emoji_reaction")).body)).toEqual(["mention", "favourite"]);
    expect(types((await list(ana, `?account_id=${ben.id}`)).body)).toEqual(["ext:emoji_reaction", "favourite"]);
    // one notification by id
    const one = await call(server, ana, "GET", `/api/v1/notifications/${reaction.id}`);
    expect(one.body).toMatchObject({ id: reaction.id, type: "ext:emoji_reaction" });
    expect((await call(server, ben, "GET", `/api/v1/notifications/${reaction.id}`)).status).toBe(404);
  });

  test("reports are opt-in; follow requests turn into follows when accepted", async () => {
    await reset();
    await call(server, ben, "POST", "/api/v1/reports", { account_id: cat.id, comment: "spam" });
    expect((await list(mod)).body).toEqual([]);
    const reports = await list(mod, "?types[]=ext:report");
    expect(types(reports.body)).toEqual(["ext:report"]);
    expect(reports.body[0]).toMatchObject({ account: { id: ben.id }, report: { comment: "spam", target_account: { id: cat.id } } });
    expect(types((await list(mod, "?include_types[]=ext:report&include_types[]=follow")).body)).toEqual(["ext:report"]);

    await db().account.update({ where: { id: cat.id }, data: { locked: true } });
    await call(server, ben, "POST", `/api/v1/accounts/${cat.id}/follow`);
    expect(types((await list(cat)).body)).toEqual(["follow_request"]);
    await call(server, cat, "POST", `/api/v1/follow_requests/${ben.id}/authorize`);
    expect(types((await list(cat)).body)).toEqual(["follow"]);
    await db().account.update({ where: { id: cat.id }, data: { locked: false } });
  });

  test("move notifications carry the target; exclude_visibilities and statuses the viewer cannot see", async () => {
    await reset();
    await db().account.update({ where: { id: ben.id }, data: { movedToId: cat.id } });
    await seed(ana, ben, 1, "move");
    const moved = await list(ana);
    expect(moved.body[0]).toMatchObject({ type: "move", account: { id: ben.id }, target: { id: cat.id } });
    await db().account.update({ where: { id: ben.id }, data: { movedToId: null } });

    await reset();
    await post(ben, "psst @ana", { visibility: "direct" });
    await post(ben, "hey @ana");
    expect((await list(ana)).body).toHaveLength(2);
    expect((await list(ana, "?exclude_visibilities[]=direct")).body.map((n: any) => n.status.visibility)).toEqual(["public"]);
    // a notification about a private status of someone ana does not follow, not addressed to her
    const hidden = await post(cat, "followers only", { visibility: "private" });
    await db().notification.create({ data: { id: newId(), accountId: ana.id, fromAccountId: cat.id, type: "favourite", statusId: hidden } });
    expect((await list(ana)).body).toHaveLength(2);
  });

  test("block_from_strangers keeps only notifications from accounts that follow the recipient", async () => {
    await reset();
    await db().account.update({ where: { id: ana.id }, data: { notificationSettings: { block_from_strangers: true, hide_notification_contents: false } } });
    const dan = await user(server, "dan");
    try {
      await post(dan, "stranger says hi @ana");
      expect(await db().notification.count({ where: { accountId: ana.id } })).toBe(0);
      await call(server, ben, "POST", `/api/v1/accounts/${ana.id}/follow`);
      await post(ben, "follower says hi @ana");
      expect(types((await list(ana)).body)).toEqual(["mention", "follow"]);
    } finally {
      await db().account.update({ where: { id: ana.id }, data: { notificationSettings: { block_from_strangers: false, hide_notification_contents: false } } });
      await call(server, ben, "POST", `/api/v1/accounts/${ana.id}/unfollow`);
    }
  });

  test("muted threads get no notifications; a plain mute stores them seen and hides them unless with_muted", async () => {
    await reset();
    const s = await post(ana, "a thread");
    await call(server, ana, "POST", `/api/v1/statuses/${s}/mute`);
    await call(server, ben, "POST", `/api/v1/statuses/${s}/favourite`);
    expect(await db().notification.count({ where: { accountId: ana.id } })).toBe(0);
    await call(server, ana, "POST", `/api/v1/statuses/${s}/unmute`);

    await call(server, ana, "POST", `/api/v1/accounts/${cat.id}/mute`, { notifications: "false" });
    await post(cat, "muted hello @ana");
    expect(await db().notification.findMany({ where: { accountId: ana.id } })).toMatchObject([{ seen: true, type: "mention" }]);
    expect((await list(ana)).body).toEqual([]);
    expect(types((await list(ana, "?with_muted=true")).body)).toEqual(["mention"]);
    // the family's `is_muted` says so (read with the page), and `is_seen` (stored seen)
    const ns = server.services.settings.namespace;
    const [muted] = (await list(ana, "?with_muted=true")).body;
    expect(muted[ns]).toEqual({ is_seen: true, is_muted: true });
    // a single notification (not a listed page) reads it apart, the same
    expect((await call(server, ana, "GET", `/api/v1/notifications/${muted.id}`)).body[ns]).toEqual({ is_seen: true, is_muted: true });
    await call(server, ana, "POST", `/api/v1/accounts/${cat.id}/unmute`);
    expect((await list(ana)).body[0][ns]).toEqual({ is_seen: true, is_muted: false });
  });

  test("each new notification is published on the bus", async () => {
    const got: { accountId: string; notificationId: string }[] = [];
    const iterator = server.services.bus.subscribe("notification")[Symbol.asyncIterator]();
    void (async () => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        got.push(next.value);
      }
    })();
    // no wait needed: the in-process bus adds its listener on the iterator's first next(), called above
    await post(ben, "ping @ana @cat");
    await waitFor(() => got.length >= 2, "two notification events on the bus", { timeoutMs: 5_000 });
    await iterator.return?.();
    const stored = await db().notification.findMany({ where: { id: { in: got.map((g) => g.notificationId) } } });
    expect(stored.map((n) => n.accountId).sort()).toEqual([ana.id, cat.id].sort());
    expect(got.map((g) => g.accountId).sort()).toEqual([ana.id, cat.id].sort());
  });

  test("read marking: id or max_id, never both or neither; max_id returns at most 80", async () => {
    await reset();
    const ids = await seed(ana, ben, 85);
    const path = "/api/v1/ext/notifications/read";
    expect((await call(server, ana, "POST", path, { id: ids[0], max_id: ids[1] })).status).toBe(400);
    const neither = await call(server, ana, "POST", path, {});
    expect(neither.status).toBe(400);
    expect(neither.body.error).toBeTruthy();

    const one = await call(server, ana, "POST", path, { id: ids[0] });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: ids[0], ext: { is_seen: true } });
    expect(await db().notification.count({ where: { accountId: ana.id, seen: true } })).toBe(1);
    expect((await call(server, ben, "POST", path, { id: ids[1] })).status).toBe(400);

    const some = await call(server, ana, "POST", path, { max_id: ids[9] });
    expect(some.body.map((n: any) => n.id)).toEqual(ids.slice(1, 10).reverse());
    const rest = await call(server, ana, "POST", path, { max_id: ids[84] });
    expect(rest.body).toHaveLength(75);
    expect(await db().notification.count({ where: { accountId: ana.id, seen: false } })).toBe(0);

    await reset();
    const many = await seed(ana, ben, 85);
    const capped = await call(server, ana, "POST", path, { max_id: many[84] });
    expect(capped.body).toHaveLength(80);
    expect(capped.body.every((n: any) => n.ext.is_seen)).toBe(true);
    expect(await db().notification.count({ where: { accountId: ana.id, seen: true } })).toBe(85);
    // the unread count of the owner's account follows
    expect((await list(ana, "?limit=1")).body[0].ext.is_seen).toBe(true);
  });

  test("dismiss, the older dismiss, destroy_multiple and clear", async () => {
    await reset();
    const ids = await seed(ana, ben, 6);
    const other = await seed(cat, ben, 1);
    expect(await call(server, ana, "POST", `/api/v1/notifications/${ids[0]}/dismiss`)).toMatchObject({ status: 200, body: {} });
    expect((await call(server, ana, "POST", "/api/v1/notifications/dismiss", { id: ids[1] })).status).toBe(200);
    expect((await call(server, ana, "POST", `/api/v1/notifications/${other[0]}/dismiss`)).status).toBe(403);
    const missing = await call(server, ana, "DELETE", "/api/v1/notifications/destroy_multiple");
    expect(missing.status).toBe(400);
    const destroyed = await call(server, ana, "DELETE", `/api/v1/notifications/destroy_multiple?ids[]=${ids[2]}&ids[]=${ids[3]}&ids[]=${other[0]}`);
    expect(destroyed).toMatchObject({ status: 200, body: {} });
    expect((await db().notification.findMany({ where: { accountId: ana.id }, orderBy: { id: "asc" } })).map((n) => n.id)).toEqual(ids.slice(4));
    expect(await db().notification.count({ where: { id: other[0] } })).toBe(1);
    expect(await call(server, ana, "POST", "/api/v1/notifications/clear")).toMatchObject({ status: 200, body: {} });
    expect(await db().notification.count({ where: { accountId: ana.id } })).toBe(0);
    expect(await db().notification.count({ where: { accountId: cat.id } })).toBe(1);
  });

  test("paging with Link headers; a page renders in the same number of queries for 1 or 20", async () => {
    await reset();
    for (let i = 0; i < 20; i++) await post(i % 2 ? ben : cat, `note ${i} @ana`);
    const page = await list(ana, "?limit=5");
    expect(page.body).toHaveLength(5);
    const link = page.headers.get("link") ?? "";
    expect(link).toContain(`max_id=${page.body[4].id}`);
    const next = await list(ana, `?limit=5&max_id=${page.body[4].id}`);
    expect(next.body[0].id < page.body[4].id).toBe(true);

    const one = await server.countQueries(() => list(ana, "?limit=1"));
    const twenty = await server.countQueries(() => list(ana, "?limit=20"));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.queries).toBe(one.queries);
  });

  test("scopes: read:notifications to read, write:notifications to change", async () => {
    const reader = await user(server, "reader", "read:notifications");
    expect((await list(reader)).status).toBe(200);
    expect((await call(server, reader, "POST", "/api/v1/notifications/clear")).status).toBe(403);
    expect((await call(server, null, "GET", "/api/v1/notifications")).status).toBe(403);
  });
});
