// What a signed-in account does to a status it can see: favourite, reblog, bookmark, pin and mute
// its thread (each idempotent, each with its undo), and who favourited or reblogged a status.
// Every action applies to the original when given the id of a reblog, as the family does.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Prisma, Status, Visibility } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Access } from "../auth/access.ts";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { notify } from "../notifications/notify.ts";
import { afterCommit, inTransaction } from "../transaction.ts";
import { deletedStatuses } from "../streams/streams.read.ts";
import { federate, federatedVisibility, likeUndoIntent } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { getVisibleStatus } from "./statuses.read.ts";
import { ownFolder } from "../bookmarks/folders.ops.ts";
import { visibleWhere } from "./visibility.ts";
import { statusesChanged } from "./status-cache.ts";

const idInput = z.object({ id: z.string() });

/** Visibilities a status may be pinned with (the family's "public": addressed to the public collection). */
const PINNABLE: readonly Visibility[] = ["public", "unlisted", "local"];

/** The status an action applies to: one the viewer can see, the original when `id` names a reblog (404 otherwise). */
export async function actionTarget(ctx: Ctx, id: string): Promise<Status> {
  const status = await getVisibleStatus(ctx, id);
  if (!status.reblogOfId) return status;
  // getVisibleStatus already checked that the original is visible too
  const original = await ctx.db.status.findUnique({ where: { id: status.reblogOfId } });
  if (!original) throw NotFound("Record not found");
  return original;
}

/** An action of the signed-in account on a visible status, answering the status to render. */
function statusAction<S extends z.ZodType<{ id: string }>>(
  name: string,
  input: S,
  act: (ctx: Ctx, me: Account, status: Status, input: z.output<S>) => Promise<Status | void>,
  /** who may run it (src/domain/auth/access.ts), read by the REST route and GraphQL field naming it */
  access: Access,
) {
  return operation({
    name,
    access,
    input,
    authorize: requireAccount,
    async run(ctx, parsed): Promise<Status> {
      const me = requireAccount(ctx);
      const status = await actionTarget(ctx, parsed.id);
      return (await act(ctx, me, status, parsed)) ?? status;
    },
  });
}

/**
 * `account` favourites `status` (once); `apId` is the id of a received Like. Answers whether it was new.
 * The favourite, its notification and (a local account's Like of a remote status) its delivery commit
 * together (src/domain/transaction.ts).
 */
export async function favouriteAs(ctx: Ctx, account: Account, status: Status, apId?: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const id = newId();
    const { count } = await tx.db.favourite.createMany({ data: [{ id, accountId: account.id, statusId: status.id, apId: apId ?? null }], skipDuplicates: true });
    if (!count) return false;
    await notify(tx, [{ accountId: status.accountId, type: "favourite", fromAccountId: account.id, statusId: status.id }]);
    // federation: a Like goes out here (to the author of a remote status)
    if (account.local && !status.local) await federate(tx, { type: "like", favouriteId: id });
    afterCommit(tx, () => statusesChanged(ctx, [status.id])); // favourites_count
    return true;
  });
}

/** `account` takes back its favourite of `status`, with its notification (and a local account's Undo of its Like of a remote status). */
export async function unfavouriteAs(ctx: Ctx, account: Account, status: Pick<Status, "id"> & Partial<Pick<Status, "local">>): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const undo = account.local && status.local === false ? await likeUndoIntent(tx, account, status) : null;
    const { count } = await tx.db.favourite.deleteMany({ where: { accountId: account.id, statusId: status.id } });
    if (!count) return;
    // the family's notification belongs to the Like, which the Undo removes
    await tx.db.notification.deleteMany({ where: { type: "favourite", fromAccountId: account.id, statusId: status.id } });
    // federation: the Undo of the Like goes to the author of a remote status
    if (undo) await federate(tx, undo);
    afterCommit(tx, () => statusesChanged(ctx, [status.id])); // favourites_count
  });
}

export const favouriteStatus = statusAction("statuses.favourite", idInput, async (ctx, me, status) => {
  await favouriteAs(ctx, me, status);
}, { scopes: ["write:favourites"] });

export const unfavouriteStatus = statusAction("statuses.unfavourite", idInput, async (ctx, me, status) => {
  await unfavouriteAs(ctx, me, status);
}, { scopes: ["write:favourites"] });

export const reblogInput = idInput.extend({ visibility: z.enum(["public", "unlisted", "private"]).optional() });

/**
 * The visibility of a new reblog of `original` by `me`, or a refusal. Others' private and direct
 * statuses cannot be reblogged (404, as the family answers); the author may reblog an own private
 * status, to followers only whatever was asked (as the reference server does).
 */
export function reblogVisibility(me: Account, original: Status, requested: "public" | "unlisted" | "private" | undefined): Visibility {
  const own = original.accountId === me.id;
  if (original.visibility === "direct" || original.visibility === "list") {
    if (own) throw Unprocessable("Direct statuses cannot be reblogged", { visibility: "can not announce this object" });
    throw NotFound("Record not found");
  }
  if (original.visibility === "private") {
    if (!own) throw NotFound("Record not found");
    return "private";
  }
  // a local-only status stays on this instance when reblogged
  if (original.visibility === "local" && requested !== "private") return "local";
  return requested ?? "public";
}

/**
 * `me` reblogs `original` with `visibility` (once: a second call answers the first reblog). A reblog
 * received from another server brings its Announce id as `uri` and its date.
 */
export async function reblogAs(ctx: Ctx, me: Account, original: Status, visibility: Visibility, remote?: { uri: string; createdAt: Date }): Promise<Status> {
  const existing = () => ctx.db.status.findUnique({ where: { accountId_reblogOfId: { accountId: me.id, reblogOfId: original.id } } });
  const earlier = await existing();
  if (earlier) return earlier;
  const id = newId();
  const now = remote?.createdAt ?? ctx.clock();
  // the reblog, the author's last status date, the notification and (a local reblog) the Announce's
  // delivery commit together (src/domain/transaction.ts)
  const reblog = await inTransaction(ctx, async (tx) => {
    const created = await tx.db.status.create({
      data: {
        id,
        uri: remote?.uri ?? `${ctx.settings.baseUrl}/activities/${id}`,
        accountId: me.id,
        local: !remote,
        reblogOfId: original.id,
        visibility,
        context: original.context,
        applicationId: remote ? null : (ctx.viewer.app?.id ?? null),
        createdAt: now,
      },
    });
    await tx.db.account.update({ where: { id: me.id }, data: { lastStatusAt: now } });
    await notify(tx, [{ accountId: original.accountId, type: "reblog", fromAccountId: me.id, statusId: original.id }]);
    // federation: an Announce goes out here
    if (created.local && federatedVisibility(created.visibility)) await federate(tx, { type: "announce", reblogId: created.id });
    return created;
  })
    // a concurrent reblog of the same status won: answer that one (one reblog per account and status)
    .catch(async (error) => ((error as { code?: string }).code === "P2002" ? (await existing()) ?? Promise.reject(error) : Promise.reject(error)));
  if (reblog.id !== id) return reblog;
  ctx.bus.publish("status_created", { statusId: reblog.id, accountId: reblog.accountId });
  statusesChanged(ctx, [original.id]); // reblogs_count
  return reblog;
}

/** Reblogs a status (once: a second call answers the first reblog). Answers the reblog, whose `reblog` is the original. */
export const reblogStatus = operation({
  name: "statuses.reblog",
  access: { scopes: ["write:statuses"] },
  input: reblogInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Status> {
    const me = requireAccount(ctx);
    const original = await actionTarget(ctx, input.id);
    const earlier = await ctx.db.status.findUnique({ where: { accountId_reblogOfId: { accountId: me.id, reblogOfId: original.id } } });
    if (earlier) return earlier;
    return reblogAs(ctx, me, original, reblogVisibility(me, original, input.visibility));
  },
});

/**
 * Removes `me`'s reblog of `original` and its notification; the streams hear of the deletion. A local
 * reblog's Undo is queued in the same transaction (given the original's uri and author).
 */
export async function unreblogAs(ctx: Ctx, me: Account, original: Pick<Status, "id"> & Partial<Pick<Status, "uri" | "accountId">>): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const reblog = await tx.db.status.findUnique({ where: { accountId_reblogOfId: { accountId: me.id, reblogOfId: original.id } } });
    if (!reblog) return;
    const gone = await deletedStatuses(tx, reblog);
    const { count } = await tx.db.status.deleteMany({ where: { accountId: me.id, reblogOfId: original.id } });
    if (!count) return;
    await tx.db.notification.deleteMany({ where: { type: "reblog", fromAccountId: me.id, statusId: original.id } });
    // federation: the Undo of the Announce goes to the reblogger's followers and the original's author
    if (reblog.local && federatedVisibility(reblog.visibility) && original.uri && original.accountId)
      await federate(tx, { type: "announce.undo", reblogId: reblog.id, reblogUri: reblog.uri, actorId: me.id, originalUri: original.uri, originalAuthorId: original.accountId, visibility: reblog.visibility });
    afterCommit(tx, () => {
      statusesChanged(ctx, [original.id]); // reblogs_count
      for (const d of gone) ctx.bus.publish("status_deleted", d);
    });
  });
}

/** Removes the viewer's reblog of a status; answers the original. */
export const unreblogStatus = statusAction("statuses.unreblog", idInput, async (ctx, me, status) => {
  await unreblogAs(ctx, me, status);
}, { scopes: ["write:statuses"] });

/** Bookmarks a status; with `folder_id` (one of the viewer's folders) the bookmark goes, or moves, into that folder. */
export const bookmarkStatus = statusAction("statuses.bookmark", idInput.extend({ folder_id: z.string().nullable().optional() }), async (ctx, me, status, input) => {
  const folderId = input.folder_id ? (await ownFolder(ctx, input.folder_id)).id : null;
  await ctx.db.bookmark.upsert({
    where: { accountId_statusId: { accountId: me.id, statusId: status.id } },
    create: { id: newId(), accountId: me.id, statusId: status.id, folderId },
    // bookmarking again without a folder keeps the bookmark where it is
    update: folderId ? { folderId } : {},
  });
}, { scopes: ["write:bookmarks"] });

export const unbookmarkStatus = statusAction("statuses.unbookmark", idInput, async (ctx, me, status) => {
  await ctx.db.bookmark.deleteMany({ where: { accountId: me.id, statusId: status.id } });
}, { scopes: ["write:bookmarks"] });

/** Pins an own public, unlisted or local status to the profile, up to `max_pinned_statuses`; the family's messages. */
export const pinStatus = statusAction("statuses.pin", idInput, async (ctx, me, status) => {
  if (status.accountId !== me.id) throw Unprocessable("Someone else's status cannot be pinned");
  if (!PINNABLE.includes(status.visibility)) throw Unprocessable("Non-public status cannot be pinned");
  if (status.pinnedAt) return status;
  const max = ctx.config.get("instance", "max_pinned_statuses");
  const pinned = await ctx.db.status.count({ where: { accountId: me.id, pinnedAt: { not: null } } });
  if (pinned >= max) throw Invalid("You have already pinned the maximum number of statuses");
  const updated = await ctx.db.status.update({ where: { id: status.id }, data: { pinnedAt: ctx.clock() } });
  statusesChanged(ctx, [status.id]); // pinned, pinned_at
  return updated;
}, { scopes: ["write:accounts"] });

/** Unpins an own status; on anyone else's it changes nothing (the family answers the status too). */
export const unpinStatus = statusAction("statuses.unpin", idInput, async (ctx, me, status) => {
  if (status.accountId !== me.id || !status.pinnedAt) return status;
  const updated = await ctx.db.status.update({ where: { id: status.id }, data: { pinnedAt: null } });
  statusesChanged(ctx, [status.id]); // pinned, pinned_at
  return updated;
}, { scopes: ["write:accounts"] });

export const muteInput = idInput.extend({ expires_in: int().optional() });

/**
 * Mutes the status's thread (its context) for the viewer, for `expires_in` seconds when positive,
 * and marks the viewer's notifications from that thread read, as the family does. Muting again
 * replaces the expiry.
 */
export const muteThread = statusAction("statuses.mute", muteInput, async (ctx, me, status, input) => {
  const seconds = input.expires_in ?? 0;
  const expiresAt = seconds > 0 ? new Date(ctx.clock().getTime() + seconds * 1000) : null;
  await ctx.db.threadMute.upsert({
    where: { accountId_context: { accountId: me.id, context: status.context } },
    create: { id: newId(), accountId: me.id, context: status.context, expiresAt },
    update: { expiresAt },
  });
  await ctx.db.notification.updateMany({ where: { accountId: me.id, seen: false, status: { context: status.context } }, data: { seen: true } });
}, { scopes: ["write:mutes"] });

export const unmuteThread = statusAction("statuses.unmute", idInput, async (ctx, me, status) => {
  await ctx.db.threadMute.deleteMany({ where: { accountId: me.id, context: status.context } });
}, { scopes: ["write:mutes"] });

export const statusAccountsInput = pageInput.extend({ id: z.string() });

/** Accounts shown in lists: active, and neither blocking nor blocked by the viewer. */
function shownAccount(ctx: Ctx): Prisma.AccountWhereInput {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return { deactivated: false };
  return {
    deactivated: false,
    relationsOut: { none: { targetId: viewerId, type: "block" } },
    relationsIn: { none: { sourceId: viewerId, type: "block" } },
  };
}

/** Who favourited a visible status, newest favourite first, paged by the favourite's id. */
export const favouritedBy = operation({
  name: "statuses.favouritedBy",
  access: { scopes: ["read:accounts"], optional: true },
  input: statusAccountsInput,
  async run(ctx, input): Promise<Page<Account>> {
    const status = await actionTarget(ctx, input.id);
    const page = keyset(input, { defaultLimit: 40, maxLimit: 80 });
    const rows = await ctx.db.favourite.findMany({
      where: { statusId: status.id, account: shownAccount(ctx), ...(page.cursor ? { id: page.cursor } : {}) },
      include: { account: true },
      orderBy: { id: page.order },
      take: page.take,
    });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: result.items.map((r) => r.account) };
  },
});

/** Who reblogged a visible status (only reblogs the viewer may see), newest first, paged by the reblog's id. */
export const rebloggedBy = operation({
  name: "statuses.rebloggedBy",
  access: { scopes: ["read:accounts"], optional: true },
  input: statusAccountsInput,
  async run(ctx, input): Promise<Page<Account>> {
    const status = await actionTarget(ctx, input.id);
    const page = keyset(input, { defaultLimit: 40, maxLimit: 80 });
    const rows = await ctx.db.status.findMany({
      where: { AND: [visibleWhere(ctx), { reblogOfId: status.id }, page.cursor ? { id: page.cursor } : {}] },
      include: { account: true },
      orderBy: { id: page.order },
      take: page.take,
    });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: result.items.map((r) => r.account) };
  },
});
