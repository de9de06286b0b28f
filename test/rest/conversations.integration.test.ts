import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("conversations on %s", (kind) => {
  let server: TestServer;
  let ana: User, ben: User, cal: User, dan: User;
  const post = async (who: User, form: Record<string, string | string[]>) => {
    const r = await call(server, who, "POST", "/api/v1/statuses", form);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const conversations = async (who: User, query = "") => (await call(server, who, "GET", `/api/v1/conversations${query}`)).body as any[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cal, dan] = await Promise.all(["ana", "ben", "cal", "dan"].map((n) => user(server, n)));
  });
  afterAll(() => server?.close());

  test("a direct post starts a conversation; a reply joins it; unread and read", async () => {
    const first = await post(ana, { status: "@ben @cal secret plan", visibility: "direct" });
    const id = first.ext.direct_conversation_id;
    expect(id).toBeTruthy();

    const [anaC] = await conversations(ana);
    expect(anaC).toMatchObject({ id, unread: false, last_status: { id: first.id } });
    expect(anaC.accounts.map((a: any) => a.acct).sort()).toEqual(["ben", "cal"]);
    expect(anaC.ext.recipients.map((a: any) => a.acct).sort()).toEqual(["ana", "ben", "cal"]);
    const [benC] = await conversations(ben);
    expect(benC).toMatchObject({ id, unread: true });
    expect(benC.accounts.map((a: any) => a.acct).sort()).toEqual(["ana", "cal"]);
    expect(await conversations(dan)).toEqual([]);

    const reply = await post(ben, { status: "@ana sounds good", visibility: "direct", in_reply_to_id: first.id });
    expect(reply.ext.direct_conversation_id).toBe(id);
    const [anaAfter] = await conversations(ana);
    expect(anaAfter).toMatchObject({ id, unread: true, last_status: { id: reply.id } });
    // cal was not addressed by the reply: cal's last visible status is still the first one
    const [calC] = await conversations(cal);
    expect(calC).toMatchObject({ id, unread: true, last_status: { id: first.id } });
    // recipients never change by themselves
    expect(anaAfter.ext.recipients.map((a: any) => a.acct).sort()).toEqual(["ana", "ben", "cal"]);

    const read = await call(server, cal, "POST", `/api/v1/conversations/${id}/read`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, unread: false });
    expect((await conversations(cal))[0].unread).toBe(false);

    const own = await call(server, ana, "GET", `/api/v1/ext/conversations/${id}`);
    expect(own.body).toMatchObject({ id, unread: true });
    const statuses = await call(server, ana, "GET", `/api/v1/ext/conversations/${id}/statuses`);
    expect(statuses.body.map((s: any) => s.id)).toEqual([reply.id, first.id]);
    const calStatuses = await call(server, cal, "GET", `/api/v1/ext/conversations/${id}/statuses`);
    expect(calStatuses.body.map((s: any) => s.id)).toEqual([first.id]);
    expect((await call(server, dan, "GET", `/api/v1/ext/conversations/${id}`)).status).toBe(404);
    expect((await call(server, dan, "GET", `/api/v1/ext/conversations/${id}/statuses`)).status).toBe(404);

    // public posts make no conversation
    const pub = await post(ana, { status: "@ben hello world" });
    expect(pub.ext.direct_conversation_id).toBeNull();
  });

  test("paging with Link headers, the recipients filter, read-all", async () => {
    const a = await post(dan, { status: "@ana one", visibility: "direct" });
    const b = await post(dan, { status: "@ana @ben two", visibility: "direct" });
    const page = await call(server, ana, "GET", "/api/v1/conversations?limit=1");
    expect(page.body.map((c: any) => c.id)).toEqual([b.ext.direct_conversation_id]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")![1];
    const page2 = await call(server, ana, "GET", next.replace("http://localhost:4000", ""));
    expect(page2.body.map((c: any) => c.id)).toEqual([a.ext.direct_conversation_id]);
    const prev = /<([^>]+)>; rel="prev"/.exec(page2.headers.get("link") ?? "")![1];
    const back = await call(server, ana, "GET", prev.replace("http://localhost:4000", ""));
    expect(back.body.map((c: any) => c.id)).toEqual([b.ext.direct_conversation_id]);
    expect(page.headers.get("link")).toContain("max_id=");

    const withBen = await conversations(ana, `?recipients[]=${ben.id}&recipients[]=${dan.id}`);
    expect(withBen.map((c) => c.id)).toEqual([b.ext.direct_conversation_id]);
    const withDan = await conversations(ana, `?recipients[]=${dan.id}`);
    expect(withDan.map((c) => c.id).sort()).toEqual([a.ext.direct_conversation_id, b.ext.direct_conversation_id].sort());

    const readAll = await call(server, ana, "POST", "/api/v1/ext/conversations/read");
    expect(readAll.status).toBe(200);
    expect(readAll.body.length).toBeGreaterThanOrEqual(2);
    expect(readAll.body.every((c: any) => c.unread === false)).toBe(true);
    expect((await conversations(ana)).some((c) => c.unread)).toBe(false);
  });

  test("PATCH recipients keeps the owner; in_reply_to_conversation_id addresses them", async () => {
    const start = await post(ana, { status: "@ben @cal three of us", visibility: "direct" });
    const id = start.ext.direct_conversation_id;
    const patched = await call(server, ana, "PATCH", `/api/v1/ext/conversations/${id}`, { "recipients[]": [ben.id] });
    expect(patched.status).toBe(200);
    expect(patched.body.ext.recipients.map((a: any) => a.acct).sort()).toEqual(["ana", "ben"]);
    expect(patched.body.accounts.map((a: any) => a.acct)).toEqual(["ben"]);
    // the others' recipients stay as they were
    const benView = await call(server, ben, "GET", `/api/v1/ext/conversations/${id}`);
    expect(benView.body.ext.recipients.map((a: any) => a.acct).sort()).toEqual(["ana", "ben", "cal"]);

    const reply = await post(ana, { status: "just you, ben", visibility: "public", in_reply_to_conversation_id: id });
    expect(reply).toMatchObject({ visibility: "direct", in_reply_to_id: start.id });
    expect(reply.ext.direct_conversation_id).toBe(id);
    expect(reply.mentions.map((m: any) => m.acct)).toEqual(["ben"]);
    expect((await call(server, cal, "GET", `/api/v1/statuses/${reply.id}`)).status).toBe(404);
    expect((await call(server, ben, "GET", `/api/v1/statuses/${reply.id}`)).status).toBe(200);

    const unknown = await call(server, dan, "POST", "/api/v1/statuses", { status: "hi", in_reply_to_conversation_id: id });
    expect(unknown.status).toBe(422);
  });

  test("DELETE removes only the viewer's participation; a new message brings it back", async () => {
    const start = await post(cal, { status: "@dan ping", visibility: "direct" });
    const id = start.ext.direct_conversation_id;
    const del = await call(server, dan, "DELETE", `/api/v1/conversations/${id}`);
    expect(del).toMatchObject({ status: 200, body: {} });
    expect((await conversations(dan)).map((c) => c.id)).not.toContain(id);
    expect((await conversations(cal)).map((c) => c.id)).toContain(id);
    expect((await call(server, dan, "DELETE", `/api/v1/conversations/${id}`)).status).toBe(404);

    await post(cal, { status: "@dan ping again", visibility: "direct", in_reply_to_id: start.id });
    const back = (await conversations(dan)).find((c) => c.id === id);
    expect(back).toMatchObject({ unread: true });
  });

  test("a participant who blocks the author is not bumped", async () => {
    const [eve, fay] = await Promise.all([user(server, "eve"), user(server, "fay")]);
    const start = await post(eve, { status: "@fay hi", visibility: "direct" });
    const id = start.ext.direct_conversation_id;
    await call(server, fay, "POST", `/api/v1/conversations/${id}/read`);
    expect((await call(server, fay, "POST", `/api/v1/accounts/${eve.id}/block`)).status).toBe(200);
    await post(eve, { status: "@fay are you there?", visibility: "direct", in_reply_to_id: start.id });
    const [c] = await conversations(fay);
    // the blocked author's statuses are hidden from fay altogether
    expect(c).toMatchObject({ id, unread: false, last_status: null });
  });

  test("listing 1 or 8 conversations costs the same number of queries", async () => {
    const solo = await user(server, "solo");
    await post(solo, { status: `@ana first`, visibility: "direct" });
    await conversations(solo); // the first post wrote the account (last_status_at), so this request reads the token again; the counted ones come from the token cache
    const one = await server.countQueries(() => conversations(solo));
    expect(one.result).toHaveLength(1);
    for (const n of [1, 2, 3, 4, 5, 6, 7]) await post(solo, { status: `@${[ana, ben, cal, dan][n % 4].nickname} number ${n}`, visibility: "direct" });
    const many = await server.countQueries(() => conversations(solo));
    expect(many.result).toHaveLength(8);
    expect(many.queries).toBe(one.queries);
  });

  test("scopes: reading needs read:statuses, writing write:conversations", async () => {
    const reader = await user(server, "reader", "read");
    expect((await call(server, reader, "GET", "/api/v1/conversations")).status).toBe(200);
    expect((await call(server, reader, "POST", "/api/v1/ext/conversations/read")).status).toBe(403);
    // the family answers a missing token on authenticated routes with 403
    expect((await call(server, null, "GET", "/api/v1/conversations")).status).toBe(403);
  });
});
