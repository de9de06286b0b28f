// Operation-level tests of notifications: the actions that create them (follow, follow request,
// mention, favourite; taking a favourite back removes its notification), the rules of notify.ts
// (never yourself; blocks and notification mutes suppress; a plain mute stores it read and hides it)
// and reading and dismissing them; operations called directly, no HTTP.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Ctx } from "../../src/domain/context.ts";
import { dismissNotification, listNotifications } from "../../src/domain/notifications/notifications.ops.ts";
import { notify } from "../../src/domain/notifications/notify.ts";
import { blockAccount, muteAccount } from "../../src/domain/relationships/blocks-mutes.ops.ts";
import { followAccount } from "../../src/domain/relationships/follows.ops.ts";
import { favouriteStatus, unfavouriteStatus } from "../../src/domain/statuses/actions.ops.ts";
import { postStatus } from "../../src/domain/statuses/statuses.ops.ts";
import { domainWorld, type DomainWorld } from "../support/domain.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

describe("notification operations", () => {
  let w: DomainWorld;
  const stored = (accountId: string) => w.db.notification.findMany({ where: { accountId }, orderBy: { id: "asc" } });
  const listed = async (ctx: Ctx, input: Parameters<typeof listNotifications>[1] = {}) =>
    (await listNotifications(ctx, input)).items.map((n) => `${n.type}:${n.fromAccount.nickname}`);

  async function post(ctx: Ctx, status: string) {
    const result = await postStatus(ctx, { status });
    if (result.kind !== "status") throw new Error("expected a status");
    return result.status;
  }

  beforeAll(async () => {
    w = await domainWorld();
  });
  afterAll(() => w?.close());

  test("a follow notifies the followed account; a locked account gets a follow request instead", async () => {
    const [ann, bob, cat] = [await w.account("ann"), await w.account("bob"), await w.account("cat")];
    await w.db.account.update({ where: { id: cat.id }, data: { locked: true } });
    await followAccount(await w.as(ann), { id: bob.id });
    await followAccount(await w.as(ann), { id: cat.id });
    expect(await stored(bob.id)).toEqual([expect.objectContaining({ type: "follow", fromAccountId: ann.id, seen: false })]);
    expect(await stored(cat.id)).toEqual([expect.objectContaining({ type: "follow_request", fromAccountId: ann.id })]);
    expect(await listed(await w.as(bob))).toEqual(["follow:ann"]);
    expect(await stored(ann.id)).toEqual([]);
  });

  test("a mention and a favourite notify the author, never the actor themselves; unfavouriting removes it", async () => {
    const [dee, eli] = [await w.account("dee"), await w.account("eli")];
    const [asDee, asEli] = [await w.as(dee), await w.as(eli)];
    const mention = await post(asDee, "hello @eli");
    expect(await stored(eli.id)).toEqual([expect.objectContaining({ type: "mention", fromAccountId: dee.id, statusId: mention.id })]);

    const own = await post(asEli, "my own post");
    await favouriteStatus(asEli, { id: own.id }); // one's own favourite: no notification
    await favouriteStatus(asDee, { id: own.id });
    expect(await listed(asEli)).toEqual(["favourite:dee", "mention:dee"]);
    await unfavouriteStatus(asDee, { id: own.id });
    expect(await listed(asEli)).toEqual(["mention:dee"]);
  });

  test("notify: a block suppresses, a notification mute suppresses, a plain mute stores it read and lists it only with_muted", async () => {
    const [fay, gus, hal, ivy] = [await w.account("fay"), await w.account("gus"), await w.account("hal"), await w.account("ivy")];
    const asFay = await w.as(fay);
    await blockAccount(asFay, { id: gus.id });
    await muteAccount(asFay, { id: hal.id, notifications: true });
    await muteAccount(asFay, { id: ivy.id, notifications: false });
    const items = [gus, hal, ivy].map((from) => ({ accountId: fay.id, type: "follow" as const, fromAccountId: from.id }));
    expect(await notify(w.system, [...items, { accountId: fay.id, type: "follow", fromAccountId: fay.id }])).toBe(1);
    expect(await stored(fay.id)).toEqual([expect.objectContaining({ type: "follow", fromAccountId: ivy.id, seen: true })]);
    expect(await listed(asFay)).toEqual([]);
    expect(await listed(asFay, { with_muted: true })).toEqual(["follow:ivy"]);
  });

  test("dismissing removes the viewer's own notification; another account's is refused", async () => {
    const [jo, kim] = [await w.account("jo"), await w.account("kim")];
    await followAccount(await w.as(jo), { id: kim.id });
    const [n] = await stored(kim.id);
    await expect(dismissNotification(await w.as(jo), { id: n.id })).rejects.toMatchObject({ kind: "forbidden", message: "Cannot get notification" });
    await dismissNotification(await w.as(kim), { id: n.id });
    expect(await stored(kim.id)).toEqual([]);
  });
});
