// Blocks, mutes (optionally with notifications and for a limited time) and private notes about accounts.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, RelationshipType } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { bool, int } from "../inputs.ts";
import { leaveFollowerLists } from "../lists/lists.ops.ts";
import { federate } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { publishFollowUpdate } from "./follows.ops.ts";
import { EXPIRE_MUTE_JOB } from "./relationships.job-names.ts";
import { accountInput, relationshipAction, signedIn } from "./relationships.policy.ts";
import { activeRelation } from "./relationships.read.ts";
import { text } from "../input-limits.ts";
import { inTransaction } from "../transaction.ts";

function upsertRelation(ctx: Ctx, sourceId: string, targetId: string, type: RelationshipType, expiresAt: Date | null = null, apId?: string) {
  return ctx.db.userRelationship.upsert({
    where: { sourceId_targetId_type: { sourceId, targetId, type } },
    create: { id: newId(), sourceId, targetId, type, expiresAt, apId: apId ?? null },
    update: { expiresAt, ...(apId ? { apId } : {}) },
  });
}

/**
 * `blocker` blocks `target`: follows and follow requests between them end in both directions,
 * as do subscriptions, endorsements and list memberships (each leaves the other's lists).
 */
export async function blockAs(ctx: Ctx, blocker: Account, target: Account, apId?: string) {
  if (blocker.id === target.id) throw Invalid("Can not block yourself");
  const between = { OR: [{ sourceId: blocker.id, targetId: target.id }, { sourceId: target.id, targetId: blocker.id }] };
  const theirFollow = await ctx.db.follow.findFirst({ where: { followerId: target.id, followingId: blocker.id, state: { in: ["pending", "accept"] } } });
  await inTransaction(ctx, async (tx) => {
    await upsertRelation(tx, blocker.id, target.id, "block", null, apId);
    await tx.db.follow.deleteMany({ where: { OR: [{ followerId: blocker.id, followingId: target.id }, { followerId: target.id, followingId: blocker.id }] } });
    await tx.db.userRelationship.deleteMany({ where: { type: { in: ["subscription", "endorsement"] }, ...between } });
    await leaveFollowerLists(tx, blocker.id, target.id);
    await leaveFollowerLists(tx, target.id, blocker.id);
    // federation: the Block activity goes to a remote target here, committed with the block
    if (blocker.local && !target.local) {
      const block = await tx.db.userRelationship.findUnique({ where: { sourceId_targetId_type: { sourceId: blocker.id, targetId: target.id, type: "block" } }, select: { id: true } });
      if (block) await federate(tx, { type: "block", blockId: block.id });
    }
  });
  // The blocked account's follow ends as if rejected; the blocker's own follow ended as an unfollow.
  if (theirFollow) await publishFollowUpdate(ctx, target.id, blocker.id, "follow_reject");
}

export async function unblockAs(ctx: Ctx, blocker: Account, target: Account) {
  await inTransaction(ctx, async (tx) => {
    const block = blocker.local && !target.local ? await tx.db.userRelationship.findUnique({ where: { sourceId_targetId_type: { sourceId: blocker.id, targetId: target.id, type: "block" } }, select: { id: true } }) : null;
    await tx.db.userRelationship.deleteMany({ where: { sourceId: blocker.id, targetId: target.id, type: "block" } });
    // federation: an Undo of the Block goes to a remote target here, committed with the unblock
    if (block) await federate(tx, { type: "block.undo", blockId: block.id, sourceId: blocker.id, targetId: target.id });
  });
}

export interface MuteOptions {
  /** also hide notifications from the account (default true) */
  notifications?: boolean;
  /** seconds; absent or 0 mutes indefinitely */
  duration?: number;
}

/**
 * `muter` mutes `target`. Muting again replaces the options. A limited mute is ignored by every read
 * once it expires, and a durable job scheduled at the expiry deletes its rows.
 */
export async function muteAs(ctx: Ctx, muter: Account, target: Account, opts: MuteOptions = {}) {
  if (muter.id === target.id) throw Invalid("Can not mute yourself");
  const seconds = opts.duration ?? 0;
  const expiresAt = seconds > 0 ? new Date(ctx.clock().getTime() + seconds * 1000) : null;
  // the mute and the job that ends it commit together (src/domain/transaction.ts)
  await inTransaction(ctx, async (tx) => {
    await upsertRelation(tx, muter.id, target.id, "mute", expiresAt);
    if (opts.notifications === false) await tx.db.userRelationship.deleteMany({ where: { sourceId: muter.id, targetId: target.id, type: "notification_mute" } });
    else await upsertRelation(tx, muter.id, target.id, "notification_mute", expiresAt);
    if (expiresAt) await tx.jobs.enqueue(EXPIRE_MUTE_JOB, { sourceId: muter.id, targetId: target.id }, { runAt: expiresAt });
  });
}

export async function unmuteAs(ctx: Ctx, muter: Account, target: Account) {
  await ctx.db.userRelationship.deleteMany({ where: { sourceId: muter.id, targetId: target.id, type: { in: ["mute", "notification_mute"] } } });
}

/** The job at a mute's expiry: deletes the pair's mute rows whose time has come (a later re-mute keeps its own). */
export async function expireMutes(ctx: Ctx, payload: { sourceId: string; targetId: string }) {
  const slack = new Date(ctx.clock().getTime() + 1000); // the job may be claimed a moment before the row's own instant
  await ctx.db.userRelationship.deleteMany({
    where: { sourceId: payload.sourceId, targetId: payload.targetId, type: { in: ["mute", "notification_mute"] }, expiresAt: { lte: slack } },
  });
}

export const blockAccount = relationshipAction("relationships.block", accountInput, (ctx, me, target) => blockAs(ctx, me, target), { scopes: ["follow", "write:blocks"] });
export const unblockAccount = relationshipAction("relationships.unblock", accountInput, (ctx, me, target) => unblockAs(ctx, me, target), { scopes: ["follow", "write:blocks"] });

export const muteAccount = relationshipAction(
  "relationships.mute",
  accountInput.extend({
    notifications: bool().optional(),
    /** the reference API's name */
    duration: int().optional(),
    /** the family's name (seconds); `duration` wins when both are given */
    expires_in: int().optional(),
  }),
  (ctx, me, target, input) => muteAs(ctx, me, target, { notifications: input.notifications, duration: input.duration ?? input.expires_in }),
  { scopes: ["follow", "write:mutes"] },
);

export const unmuteAccount = relationshipAction("relationships.unmute", accountInput, (ctx, me, target) => unmuteAs(ctx, me, target), { scopes: ["follow", "write:mutes"] });

/** A private note about an account; an empty comment removes it. */
export const setAccountNote = relationshipAction("relationships.note", accountInput.extend({ comment: text().default("") }), async (ctx, me, target, input) => {
  if (input.comment === "") {
    await ctx.db.accountNote.deleteMany({ where: { authorId: me.id, targetId: target.id } });
    return;
  }
  await ctx.db.accountNote.upsert({
    where: { authorId_targetId: { authorId: me.id, targetId: target.id } },
    create: { id: newId(), authorId: me.id, targetId: target.id, comment: input.comment },
    update: { comment: input.comment },
  });
}, { scopes: ["write:accounts"] });

export interface RelatedAccount {
  account: Account;
  /** when a limited mute ends */
  expiresAt: Date | null;
}

/** The viewer's blocked or (unexpired) muted accounts, newest first, paged by relationship row id. */
async function relatedAccounts(ctx: Ctx, type: "block" | "mute", input: z.output<typeof pageInput>): Promise<Page<RelatedAccount>> {
  const me = requireAccount(ctx);
  const page = keyset(input);
  const rows = await ctx.db.userRelationship.findMany({
    where: {
      sourceId: me.id,
      type,
      target: { deactivated: false },
      AND: [activeRelation(ctx.clock())],
      ...(page.cursor ? { id: page.cursor } : {}),
    },
    include: { target: true },
    orderBy: { id: page.order },
    take: page.take,
  });
  const result = page.finish(rows, (r) => r.id);
  return { ...result, items: result.items.map((r) => ({ account: r.target, expiresAt: r.expiresAt })) };
}

export const listBlocks = operation({ name: "relationships.blocks", access: { scopes: ["follow", "read:blocks"] }, input: pageInput, authorize: signedIn, run: (ctx, input) => relatedAccounts(ctx, "block", input) });
export const listMutes = operation({ name: "relationships.mutes", access: { scopes: ["follow", "read:mutes"] }, input: pageInput, authorize: signedIn, run: (ctx, input) => relatedAccounts(ctx, "mute", input) });
