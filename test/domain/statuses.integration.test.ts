// Operation-level tests of statuses: posting, editing (with its history), deleting (the author's own,
// or any for the system) and who may see each visibility; operations called directly, no HTTP.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Ctx } from "../../src/domain/context.ts";
import { editStatus } from "../../src/domain/statuses/edit.ops.ts";
import { showStatus } from "../../src/domain/statuses/statuses.read.ts";
import { deleteStatus, postStatus } from "../../src/domain/statuses/statuses.ops.ts";
import { followAccount } from "../../src/domain/relationships/follows.ops.ts";
import type { Account } from "../../src/generated/prisma/client.ts";
import { domainWorld, type DomainWorld } from "../support/domain.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

describe("status operations", () => {
  let w: DomainWorld;
  let ann: Account, bob: Account, cat: Account;
  let asAnn: Ctx, asBob: Ctx, asCat: Ctx;

  /** posts as `ctx` and answers the stored status */
  async function post(ctx: Ctx, input: Parameters<typeof postStatus>[1]) {
    const result = await postStatus(ctx, input);
    if (result.kind !== "status") throw new Error("expected a status");
    return result.status;
  }

  beforeAll(async () => {
    w = await domainWorld();
    [ann, bob, cat] = [await w.account("ann"), await w.account("bob"), await w.account("cat")];
    [asAnn, asBob, asCat] = [await w.as(ann), await w.as(bob), await w.as(cat)];
    await followAccount(asBob, { id: ann.id }); // bob follows ann; cat does not
  });
  afterAll(() => w?.close());

  test("posting stores the status with its source, rendered content and visibility", async () => {
    const status = await post(asAnn, { status: "hello *world*", visibility: "unlisted", spoiler_text: "cw" });
    const row = await w.db.status.findUniqueOrThrow({ where: { id: status.id } });
    expect(row).toMatchObject({ accountId: ann.id, source: "hello *world*", visibility: "unlisted", spoilerText: "cw", local: true });
    expect(row.content).toContain("hello");
    await expect(postStatus(w.anonymous, { status: "nobody" })).rejects.toMatchObject({ kind: "forbidden" });
  });

  test("editing changes the text, keeps the previous version in the history, and is the author's alone", async () => {
    const status = await post(asAnn, { status: "first draft" });
    const edited = await editStatus(asAnn, { id: status.id, status: "second draft" });
    expect(edited.source).toBe("second draft");
    expect(edited.editedAt).not.toBeNull();
    const history = await w.db.statusEdit.findMany({ where: { statusId: status.id }, orderBy: { createdAt: "asc" } });
    expect(history.map((e) => e.source)).toEqual(expect.arrayContaining(["first draft"]));
    await expect(editStatus(asBob, { id: status.id, status: "hijacked" })).rejects.toMatchObject({ kind: "forbidden", message: "Access denied" });
    expect((await w.db.status.findUniqueOrThrow({ where: { id: status.id } })).source).toBe("second draft");
  });

  test("deleting: another account is refused, the author removes it, the system may remove any", async () => {
    const mine = await post(asAnn, { status: "to be deleted" });
    await expect(deleteStatus(asBob, { id: mine.id })).rejects.toMatchObject({ kind: "forbidden", message: "You can't delete this status" });
    expect(await w.db.status.count({ where: { id: mine.id } })).toBe(1);
    const removed = await deleteStatus(asAnn, { id: mine.id });
    expect(removed.id).toBe(mine.id);
    expect(await w.db.status.count({ where: { id: mine.id } })).toBe(0);
    await expect(deleteStatus(asAnn, { id: mine.id })).rejects.toMatchObject({ kind: "not_found" });

    const other = await post(asBob, { status: "expiring" });
    await deleteStatus(w.system, { id: other.id });
    expect(await w.db.status.count({ where: { id: other.id } })).toBe(0);
  });

  test("visibility: public and unlisted for all, private for followers, direct for the addressed", async () => {
    const pub = await post(asAnn, { status: "for all", visibility: "public" });
    const unlisted = await post(asAnn, { status: "quietly for all", visibility: "unlisted" });
    const priv = await post(asAnn, { status: "for followers", visibility: "private" });
    const direct = await post(asAnn, { status: "@cat just for you", visibility: "direct" });
    expect(direct.recipientIds).toEqual([cat.id]);

    const sees = async (ctx: Ctx, id: string) => showStatus(ctx, { id }).then(() => true, (e) => (e.kind === "not_found" ? false : Promise.reject(e)));
    const table = async (ctx: Ctx) => [await sees(ctx, pub.id), await sees(ctx, unlisted.id), await sees(ctx, priv.id), await sees(ctx, direct.id)];
    expect(await table(asAnn)).toEqual([true, true, true, true]);
    expect(await table(asBob)).toEqual([true, true, true, false]); // a follower, not addressed
    expect(await table(asCat)).toEqual([true, true, false, true]); // addressed, not a follower
    expect(await table(w.anonymous)).toEqual([true, true, false, false]);
  });
});
