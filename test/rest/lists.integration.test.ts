// Lists: CRUD, members (only followed accounts), the lists containing an account, posting to a list
// and the list timeline, on both databases.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, expectLink, user, type User } from "./relationships-helpers.ts";

const ids = (body: { id: string }[]) => body.map((s) => s.id);

describe.each(suiteKinds(import.meta.url))("lists on %s", (kind) => {
  let server: TestServer;
  let ana: User;
  let ben: User;
  let cai: User;
  let dot: User;

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cai, dot] = await Promise.all(["ana", "ben", "cai", "dot"].map((n) => user(server, n)));
    for (const target of [ben, cai]) expect((await call(server, ana, "POST", `/api/v1/accounts/${target.id}/follow`)).status).toBe(200);
  });
  afterAll(() => server?.close());

  test("create, show, update, index and delete; other accounts' lists are not found", async () => {
    const created = await call(server, ana, "POST", "/api/v1/lists", { title: "Friends" });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), title: "Friends", replies_policy: "list", exclusive: false });
    const id = created.body.id;
    const row = await server.services.db.list.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ accountId: ana.id, title: "Friends" });

    expect((await call(server, ana, "POST", "/api/v1/lists", { title: "  " })).status).toBe(400);
    expect((await call(server, ana, "POST", "/api/v1/lists", { title: "x", replies_policy: "everyone" })).status).toBe(400);

    const updated = await call(server, ana, "PUT", `/api/v1/lists/${id}`, { title: "Pals", replies_policy: "followed", exclusive: "true" });
    expect(updated.body).toEqual({ id, title: "Pals", replies_policy: "followed", exclusive: true });
    expect((await call(server, ana, "GET", `/api/v1/lists/${id}`)).body.title).toBe("Pals");
    expect((await call(server, ana, "GET", "/api/v1/lists")).body.map((l: { id: string }) => l.id)).toContain(id);

    // ben sees none of it
    expect(await call(server, ben, "GET", `/api/v1/lists/${id}`)).toMatchObject({ status: 404, body: { error: "List not found" } });
    expect((await call(server, ben, "PUT", `/api/v1/lists/${id}`, { title: "mine" })).status).toBe(404);
    expect((await call(server, ben, "DELETE", `/api/v1/lists/${id}`)).status).toBe(404);
    expect((await call(server, ben, "GET", "/api/v1/lists")).body).toEqual([]);
    expect((await call(server, null, "GET", "/api/v1/lists")).status).toBe(403);

    expect(await call(server, ana, "DELETE", `/api/v1/lists/${id}`)).toMatchObject({ status: 200, body: {} });
    expect(await server.services.db.list.findUnique({ where: { id } })).toBeNull();
  });

  test("members: only followed accounts, idempotent adds, removal, paging and the lists of an account", async () => {
    const list = (await call(server, ana, "POST", "/api/v1/lists", { title: "Members" })).body;
    const other = (await call(server, ana, "POST", "/api/v1/lists", { title: "Other" })).body;

    const refused = await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ben.id, dot.id] });
    expect(refused.status).toBe(422);
    expect(await server.services.db.listMember.count({ where: { listId: list.id } })).toBe(0);
    expect((await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": ["nope"] })).status).toBe(404);

    expect(await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ben.id, cai.id] })).toMatchObject({ status: 200, body: {} });
    expect((await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ben.id] })).status).toBe(200);
    await call(server, ana, "POST", `/api/v1/lists/${other.id}/accounts`, { "account_ids[]": [ben.id] });
    expect(await server.services.db.listMember.count({ where: { listId: list.id } })).toBe(2);
    // ben may not touch ana's list
    expect((await call(server, ben, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ana.id] })).status).toBe(404);

    const members = await call(server, ana, "GET", `/api/v1/lists/${list.id}/accounts`);
    expect(members.body.map((a: { acct: string }) => a.acct).sort()).toEqual(["ben", "cai"]);
    const one = await call(server, ana, "GET", `/api/v1/lists/${list.id}/accounts?limit=1`);
    expect(one.body).toHaveLength(1);
    expectLink(one.headers, { max_id: one.body[0].id, min_id: one.body[0].id });
    const next = await call(server, ana, "GET", `/api/v1/lists/${list.id}/accounts?limit=1&max_id=${one.body[0].id}`);
    expect(next.body).toHaveLength(1);
    expect(next.body[0].id).not.toBe(one.body[0].id);
    expect((await call(server, ana, "GET", `/api/v1/lists/${list.id}/accounts?limit=0`)).body).toHaveLength(2);

    const benLists = await call(server, ana, "GET", `/api/v1/accounts/${ben.id}/lists`);
    expect(benLists.body.map((l: { title: string }) => l.title).sort()).toEqual(["Members", "Other"]);
    expect((await call(server, ana, "GET", `/api/v1/accounts/cai/lists`)).body.map((l: { title: string }) => l.title)).toEqual(["Members"]);
    expect((await call(server, ben, "GET", `/api/v1/accounts/${ben.id}/lists`)).body).toEqual([]);
    expect((await call(server, ana, "GET", `/api/v1/accounts/nobody/lists`)).status).toBe(404);

    expect((await call(server, ana, "DELETE", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [cai.id] })).status).toBe(200);
    expect((await server.services.db.listMember.findMany({ where: { listId: list.id } })).map((m) => m.accountId)).toEqual([ben.id]);
  });

  test("posting to a list addresses its members; the list timeline shows the members' visible statuses", async () => {
    const list = (await call(server, ana, "POST", "/api/v1/lists", { title: "Timeline" })).body;
    await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ben.id] });

    const posted = await call(server, ana, "POST", "/api/v1/statuses", { status: "for the list", visibility: `list:${list.id}` });
    expect(posted.status).toBe(200);
    expect(posted.body.visibility).toBe("list");
    const row = await server.services.db.status.findUniqueOrThrow({ where: { id: posted.body.id } });
    expect(row).toMatchObject({ visibility: "list", listId: list.id, recipientIds: [ben.id] });
    expect((await call(server, ben, "GET", `/api/v1/statuses/${row.id}`)).status).toBe(200);
    expect((await call(server, cai, "GET", `/api/v1/statuses/${row.id}`)).status).toBe(404);

    const benList = (await call(server, ben, "POST", "/api/v1/lists", { title: "Ben's" })).body;
    expect(await call(server, ana, "POST", "/api/v1/statuses", { status: "x", visibility: `list:${benList.id}` })).toMatchObject({ status: 422, body: { error: "List not found" } });
    expect((await call(server, ana, "POST", "/api/v1/statuses", { status: "x", visibility: "list:missing" })).status).toBe(422);

    const b1 = (await call(server, ben, "POST", "/api/v1/statuses", { status: "ben one" })).body;
    const b2 = (await call(server, ben, "POST", "/api/v1/statuses", { status: "ben two", visibility: "private" })).body;
    const b3 = (await call(server, ben, "POST", "/api/v1/statuses", { status: "ben secret", visibility: "direct" })).body;
    await call(server, cai, "POST", "/api/v1/statuses", { status: "cai not listed" });

    const tl = await call(server, ana, "GET", `/api/v1/timelines/list/${list.id}`);
    expect(tl.status).toBe(200);
    const ids = tl.body.map((s: { id: string }) => s.id);
    expect(ids).toEqual([b2.id, b1.id]);
    expect(ids).not.toContain(b3.id);
    const page = await call(server, ana, "GET", `/api/v1/timelines/list/${list.id}?limit=1`);
    expect(page.body.map((s: { id: string }) => s.id)).toEqual([b2.id]);
    expectLink(page.headers, { max_id: b2.id, min_id: b2.id });
    expect((await call(server, ana, "GET", `/api/v1/timelines/list/${list.id}?max_id=${b2.id}`)).body.map((s: { id: string }) => s.id)).toEqual([b1.id]);
    expect((await call(server, ben, "GET", `/api/v1/timelines/list/${list.id}`)).status).toBe(404);
  });

  test("the list timeline applies the replies policy", async () => {
    const list = (await call(server, ana, "POST", "/api/v1/lists", { title: "Replies" })).body;
    await call(server, ana, "POST", `/api/v1/lists/${list.id}/accounts`, { "account_ids[]": [ben.id] });
    const post = async (who: User, status: string, inReplyTo?: string) =>
      (await call(server, who, "POST", "/api/v1/statuses", { status, ...(inReplyTo ? { in_reply_to_id: inReplyTo } : {}) })).body.id as string;
    const [toAna, toCai, toDot, own] = await Promise.all([post(ana, "ana here"), post(cai, "cai here"), post(dot, "dot here"), post(ben, "ben root")]);
    const r = {
      owner: await post(ben, "to ana", toAna),
      followed: await post(ben, "to cai", toCai),
      stranger: await post(ben, "to dot", toDot),
      self: await post(ben, "to myself", own),
    };
    const shown = async (policy: string) => {
      await call(server, ana, "PUT", `/api/v1/lists/${list.id}`, { replies_policy: policy });
      const got = new Set(ids((await call(server, ana, "GET", `/api/v1/timelines/list/${list.id}?limit=40`)).body));
      expect(got.has(own)).toBe(true);
      return Object.entries(r).filter(([, id]) => got.has(id)).map(([k]) => k).sort();
    };
    expect(await shown("list")).toEqual(["owner", "self"]);
    expect(await shown("followed")).toEqual(["followed", "owner", "self"]);
    expect(await shown("none")).toEqual(["owner", "self"]);
  });
});
