// Blocks (and what they end), mutes (notifications, expiry by read and by job), the blocks and mutes
// lists (paging, Link, with_relationships, a constant number of queries) and domain blocks.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXPIRE_MUTE_JOB } from "../../src/domain/relationships/relationships.jobs.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, expectLink, followEvents, rel, remoteAccount, user, type User } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

describe.each(suiteKinds(import.meta.url))("blocks and mutes on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let carol: User, dan: User, eve: User;

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    [carol, dan, eve] = [await user(server, "carol"), await user(server, "dan"), await user(server, "eve")];
  });
  afterAll(() => server?.close());

  const relations = (a: User, b: User) => db.userRelationship.findMany({ where: { OR: [{ sourceId: a.id, targetId: b.id }, { sourceId: b.id, targetId: a.id }] } });

  test("block ends follows and requests both ways and subscriptions; the blocked side sees blocked_by", async () => {
    await db.account.update({ where: { id: carol.id }, data: { locked: true } });
    await call(server, carol, "POST", `/api/v1/accounts/${dan.id}/follow`, { notify: "true" });
    await call(server, dan, "POST", `/api/v1/accounts/${carol.id}/follow`); // a request: carol is locked
    await call(server, dan, "POST", `/api/v1/${server.services.settings.namespace}/accounts/${carol.id}/subscribe`);
    expect(await db.follow.findMany({ where: { OR: [{ followerId: carol.id }, { followerId: dan.id }] }, orderBy: { id: "asc" } })).toEqual([
      expect.objectContaining({ followerId: carol.id, followingId: dan.id, state: "accept" }),
      expect.objectContaining({ followerId: dan.id, followingId: carol.id, state: "pending" }),
    ]);

    const bus = await followEvents(server);
    const res = await call(server, carol, "POST", `/api/v1/accounts/${dan.id}/block`);
    expect(res).toMatchObject({ status: 200, body: rel(dan.id, { blocking: true }) });
    expect(await db.follow.count({ where: { OR: [{ followerId: carol.id, followingId: dan.id }, { followerId: dan.id, followingId: carol.id }] } })).toBe(0);
    expect((await relations(carol, dan)).map((r) => [r.sourceId, r.type])).toEqual([[carol.id, "block"]]);
    // dan's request ended as a rejection
    expect(await bus.take(1)).toEqual([expect.objectContaining({ state: "follow_reject", follower: expect.objectContaining({ id: dan.id }) })]);
    await bus.stop();
    expect((await call(server, dan, "GET", `/api/v1/accounts/relationships?id=${carol.id}`)).body).toEqual([rel(carol.id, { blocked_by: true })]);

    // blocking again is harmless; unblock removes only the block
    expect((await call(server, carol, "POST", `/api/v1/accounts/${dan.id}/block`)).body).toEqual(rel(dan.id, { blocking: true }));
    expect((await call(server, carol, "POST", `/api/v1/accounts/${dan.id}/unblock`)).body).toEqual(rel(dan.id));
    expect(await relations(carol, dan)).toEqual([]);
    expect(await call(server, carol, "POST", `/api/v1/accounts/${carol.id}/block`)).toMatchObject({ status: 400, body: { error: "Can not block yourself" } });
    await db.account.update({ where: { id: carol.id }, data: { locked: false } });
  });

  test("mute: notifications by default, notifications=false keeps them; unmute removes both rows", async () => {
    let res = await call(server, carol, "POST", `/api/v1/accounts/${eve.id}/mute`);
    expect(res).toMatchObject({ status: 200, body: rel(eve.id, { muting: true, muting_notifications: true }) });
    res = await call(server, carol, "POST", `/api/v1/accounts/${eve.id}/mute`, { notifications: "false" });
    expect(res.body).toEqual(rel(eve.id, { muting: true }));
    expect((await relations(carol, eve)).map((r) => [r.type, r.expiresAt])).toEqual([["mute", null]]);
    res = await call(server, carol, "POST", `/api/v1/accounts/${eve.id}/unmute`);
    expect(res.body).toEqual(rel(eve.id));
    expect(await relations(carol, eve)).toEqual([]);
    expect(await call(server, carol, "POST", `/api/v1/accounts/${carol.id}/mute`)).toMatchObject({ status: 400, body: { error: "Can not mute yourself" } });
  });

  test("a mute with expires_in ends by itself: reads ignore it once expired and the job deletes the rows", async () => {
    const started = Date.now();
    const res = await call(server, dan, "POST", `/api/v1/accounts/${eve.id}/mute`, { expires_in: "1" });
    expect(res.body).toEqual(rel(eve.id, { muting: true, muting_notifications: true }));
    const rows = await relations(dan, eve);
    expect(rows.map((r) => r.type).sort()).toEqual(["mute", "notification_mute"]);
    for (const r of rows) expect(Math.abs(r.expiresAt!.getTime() - (started + 1000))).toBeLessThan(1500);
    const jobs = await db.job.findMany({ where: { name: EXPIRE_MUTE_JOB } });
    expect(jobs.map((j) => j.payload)).toContainEqual({ sourceId: dan.id, targetId: eve.id });

    const listed = await call(server, dan, "GET", "/api/v1/mutes");
    expect(listed.body).toEqual([expect.objectContaining({ id: eve.id, mute_expires_at: rows[0].expiresAt!.toISOString() })]);

    // the relationship stops saying "muting" at the expiry, whether or not the job ran yet
    await waitFor(async () => !(await call(server, dan, "GET", `/api/v1/accounts/relationships?id=${eve.id}`)).body[0].muting, "the mute to end at its expiry");
    expect((await call(server, dan, "GET", "/api/v1/mutes")).body).toEqual([]);
    // and the job deletes the rows
    await waitFor(async () => (await relations(dan, eve)).length === 0, "the expiry job to delete the rows");
  });

  test("the reference API's duration works the same; re-muting without it makes the mute permanent", async () => {
    await call(server, dan, "POST", `/api/v1/accounts/${carol.id}/mute`, { duration: "3600" });
    expect((await relations(dan, carol)).every((r) => r.expiresAt !== null)).toBe(true);
    await call(server, dan, "POST", `/api/v1/accounts/${carol.id}/mute`);
    expect((await relations(dan, carol)).map((r) => r.expiresAt)).toEqual([null, null]);
    await call(server, dan, "POST", `/api/v1/accounts/${carol.id}/unmute`);
  });

  test("blocks and mutes lists: newest first, paged by relationship with Link, with_relationships, mute_expires_at", async () => {
    const others: User[] = [];
    for (const n of ["m1", "m2", "m3"]) others.push(await user(server, n));
    for (const o of others) {
      await call(server, eve, "POST", `/api/v1/accounts/${o.id}/block`);
      await call(server, eve, "POST", `/api/v1/accounts/${o.id}/mute`, o === others[0] ? { expires_in: "3600" } : {});
    }
    for (const [path, type] of [
      ["/api/v1/blocks", "block"],
      ["/api/v1/mutes", "mute"],
    ] as const) {
      const rows = await db.userRelationship.findMany({ where: { sourceId: eve.id, type }, orderBy: { id: "desc" } });
      const first = await call(server, eve, "GET", `${path}?limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.map((a: { id: string }) => a.id)).toEqual([others[2].id, others[1].id]);
      expectLink(first.headers, { max_id: rows[1].id, min_id: rows[0].id });
      const next = await call(server, eve, "GET", `${path}?limit=2&max_id=${rows[1].id}`);
      expect(next.body.map((a: { id: string }) => a.id)).toEqual([others[0].id]);
      const withRel = await call(server, eve, "GET", `${path}?with_relationships=true`);
      const ns = server.services.settings.namespace;
      expect(withRel.body.map((a: any) => a[ns].relationship)).toEqual(others.map((o) => rel(o.id, { blocking: true, muting: true, muting_notifications: true })).reverse());
      const plain = await call(server, eve, "GET", path);
      expect(plain.body[0][ns].relationship).toEqual({});
    }
    const mutes = (await call(server, eve, "GET", "/api/v1/mutes")).body;
    expect(mutes.map((a: any) => a.mute_expires_at === null)).toEqual([true, true, false]);
  });

  test("rendering a list takes the same number of queries for 1 and for 10 accounts", async () => {
    const many: User[] = [];
    for (let i = 0; i < 10; i++) {
      const account = await server.createUser(`q${i}`);
      many.push({ id: account.id } as User);
    }
    const lister = await user(server, "lister");
    for (const m of many) {
      await call(server, lister, "POST", `/api/v1/accounts/${m.id}/block`);
      await call(server, lister, "POST", `/api/v1/accounts/${m.id}/mute`);
      await call(server, lister, "POST", `/api/v1/accounts/${m.id}/note`, { comment: "x" });
    }
    for (const path of ["/api/v1/blocks", "/api/v1/mutes"]) {
      let one: any, ten: any;
      const q1 = (await server.countQueries(async () => (one = await call(server, lister, "GET", `${path}?limit=1&with_relationships=true`)))).queries;
      const q10 = (await server.countQueries(async () => (ten = await call(server, lister, "GET", `${path}?limit=10&with_relationships=true`)))).queries;
      expect([one.body.length, ten.body.length]).toEqual([1, 10]);
      expect(q1).toBeGreaterThan(0);
      expect(q10).toBe(q1);
    }
  });

  test("domain blocks: add (normalized), list with paging, the relationship shows it, remove", async () => {
    const remote = await remoteAccount(server, "zed", "spam.example");
    expect(await call(server, carol, "POST", "/api/v1/domain_blocks", { domain: " Spam.Example " })).toMatchObject({ status: 200, body: {} });
    expect(await call(server, carol, "POST", "/api/v1/domain_blocks", { domain: "spam.example" })).toMatchObject({ status: 200, body: {} });
    await call(server, carol, "POST", "/api/v1/domain_blocks", { domain: "other.example" });
    expect(await db.domainBlock.findMany({ where: { accountId: carol.id }, select: { domain: true }, orderBy: { id: "asc" } })).toEqual([
      { domain: "spam.example" },
      { domain: "other.example" },
    ]);
    expect((await call(server, carol, "GET", "/api/v1/domain_blocks")).body).toEqual(["other.example", "spam.example"]);
    const page = await call(server, carol, "GET", "/api/v1/domain_blocks?limit=1");
    expect(page.body).toEqual(["other.example"]);
    const rows = await db.domainBlock.findMany({ where: { accountId: carol.id }, orderBy: { id: "desc" } });
    expectLink(page.headers, { max_id: rows[0].id, min_id: rows[0].id });
    expect((await call(server, carol, "GET", `/api/v1/domain_blocks?max_id=${rows[0].id}`)).body).toEqual(["spam.example"]);
    expect((await call(server, carol, "GET", `/api/v1/accounts/relationships?id=${remote.id}`)).body).toEqual([rel(remote.id, { domain_blocking: true })]);

    const del = await server.fetch("/api/v1/domain_blocks?domain=spam.example", { method: "DELETE", headers: carol.auth });
    expect([del.status, await del.json()]).toEqual([200, {}]);
    expect((await call(server, carol, "GET", "/api/v1/domain_blocks")).body).toEqual(["other.example"]);
    expect(await call(server, carol, "POST", "/api/v1/domain_blocks", {})).toMatchObject({ status: 400, body: { error: "Missing field: domain." } });
    expect(await call(server, carol, "POST", "/api/v1/domain_blocks", { domain: " " })).toMatchObject({ status: 400, body: { error: "Missing field: domain." } });
  });

  test("scopes: read:blocks / read:mutes list, write:blocks / write:mutes act", async () => {
    const r = await user(server, "scoped", "read:blocks write:mutes");
    expect((await call(server, r, "GET", "/api/v1/blocks")).status).toBe(200);
    expect((await call(server, r, "GET", "/api/v1/mutes")).status).toBe(403);
    expect((await call(server, r, "POST", `/api/v1/accounts/${carol.id}/mute`)).status).toBe(200);
    expect((await call(server, r, "POST", `/api/v1/accounts/${carol.id}/block`)).status).toBe(403);
    expect((await call(server, r, "POST", "/api/v1/domain_blocks", { domain: "x.example" })).status).toBe(403);
  });
});
