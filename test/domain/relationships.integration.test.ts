// Operation-level tests of relationships: follow (at once, or a request to a locked account),
// unfollow, block (which ends follows both ways and refuses new ones) and mute, each answered as the
// Relationship and checked in the rows; operations called directly, no HTTP.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { blockAccount, muteAccount, unblockAccount, unmuteAccount } from "../../src/domain/relationships/blocks-mutes.ops.ts";
import { authorizeFollowRequest, followAccount, unfollowAccount } from "../../src/domain/relationships/follows.ops.ts";
import { getRelationships } from "../../src/domain/relationships/relationships.read.ts";
import { domainWorld, type DomainWorld } from "../support/domain.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

describe("relationship operations", () => {
  let w: DomainWorld;
  const follow = (followerId: string, followingId: string) => w.db.follow.findUnique({ where: { followerId_followingId: { followerId, followingId } } });
  const relation = (sourceId: string, targetId: string, type: "block" | "mute" | "notification_mute") =>
    w.db.userRelationship.findUnique({ where: { sourceId_targetId_type: { sourceId, targetId, type } } });

  beforeAll(async () => {
    w = await domainWorld();
  });
  afterAll(() => w?.close());

  test("follow is accepted at once and seen from both sides; unfollow removes it", async () => {
    const [ann, bob] = [await w.account("ann"), await w.account("bob")];
    const asAnn = await w.as(ann);
    const rel = await followAccount(asAnn, { id: bob.id });
    expect(rel).toMatchObject({ id: bob.id, following: true, requested: false, followedBy: false });
    expect(await follow(ann.id, bob.id)).toMatchObject({ state: "accept", showReblogs: true });
    expect(await getRelationships(await w.as(bob), { id: [ann.id] })).toEqual([expect.objectContaining({ following: false, followedBy: true })]);

    expect(await unfollowAccount(asAnn, { id: bob.id })).toMatchObject({ following: false });
    expect(await follow(ann.id, bob.id)).toBeNull();
    await expect(followAccount(asAnn, { id: ann.id })).rejects.toMatchObject({ kind: "invalid", message: "Can not follow yourself" });
  });

  test("following a locked account is a request until the account authorizes it", async () => {
    const [cid, dora] = [await w.account("cid"), await w.account("dora")];
    await w.db.account.update({ where: { id: dora.id }, data: { locked: true } });
    expect(await followAccount(await w.as(cid), { id: dora.id })).toMatchObject({ following: false, requested: true });
    expect(await follow(cid.id, dora.id)).toMatchObject({ state: "pending" });
    expect(await authorizeFollowRequest(await w.as(dora), { id: cid.id })).toMatchObject({ followedBy: true });
    expect(await follow(cid.id, dora.id)).toMatchObject({ state: "accept" });
  });

  test("block ends follows in both directions and refuses new ones until unblocked", async () => {
    const [eve, fay] = [await w.account("eve"), await w.account("fay")];
    const [asEve, asFay] = [await w.as(eve), await w.as(fay)];
    await followAccount(asEve, { id: fay.id });
    await followAccount(asFay, { id: eve.id });
    expect(await blockAccount(asEve, { id: fay.id })).toMatchObject({ blocking: true, following: false, followedBy: false });
    expect(await relation(eve.id, fay.id, "block")).not.toBeNull();
    expect(await w.db.follow.count({ where: { OR: [{ followerId: eve.id, followingId: fay.id }, { followerId: fay.id, followingId: eve.id }] } })).toBe(0);
    expect(await getRelationships(asFay, { id: [eve.id] })).toEqual([expect.objectContaining({ blockedBy: true })]);
    await expect(followAccount(asFay, { id: eve.id })).rejects.toMatchObject({ kind: "forbidden", message: "Could not follow user: eve blocked you." });

    expect(await unblockAccount(asEve, { id: fay.id })).toMatchObject({ blocking: false });
    expect(await relation(eve.id, fay.id, "block")).toBeNull();
    expect(await followAccount(asFay, { id: eve.id })).toMatchObject({ following: true });
  });

  test("mute (with or without notifications) keeps the follow; unmute removes both rows", async () => {
    const [gus, hal] = [await w.account("gus"), await w.account("hal")];
    const asGus = await w.as(gus);
    await followAccount(asGus, { id: hal.id });
    expect(await muteAccount(asGus, { id: hal.id, notifications: false })).toMatchObject({ muting: true, mutingNotifications: false, following: true });
    expect(await relation(gus.id, hal.id, "mute")).not.toBeNull();
    expect(await relation(gus.id, hal.id, "notification_mute")).toBeNull();
    expect(await muteAccount(asGus, { id: hal.id })).toMatchObject({ muting: true, mutingNotifications: true });
    expect(await relation(gus.id, hal.id, "notification_mute")).not.toBeNull();
    expect(await unmuteAccount(asGus, { id: hal.id })).toMatchObject({ muting: false, mutingNotifications: false, following: true });
    expect(await relation(gus.id, hal.id, "mute")).toBeNull();
    expect(await relation(gus.id, hal.id, "notification_mute")).toBeNull();
  });
});
