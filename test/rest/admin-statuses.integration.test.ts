// Admin API status moderation: listings with godmode / local_only / with_reblogs, one status, change
// (sensitive, visibility) and delete with their moderation-log messages and the spec's error bodies;
// an instance's statuses; privileges (moderators may change and delete, not read listings).
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { bearer, cast, post as postStatus, type Cast } from "../support/actors.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

const ADMIN_TOKEN = "admin-token-for-status-tests";
const PREFIXES = ["/api/v1/ext/admin", "/api/ext/admin"];

describe.each(suiteKinds(import.meta.url))("admin statuses on %s", (kind) => {
  let server: TestServer;
  let id: Cast["id"];
  let token: Cast["token"];
  const s: Record<string, string> = {};
  let remoteId = "";
  const call = (who: string | null, method: string, path: string, json?: unknown, prefix = PREFIXES[0]) =>
    server.fetch(prefix + path, { method, json, headers: who ? bearer(token[who]) : {} });
  const post = (who: string, body: Record<string, unknown>) => postStatus(server, token[who], body);
  const ids = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }[]).map((x) => x.id);
  };
  const lastLog = async () => (await server.services.db.moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } })).message;
  const db = () => server.services.db;

  beforeAll(async () => {
    server = await startTestServer(kind, { ADMIN_TOKEN });
    ({ id, token } = await cast(server, { ada: { admin: true }, mo: { moderator: true }, tom: {}, pat: {} }));
    s.public = await post("tom", { status: "public post" });
    s.unlisted = await post("tom", { status: "unlisted post", visibility: "unlisted" });
    s.private = await post("tom", { status: "private post", visibility: "private" });
    s.direct = await post("tom", { status: "@pat direct post", visibility: "direct" });
    const reblog = await server.fetch(`/api/v1/statuses/${s.public}/reblog`, { method: "POST", headers: bearer(token.pat) });
    s.reblog = (await reblog.json()).id;
    const remote = await db().account.create({
      data: { id: newId(), nickname: "bob@remote.example", domain: "remote.example", local: false, apId: "https://remote.example/users/bob" },
    });
    remoteId = remote.id;
    s.remote = newId();
    s.remotePrivate = newId();
    await db().status.createMany({
      data: [
        { id: s.remote, uri: "https://remote.example/objects/1", accountId: remote.id, local: false, content: "<p>remote post</p>", visibility: "public", context: "https://remote.example/ctx/1" },
        { id: s.remotePrivate, uri: "https://remote.example/objects/2", accountId: remote.id, local: false, content: "<p>remote private</p>", visibility: "private", context: "https://remote.example/ctx/2" },
      ],
    });
  });
  afterAll(() => server?.close());

  test("GET /statuses: public and unlisted only by default, no reblogs, newest first; both prefixes", async () => {
    const [a, b] = await Promise.all(PREFIXES.map((p) => call("ada", "GET", "/statuses", undefined, p)));
    const body = await a.json();
    expect(await b.json()).toEqual(body);
    expect(body.map((x: any) => x.id)).toEqual([s.remote, s.unlisted, s.public]);
    expect(body.find((x: any) => x.id === s.public)).toMatchObject({ content: "public post", account: { id: id.tom, nickname: "tom", roles: { admin: false, moderator: false } } });
  });

  test("GET /statuses: godmode adds private and direct; local_only drops remote; with_reblogs adds reblogs", async () => {
    expect(await ids(await call("ada", "GET", "/statuses?godmode=true"))).toEqual([s.remotePrivate, s.remote, s.direct, s.private, s.unlisted, s.public]);
    expect(await ids(await call("ada", "GET", "/statuses?godmode=true&local_only=true"))).toEqual([s.direct, s.private, s.unlisted, s.public]);
    expect(await ids(await call("ada", "GET", "/statuses?local_only=true&with_reblogs=true"))).toEqual([s.reblog, s.unlisted, s.public]);
    expect(await ids(await call("ada", "GET", "/statuses?godmode=true&page_size=2&page=2"))).toEqual([s.direct, s.private]);
  });

  test("GET /statuses pages 20 statuses by default", async () => {
    const extra = await server.createUser("bulk");
    await db().status.createMany({
      data: Array.from({ length: 21 }, (_, i) => ({ id: newId(), uri: `http://localhost:4000/objects/bulk-${i}`, accountId: extra.id, content: `bulk ${i}`, context: `bulk-${i}` })),
    });
    expect(await ids(await call("ada", "GET", "/statuses"))).toHaveLength(20);
    expect(await ids(await call("ada", "GET", "/statuses?page_size=30"))).toHaveLength(24);
    await db().status.deleteMany({ where: { accountId: extra.id } });
  });

  test("GET /statuses/:id shows any visibility; unknown answers 404 \"Not Found\"", async () => {
    const res = await call("ada", "GET", `/statuses/${s.direct}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: s.direct, visibility: "direct", account: { id: id.tom, nickname: "tom" } });
    for (const prefix of PREFIXES) {
      const missing = await call("ada", "GET", "/statuses/nope", undefined, prefix);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toBe("Not Found");
    }
  });

  test("PUT /statuses/:id sets sensitive and visibility; each change logged with the family's message", async () => {
    const target = await post("tom", { status: "to moderate" });
    const put = (body: unknown) => call("ada", "PUT", `/statuses/${target}`, body);

    let res = await put({ sensitive: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: target, sensitive: true, visibility: "public" });
    expect(await lastLog()).toBe(`@ada updated status #${target}, set sensitive: 'true'`);

    res = await put({ visibility: "private" });
    expect(await res.json()).toMatchObject({ id: target, sensitive: true, visibility: "private" });
    expect(await lastLog()).toBe(`@ada updated status #${target}, set visibility: 'private'`);

    res = await call("ada", "PUT", `/statuses/${target}`, { sensitive: "false", visibility: "unlisted" }, PREFIXES[1]);
    expect(await res.json()).toMatchObject({ sensitive: false, visibility: "unlisted" });
    expect(await lastLog()).toBe(`@ada updated status #${target}, set sensitive: 'false', visibility: 'unlisted'`);
    const row = await db().status.findUniqueOrThrow({ where: { id: target } });
    expect(row).toMatchObject({ sensitive: false, visibility: "unlisted" });
    const entry = await db().moderationLogEntry.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(entry.data).toMatchObject({ action: "status_update", subject: { type: "status", id: target }, sensitive: false, visibility: "unlisted" });
  });

  test("PUT /statuses/:id: 400 \"Unsupported visibility\", 404 \"Not found\"", async () => {
    const target = await post("tom", { status: "stays public" });
    const before = await db().moderationLogEntry.count();
    for (const visibility of ["direct", "test"]) {
      const res = await call("ada", "PUT", `/statuses/${target}`, { visibility });
      expect(res.status).toBe(400);
      expect(await res.json()).toBe("Unsupported visibility");
    }
    expect((await db().status.findUniqueOrThrow({ where: { id: target } })).visibility).toBe("public");
    const missing = await call("ada", "PUT", "/statuses/nope", { sensitive: true });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toBe("Not found");
    expect(await db().moderationLogEntry.count()).toBe(before);
  });

  test("DELETE /statuses/:id: 200 {}, the status gone with its notifications and counters, logged; 404 \"Not found\"", async () => {
    const target = await post("tom", { status: "@pat you are mentioned", visibility: "unlisted" });
    expect(await db().notification.count({ where: { statusId: target } })).toBe(1);
    const counter = async () => Number((await db().statusCounter.findUnique({ where: { instance_visibility: { instance: "", visibility: "unlisted" } } }))?.count ?? 0);
    const before = await counter();
    const res = await call("ada", "DELETE", `/statuses/${target}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await db().status.count({ where: { id: target } })).toBe(0);
    expect(await db().notification.count({ where: { statusId: target } })).toBe(0);
    expect(await counter()).toBe(before - 1);
    expect(await lastLog()).toBe(`@ada deleted status #${target}`);

    for (const prefix of PREFIXES) {
      const again = await call("ada", "DELETE", `/statuses/${target}`, undefined, prefix);
      expect(again.status).toBe(404);
      expect(await again.json()).toBe("Not found");
    }
  });

  test("GET /instances/:instance/statuses: {total, activities} of that host; godmode; this server's host means local", async () => {
    const res = await call("ada", "GET", "/instances/remote.example/statuses");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ total: 1, activities: [expect.objectContaining({ id: s.remote, content: "<p>remote post</p>", account: expect.objectContaining({ id: remoteId, nickname: "bob@remote.example", local: false }) })] });
    const god = await (await call("ada", "GET", "/instances/remote.example/statuses?godmode=true", undefined, PREFIXES[1])).json();
    expect(god.total).toBe(2);
    expect(god.activities.map((a: any) => a.id)).toEqual([s.remotePrivate, s.remote]);
    expect(await (await call("ada", "GET", "/instances/unknown.example/statuses")).json()).toEqual({ total: 0, activities: [] });

    const local = await (await call("ada", "GET", "/instances/localhost:4000/statuses?with_reblogs=true&page_size=2")).json();
    const expected = await db().status.count({ where: { local: true, visibility: { in: ["public", "unlisted"] } } });
    expect(local.total).toBe(expected);
    expect(local.activities).toHaveLength(2);
    expect(local.activities.every((a: any) => a.ext.local)).toBe(true);
  });

  test("privileges: moderators change and delete but do not read listings; users and anonymous refused", async () => {
    const target = await post("tom", { status: "moderator target" });
    const put = await call("mo", "PUT", `/statuses/${target}`, { sensitive: true });
    expect(put.status).toBe(200);
    expect(await lastLog()).toBe(`@mo updated status #${target}, set sensitive: 'true'`);
    const del = await call("mo", "DELETE", `/statuses/${target}`);
    expect(del.status).toBe(200);
    expect(await lastLog()).toBe(`@mo deleted status #${target}`);

    for (const path of ["/statuses", `/statuses/${s.public}`, "/instances/remote.example/statuses"]) {
      const res = await call("mo", "GET", path);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({ error: "User isn't privileged." });
    }
    for (const [method, path, body] of [
      ["GET", "/statuses", undefined],
      ["GET", `/statuses/${s.public}`, undefined],
      ["PUT", `/statuses/${s.public}`, { sensitive: true }],
      ["DELETE", `/statuses/${s.public}`, undefined],
      ["GET", "/instances/remote.example/statuses", undefined],
    ] as const) {
      const user = await call("pat", method, path, body);
      expect(user.status, `${method} ${path}`).toBe(403);
      expect(await user.json()).toEqual({ error: "User is not a staff member." });
      const anon = await call(null, method, path, body);
      expect(anon.status).toBe(403);
      expect(await anon.json()).toEqual({ error: "Invalid credentials." });
    }
    expect(await db().status.findUniqueOrThrow({ where: { id: s.public } })).toMatchObject({ sensitive: false });
  });

  test("the admin token reads and deletes", async () => {
    expect((await server.fetch(`${PREFIXES[0]}/statuses?admin_token=${ADMIN_TOKEN}`)).status).toBe(200);
    const target = await post("tom", { status: "token target" });
    const res = await server.fetch(`${PREFIXES[1]}/statuses/${target}`, { method: "DELETE", headers: { "x-admin-token": ADMIN_TOKEN } });
    expect(res.status).toBe(200);
    expect(await lastLog()).toBe(`@admin_token deleted status #${target}`);
  });
});
