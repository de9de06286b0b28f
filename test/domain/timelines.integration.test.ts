// Operation-level tests of reading timelines: home (own, followed and addressed statuses; mutes and
// blocks), public (public statuses only, for anyone; local / remote) and an account's statuses;
// operations called directly, no HTTP.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Ctx } from "../../src/domain/context.ts";
import { blockAccount, muteAccount, unmuteAccount } from "../../src/domain/relationships/blocks-mutes.ops.ts";
import { followAccount, unfollowAccount } from "../../src/domain/relationships/follows.ops.ts";
import { postStatus } from "../../src/domain/statuses/statuses.ops.ts";
import { accountStatuses, homeTimeline, publicTimeline } from "../../src/domain/timelines/timelines.ops.ts";
import type { Account } from "../../src/generated/prisma/client.ts";
import { domainWorld, type DomainWorld } from "../support/domain.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

describe("timeline operations", () => {
  let w: DomainWorld;
  let ann: Account, bob: Account, cat: Account;
  let asAnn: Ctx, asBob: Ctx, asCat: Ctx;
  /** status ids by label */
  const s: Record<string, string> = {};
  const texts = (page: { items: { source: string }[] }) => page.items.map((x) => x.source);

  async function post(ctx: Ctx, status: string, visibility = "public") {
    const result = await postStatus(ctx, { status, visibility });
    if (result.kind !== "status") throw new Error("expected a status");
    return result.status.id;
  }

  beforeAll(async () => {
    w = await domainWorld();
    [ann, bob, cat] = [await w.account("ann"), await w.account("bob"), await w.account("cat")];
    [asAnn, asBob, asCat] = [await w.as(ann), await w.as(bob), await w.as(cat)];
    await followAccount(asAnn, { id: bob.id }); // ann follows bob, not cat
    s.annOwn = await post(asAnn, "ann public");
    s.bobPublic = await post(asBob, "bob public");
    s.bobUnlisted = await post(asBob, "bob unlisted", "unlisted");
    s.bobPrivate = await post(asBob, "bob private", "private");
    s.catPublic = await post(asCat, "cat public");
    s.catDirect = await post(asCat, "@ann cat direct", "direct");
  });
  afterAll(() => w?.close());

  test("home: the viewer's own, what followed accounts show followers, and what is addressed to the viewer, newest first", async () => {
    expect(texts(await homeTimeline(asAnn, {}))).toEqual(["@ann cat direct", "bob private", "bob unlisted", "bob public", "ann public"]);
    // cat follows nobody: own statuses only
    expect(texts(await homeTimeline(asCat, {}))).toEqual(["@ann cat direct", "cat public"]);
    await expect(homeTimeline(w.anonymous, {})).rejects.toMatchObject({ kind: "forbidden" });
  });

  test("home: paging with limit and max_id", async () => {
    const first = await homeTimeline(asAnn, { limit: 2 });
    expect(texts(first)).toEqual(["@ann cat direct", "bob private"]);
    expect(texts(await homeTimeline(asAnn, { limit: 2, max_id: first.last }))).toEqual(["bob unlisted", "bob public"]);
  });

  test("home: a mute hides the muted account until unmuted; unfollowing drops its statuses", async () => {
    await muteAccount(asAnn, { id: bob.id });
    expect(texts(await homeTimeline(asAnn, {}))).toEqual(["@ann cat direct", "ann public"]);
    await unmuteAccount(asAnn, { id: bob.id });
    await unfollowAccount(asAnn, { id: bob.id });
    expect(texts(await homeTimeline(asAnn, {}))).toEqual(["@ann cat direct", "ann public"]);
    await followAccount(asAnn, { id: bob.id });
  });

  test("public: public statuses only, the same for anyone signed in or not; a block hides the blocked author", async () => {
    const expected = ["cat public", "bob public", "ann public"];
    expect(texts(await publicTimeline(w.anonymous, {}))).toEqual(expected);
    expect(texts(await publicTimeline(asBob, {}))).toEqual(expected);
    expect(texts(await publicTimeline(w.anonymous, { remote: true }))).toEqual([]);
    const [dan] = [await w.account("dan")];
    const asDan = await w.as(dan);
    await blockAccount(asDan, { id: cat.id });
    expect(texts(await publicTimeline(asDan, {}))).toEqual(["bob public", "ann public"]);
  });

  test("an account's statuses: what the viewer may see of them", async () => {
    expect(texts(await accountStatuses(asAnn, { id: bob.id }))).toEqual(["bob private", "bob unlisted", "bob public"]);
    expect(texts(await accountStatuses(asCat, { id: bob.id }))).toEqual(["bob unlisted", "bob public"]);
    expect(texts(await accountStatuses(w.anonymous, { id: bob.id }))).toEqual(["bob unlisted", "bob public"]);
  });
});
