// Follow, unfollow, notes, subscriptions, remove_from_followers and GET relationships, against a real
// server on both databases: status, body, database rows and follow_relationships_update events.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, followEvents, rel, remoteAccount, user, type User } from "./relationships-helpers.ts";

describe.each(suiteKinds(import.meta.url))("follows and relationships on %s", (kind) => {
  let server: TestServer;
  let db: TestServer["services"]["db"];
  let alice: User, bob: User, carol: User;

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.services.db;
    [alice, bob, carol] = [await user(server, "alice"), await user(server, "bob"), await user(server, "carol")];
  });
  afterAll(() => server?.close());

  const follow = (who: User, target: string, form?: Record<string, string>) => call(server, who, "POST", `/api/v1/accounts/${target}/follow`, form);
  const followRow = (follower: User, following: User) => db.follow.findUnique({ where: { followerId_followingId: { followerId: follower.id, followingId: following.id } } });

  test("following an unlocked account: accepted at once, relationship, row and event with counts", async () => {
    const bus = await followEvents(server);
    const res = await follow(alice, bob.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(rel(bob.id, { following: true }));
    expect(await followRow(alice, bob)).toMatchObject({ state: "accept", showReblogs: true, notify: false });
    expect(await bus.take(1)).toEqual([
      { state: "follow_accept", follower: { id: alice.id, follower_count: 0, following_count: 1 }, following: { id: bob.id, follower_count: 1, following_count: 0 } },
    ]);

    // bob sees alice as a follower
    const back = await call(server, bob, "GET", `/api/v1/accounts/relationships?id=${alice.id}`);
    expect(back.body).toEqual([rel(alice.id, { followed_by: true })]);

    // following again publishes nothing new and changes nothing
    expect((await follow(alice, bob.id)).body).toEqual(rel(bob.id, { following: true }));
    expect(await bus.untilSentinel()).toEqual([]);
    await bus.stop();
  });

  test("following again updates reblogs and notify (a subscription); omitted options are kept", async () => {
    let res = await follow(alice, bob.id, { reblogs: "false", notify: "true" });
    expect(res.body).toEqual(rel(bob.id, { following: true, showing_reblogs: false, notifying: true, subscribing: true }));
    expect(await followRow(alice, bob)).toMatchObject({ showReblogs: false, notify: true });
    expect(await db.userRelationship.count({ where: { sourceId: alice.id, targetId: bob.id, type: "subscription" } })).toBe(1);

    res = await follow(alice, bob.id);
    expect(res.body).toMatchObject({ showing_reblogs: false, notifying: true });

    res = await call(server, alice, "POST", `/api/v1/accounts/${bob.id}/follow`);
    const json = await server.fetch(`/api/v1/accounts/${bob.id}/follow`, { json: { reblogs: true, notify: false }, headers: alice.auth });
    expect(await json.json()).toEqual(rel(bob.id, { following: true }));
    expect(await db.userRelationship.count({ where: { sourceId: alice.id, targetId: bob.id, type: "subscription" } })).toBe(0);
  });

  test("unfollow removes the follow, subscription and endorsement; unfollowing again is harmless", async () => {
    await follow(alice, bob.id, { notify: "true" });
    const res = await call(server, alice, "POST", `/api/v1/accounts/${bob.id}/unfollow`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(rel(bob.id));
    expect(await followRow(alice, bob)).toBeNull();
    expect(await db.userRelationship.count({ where: { sourceId: alice.id, targetId: bob.id } })).toBe(0);
    expect((await call(server, alice, "POST", `/api/v1/accounts/${bob.id}/unfollow`)).body).toEqual(rel(bob.id));
  });

  test("the account may be named by nickname; unknown accounts are 404 Record not found", async () => {
    expect((await follow(alice, "carol")).body).toEqual(rel(carol.id, { following: true }));
    expect((await follow(alice, `@carol@${new URL(server.services.settings.baseUrl).host}`)).body).toMatchObject({ id: carol.id, following: true });
    for (const action of ["follow", "unfollow", "block", "mute", "note", "remove_from_followers"]) {
      const res = await call(server, alice, "POST", `/api/v1/accounts/doesntexist/${action}`);
      expect([action, res.status, res.body]).toEqual([action, 404, { error: "Record not found" }]);
    }
    await call(server, alice, "POST", `/api/v1/accounts/${carol.id}/unfollow`);
  });

  test("POST /api/v1/follows follows by nickname", async () => {
    expect(await call(server, carol, "POST", "/api/v1/follows", { uri: "bob" })).toMatchObject({ status: 200, body: rel(bob.id, { following: true }) });
    expect(await call(server, carol, "POST", "/api/v1/follows", { uri: "carol" })).toMatchObject({ status: 400, body: { error: "Can not follow yourself" } });
    expect(await call(server, carol, "POST", "/api/v1/follows", { uri: "doesntexist" })).toMatchObject({ status: 404, body: { error: "Record not found" } });
    await call(server, carol, "POST", `/api/v1/accounts/${bob.id}/unfollow`);
  });

  test("yourself: 400 Can not follow / unfollow yourself", async () => {
    expect(await follow(alice, alice.id)).toMatchObject({ status: 400, body: { error: "Can not follow yourself" } });
    expect(await call(server, alice, "POST", `/api/v1/accounts/${alice.id}/unfollow`)).toMatchObject({ status: 400, body: { error: "Can not unfollow yourself" } });
    expect(await call(server, alice, "POST", `/api/v1/accounts/${alice.id}/remove_from_followers`)).toMatchObject({
      status: 400,
      body: { error: "Can not unfollow yourself" },
    });
    expect(await db.follow.count({ where: { followerId: alice.id, followingId: alice.id } })).toBe(0);
  });

  test("a blocking or blocked target: 403 with the family's message, nothing stored", async () => {
    await call(server, carol, "POST", `/api/v1/accounts/${alice.id}/block`);
    expect(await follow(alice, carol.id)).toEqual(expect.objectContaining({ status: 403, body: { error: "Could not follow user: carol blocked you." } }));
    expect(await follow(carol, alice.id)).toEqual(expect.objectContaining({ status: 403, body: { error: "Could not follow user: you are blocking alice." } }));
    expect(await db.follow.count({ where: { OR: [{ followerId: alice.id, followingId: carol.id }, { followerId: carol.id, followingId: alice.id }] } })).toBe(0);
    await call(server, carol, "POST", `/api/v1/accounts/${alice.id}/unblock`);
  });

  test("a deactivated target cannot be followed", async () => {
    const dora = await user(server, "dora");
    await db.account.update({ where: { id: dora.id }, data: { deactivated: true } });
    expect(await follow(alice, dora.id)).toMatchObject({ status: 403, body: { error: "Could not follow user: dora is deactivated." } });
  });

  test("a remote target stays requested until it answers", async () => {
    const remote = await remoteAccount(server, "rita", "remote.example");
    const res = await follow(alice, remote.id);
    expect(res.body).toEqual(rel(remote.id, { requested: true }));
    expect((await follow(alice, "rita@remote.example")).body).toMatchObject({ id: remote.id, requested: true });
  });

  test("GET relationships: request order, id and id[] forms, unknown ids skipped, none → []", async () => {
    await follow(bob, alice.id);
    let res = await call(server, alice, "GET", `/api/v1/accounts/relationships?id[]=${carol.id}&id[]=nope&id[]=${bob.id}&id[]=${carol.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([rel(carol.id), rel(bob.id, { followed_by: true })]);
    res = await call(server, alice, "GET", `/api/v1/accounts/relationships?id=${bob.id}`);
    expect(res.body).toEqual([rel(bob.id, { followed_by: true })]);
    res = await call(server, alice, "GET", `/api/v1/accounts/relationships/`);
    expect(res).toMatchObject({ status: 200, body: [] });
    res = await call(server, null, "GET", `/api/v1/accounts/relationships?id=${bob.id}`);
    expect(res).toMatchObject({ status: 403, body: { error: "Invalid credentials." } });
  });

  test("scopes: read:follows reads relationships, writing needs follow or write:follows", async () => {
    const reader = await user(server, "reader", "read:follows");
    expect((await call(server, reader, "GET", `/api/v1/accounts/relationships?id=${bob.id}`)).status).toBe(200);
    const res = await follow(reader, bob.id);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^Insufficient permissions/);
    const writer = await user(server, "writer", "write:follows");
    expect((await follow(writer, bob.id)).body).toMatchObject({ following: true });
  });

  test("notes: set, replace, empty removes", async () => {
    let res = await call(server, alice, "POST", `/api/v1/accounts/${bob.id}/note`, { comment: "met at the conference" });
    expect(res.status).toBe(200);
    expect(res.body.note).toBe("met at the conference");
    res = await call(server, alice, "POST", `/api/v1/accounts/${bob.id}/note`, { comment: "changed" });
    expect(res.body.note).toBe("changed");
    expect(await db.accountNote.findMany({ where: { authorId: alice.id } })).toEqual([expect.objectContaining({ targetId: bob.id, comment: "changed" })]);
    res = await call(server, alice, "POST", `/api/v1/accounts/${bob.id}/note`, { comment: "" });
    expect(res.body.note).toBe("");
    expect(await db.accountNote.count({ where: { authorId: alice.id } })).toBe(0);
  });

  test("own API subscribe / unsubscribe", async () => {
    const ns = server.services.settings.namespace;
    let res = await call(server, alice, "POST", `/api/v1/${ns}/accounts/${carol.id}/subscribe`);
    expect(res).toMatchObject({ status: 200, body: rel(carol.id, { subscribing: true, notifying: true }) });
    expect(await db.userRelationship.count({ where: { sourceId: alice.id, targetId: carol.id, type: "subscription" } })).toBe(1);
    res = await call(server, alice, "POST", `/api/v1/${ns}/accounts/${carol.id}/unsubscribe`);
    expect(res.body).toEqual(rel(carol.id));
    expect(await db.userRelationship.count({ where: { sourceId: alice.id, targetId: carol.id, type: "subscription" } })).toBe(0);
    expect(await call(server, alice, "POST", `/api/v1/${ns}/accounts/nobody/subscribe`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    await call(server, carol, "POST", `/api/v1/accounts/${alice.id}/block`);
    expect(await call(server, alice, "POST", `/api/v1/${ns}/accounts/${carol.id}/subscribe`)).toMatchObject({
      status: 403,
      body: { error: "Could not subscribe: carol is blocking you" },
    });
    await call(server, carol, "POST", `/api/v1/accounts/${alice.id}/unblock`);
  });

  test("remove_from_followers ends the follower's follow with a follow_reject event; none → 404", async () => {
    await follow(carol, alice.id);
    const bus = await followEvents(server);
    const res = await call(server, alice, "POST", `/api/v1/accounts/${carol.id}/remove_from_followers`);
    expect(res).toMatchObject({ status: 200, body: rel(carol.id) });
    expect(await followRow(carol, alice)).toBeNull();
    const [event] = await bus.take(1);
    expect(event).toMatchObject({ state: "follow_reject", follower: { id: carol.id }, following: { id: alice.id } });
    await bus.stop();
    expect(await call(server, alice, "POST", `/api/v1/accounts/${carol.id}/remove_from_followers`)).toMatchObject({ status: 404, body: { error: "Record not found" } });
  });
});
