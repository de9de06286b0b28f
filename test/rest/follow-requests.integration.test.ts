// Follow requests to a locked account: pending → listed → authorized or rejected, with events, paging
// and the family's followback permission.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, expectLink, followEvents, rel, user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("follow requests on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let lena: User, amy: User, ben: User, cal: User;

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    [lena, amy, ben, cal] = [await user(server, "lena"), await user(server, "amy"), await user(server, "ben"), await user(server, "cal")];
    await db.account.update({ where: { id: lena.id }, data: { locked: true } });
  });
  afterAll(() => server?.close());

  const state = async (follower: User, following: User) =>
    (await db.follow.findUnique({ where: { followerId_followingId: { followerId: follower.id, followingId: following.id } } }))?.state ?? null;

  test("following a locked account leaves a pending request (follow_pending event); authorize accepts it (follow_accept)", async () => {
    const bus = await followEvents(server);
    const res = await call(server, amy, "POST", `/api/v1/accounts/${lena.id}/follow`);
    expect(res).toMatchObject({ status: 200, body: rel(lena.id, { requested: true }) });
    expect(await state(amy, lena)).toBe("pending");
    expect(await bus.take(1)).toEqual([
      { state: "follow_pending", follower: { id: amy.id, follower_count: 0, following_count: 0 }, following: { id: lena.id, follower_count: 0, following_count: 0 } },
    ]);

    const list = await call(server, lena, "GET", "/api/v1/follow_requests");
    expect(list.status).toBe(200);
    expect(list.body.map((a: { id: string }) => a.id)).toEqual([amy.id]);
    expect(list.body[0]).toMatchObject({ id: amy.id, username: "amy", acct: "amy" });
    expect((await call(server, lena, "GET", `/api/v1/accounts/relationships?id=${amy.id}`)).body).toEqual([rel(amy.id, { requested_by: true })]);

    const ok = await call(server, lena, "POST", `/api/v1/follow_requests/${amy.id}/authorize`);
    expect(ok).toMatchObject({ status: 200, body: rel(amy.id, { followed_by: true }) });
    expect(await state(amy, lena)).toBe("accept");
    expect(await bus.take(1)).toEqual([
      { state: "follow_accept", follower: { id: amy.id, follower_count: 0, following_count: 1 }, following: { id: lena.id, follower_count: 1, following_count: 0 } },
    ]);
    expect((await call(server, amy, "GET", `/api/v1/accounts/relationships?id=${lena.id}`)).body).toEqual([rel(lena.id, { following: true })]);
    expect((await call(server, lena, "GET", "/api/v1/follow_requests")).body).toEqual([]);

    // authorizing an accepted follower again changes nothing
    expect((await call(server, lena, "POST", `/api/v1/follow_requests/${amy.id}/authorize`)).body).toEqual(rel(amy.id, { followed_by: true }));
    expect(await bus.untilSentinel()).toEqual([]);
    await bus.stop();
  });

  test("reject deletes the request (follow_reject event); the follower may ask again", async () => {
    const bus = await followEvents(server);
    await call(server, ben, "POST", `/api/v1/accounts/${lena.id}/follow`);
    await bus.take(1);
    const res = await call(server, lena, "POST", `/api/v1/follow_requests/${ben.id}/reject`);
    expect(res).toMatchObject({ status: 200, body: rel(ben.id) });
    expect(await state(ben, lena)).toBeNull();
    expect(await bus.take(1)).toEqual([expect.objectContaining({ state: "follow_reject", follower: expect.objectContaining({ id: ben.id }) })]);
    expect((await call(server, ben, "GET", `/api/v1/accounts/relationships?id=${lena.id}`)).body).toEqual([rel(lena.id)]);

    expect((await call(server, ben, "POST", `/api/v1/accounts/${lena.id}/follow`)).body).toEqual(rel(lena.id, { requested: true }));
    expect(await state(ben, lena)).toBe("pending");
    await bus.stop();
  });

  test("no request from that account: 404 Record not found, for authorize and reject", async () => {
    for (const answer of ["authorize", "reject"]) {
      expect(await call(server, lena, "POST", `/api/v1/follow_requests/${cal.id}/${answer}`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
      expect(await call(server, lena, "POST", `/api/v1/follow_requests/nobody/${answer}`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    }
    // an accepted follow is no request to reject
    expect((await call(server, lena, "POST", `/api/v1/follow_requests/${amy.id}/reject`)).status).toBe(404);
  });

  test("cancelling: unfollow withdraws the pending request", async () => {
    await call(server, cal, "POST", `/api/v1/accounts/${lena.id}/follow`);
    expect((await call(server, cal, "POST", `/api/v1/accounts/${lena.id}/unfollow`)).body).toEqual(rel(lena.id));
    expect(await state(cal, lena)).toBeNull();
  });

  test("paging by request, newest first, with Link headers; deactivated requesters are hidden", async () => {
    const requesters: User[] = [];
    for (const n of ["r1", "r2", "r3"]) {
      const u = await user(server, n);
      await call(server, u, "POST", `/api/v1/accounts/${lena.id}/follow`);
      requesters.push(u);
    }
    const rows = await db.follow.findMany({ where: { followingId: lena.id, state: "pending" }, orderBy: { id: "desc" } });
    // ben's request (from the reject test) is the oldest
    expect(rows.map((r) => r.followerId)).toEqual([...requesters.map((u) => u.id).reverse(), ben.id]);

    const first = await call(server, lena, "GET", "/api/v1/follow_requests?limit=2");
    expect(first.body.map((a: { id: string }) => a.id)).toEqual([requesters[2].id, requesters[1].id]);
    expectLink(first.headers, { max_id: rows[1].id, min_id: rows[0].id });
    const next = await call(server, lena, "GET", `/api/v1/follow_requests?limit=2&max_id=${rows[1].id}`);
    expect(next.body.map((a: { id: string }) => a.id)).toEqual([requesters[0].id, ben.id]);
    const prev = await call(server, lena, "GET", `/api/v1/follow_requests?limit=1&min_id=${rows[1].id}`);
    expect(prev.body.map((a: { id: string }) => a.id)).toEqual([requesters[2].id]);

    await db.account.update({ where: { id: requesters[0].id }, data: { deactivated: true } });
    const all = await call(server, lena, "GET", "/api/v1/follow_requests");
    expect(all.body.map((a: { id: string }) => a.id)).toEqual([requesters[2].id, requesters[1].id, ben.id]);
  });

  test("permit_followback: a locked account that follows the requester accepts at once", async () => {
    const kim = await user(server, "kim");
    await db.account.update({ where: { id: kim.id }, data: { locked: true, permitFollowback: true } });
    await call(server, kim, "POST", `/api/v1/accounts/${cal.id}/follow`);
    expect((await call(server, cal, "POST", `/api/v1/accounts/${kim.id}/follow`)).body).toEqual(rel(kim.id, { following: true, followed_by: true }));
    expect((await call(server, amy, "POST", `/api/v1/accounts/${kim.id}/follow`)).body).toEqual(rel(kim.id, { requested: true }));
  });

  test("scopes: listing needs follow or read:follows; answering follow or write:follows", async () => {
    const reader = await user(server, "lena2", "read:accounts");
    expect((await call(server, reader, "GET", "/api/v1/follow_requests")).status).toBe(403);
    expect((await call(server, reader, "POST", `/api/v1/follow_requests/${amy.id}/authorize`)).status).toBe(403);
    expect((await call(server, null, "GET", "/api/v1/follow_requests")).status).toBe(403);
  });
});
