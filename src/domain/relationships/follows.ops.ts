// Follows: following (requests to locked accounts), unfollowing, answering follow requests,
// removing followers and the family's subscriptions. Every follow state change is published on the
// bus as `follow_relationships_update`.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, Follow, FollowState } from "../../generated/prisma/client.ts";
import { loadAccountCounts } from "../accounts/account-counts.ts";
import { resolveRemoteAccount } from "../accounts/accounts.read.ts";
import { normalizeHandle, RECORD_NOT_FOUND } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../../kernel/errors.ts";
import { bool } from "../inputs.ts";
import { leaveFollowerLists } from "../lists/lists.ops.ts";
import { followRequestAccepted, notify } from "../notifications/notify.ts";
import { inTransaction } from "../transaction.ts";
import { federate } from "../federation/outbox.ts";
import { operation } from "../operation.ts";
import { sqlFor } from "../../db/sql.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { accountInput, relationshipAction, signedIn } from "./relationships.policy.ts";
import { activeRelation, relationshipWith, type RelationshipState } from "./relationships.read.ts";
import { accountByName } from "../../db/account-names.ts";

export type FollowEventState = "follow_pending" | "follow_accept" | "follow_reject";

/** Publishes a follow state change with both accounts' fresh counts. */
export async function publishFollowUpdate(ctx: Ctx, followerId: string, followingId: string, state: FollowEventState) {
  const counts = await loadAccountCounts(ctx, [followerId, followingId]);
  const side = (id: string) => ({ id, follower_count: counts.get(id)!.followers, following_count: counts.get(id)!.following });
  ctx.bus.publish("follow_relationships_update", { state, follower: side(followerId), following: side(followingId) });
}

/** Active blocks between two accounts, in both directions. */
export async function blocksBetween(ctx: Ctx, a: string, b: string) {
  const rows = await ctx.db.userRelationship.findMany({
    where: { type: "block", AND: [activeRelation(ctx.clock()), { OR: [{ sourceId: a, targetId: b }, { sourceId: b, targetId: a }] }] },
  });
  return { aBlocksB: rows.some((r) => r.sourceId === a), bBlocksA: rows.some((r) => r.sourceId === b) };
}

/**
 * blocksBetween(a, b) and a's follow of b (any state), in one statement: every follow starts with both.
 * The follow comes as JSON; its timestamps (UTC wall times, as Prisma stores them) become Dates again.
 */
async function blocksAndFollow(ctx: Ctx, a: string, b: string): Promise<{ blocks: { aBlocksB: boolean; bBlocksA: boolean }; existing: Follow | null }> {
  type Row = { blockers: string[] | null; follow: (Omit<Follow, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string }) | null };
  const [row] = await sqlFor(ctx.db).query<Row>(
    `SELECT
      (SELECT json_agg(r.source_id) FROM user_relationships r
        WHERE r.type = 'block' AND (r.expires_at IS NULL OR r.expires_at > ($3::timestamptz AT TIME ZONE 'UTC'))
          AND ((r.source_id = $1 AND r.target_id = $2) OR (r.source_id = $2 AND r.target_id = $1))) AS blockers,
      (SELECT json_build_object('id', f.id, 'followerId', f.follower_id, 'followingId', f.following_id, 'state', f.state,
          'showReblogs', f.show_reblogs, 'notify', f.notify, 'apId', f.ap_id, 'createdAt', f.created_at, 'updatedAt', f.updated_at)
        FROM follows f WHERE f.follower_id = $1 AND f.following_id = $2) AS follow`,
    [a, b, ctx.clock().toISOString()],
  );
  const blockers = row?.blockers ?? [];
  const f = row?.follow ?? null;
  return {
    blocks: { aBlocksB: blockers.includes(a), bBlocksA: blockers.includes(b) },
    existing: f ? { ...f, createdAt: new Date(`${f.createdAt}Z`), updatedAt: new Date(`${f.updatedAt}Z`) } : null,
  };
}

/** Local accounts decide at once; a locked one (without followback permission) leaves the follow pending. Remote ones answer later. */
async function initialState(ctx: Ctx, follower: Account, target: Account): Promise<FollowState> {
  if (!target.local) return "pending"; // federation: the Follow activity is delivered here and the remote Accept flips it
  if (!target.locked) return "accept";
  if (target.permitFollowback) {
    const back = await ctx.db.follow.findFirst({ where: { followerId: target.id, followingId: follower.id, state: "accept" } });
    if (back) return "accept";
  }
  return "pending";
}

/** Keeps the subscription row (notify on new posts) in line with a follow's `notify`. */
async function setSubscription(ctx: Ctx, subscriberId: string, targetId: string, on: boolean) {
  if (on) {
    await ctx.db.userRelationship.upsert({
      where: { sourceId_targetId_type: { sourceId: subscriberId, targetId, type: "subscription" } },
      create: { id: newId(), sourceId: subscriberId, targetId, type: "subscription" },
      update: { expiresAt: null },
    });
  } else {
    await ctx.db.userRelationship.deleteMany({ where: { sourceId: subscriberId, targetId, type: "subscription" } });
  }
}

export interface FollowOptions {
  /** show the target's reblogs in the home timeline (new follows default to true) */
  reblogs?: boolean;
  /** be notified of the target's posts (new follows default to false) */
  notify?: boolean;
  /** the id of the Follow activity, for a follow received from another server */
  apId?: string;
}

/**
 * `follower` follows `target`: a new follow is accepted at once or left pending; following again
 * only updates the given options. Refusals are the family's: 400 for yourself, 403 otherwise.
 */
export async function followAs(ctx: Ctx, follower: Account, target: Account, opts: FollowOptions = {}) {
  if (follower.id === target.id) throw Invalid("Can not follow yourself");
  if (target.deactivated) throw Forbidden(`Could not follow user: ${target.nickname} is deactivated.`);
  const { blocks, existing } = await blocksAndFollow(ctx, follower.id, target.id);
  if (blocks.bBlocksA) throw Forbidden(`Could not follow user: ${target.nickname} blocked you.`);
  if (blocks.aBlocksB) throw Forbidden(`Could not follow user: you are blocking ${target.nickname}.`);

  const key = { followerId: follower.id, followingId: target.id };
  const isNew = !existing || existing.state === "reject";
  let follow;
  if (isNew) {
    const state = await initialState(ctx, follower, target);
    const fields = { state, showReblogs: opts.reblogs ?? true, notify: opts.notify ?? false, apId: opts.apId ?? null };
    // the follow, its notification and its delivery commit together (src/domain/transaction.ts)
    follow = await inTransaction(ctx, async (tx) => {
      const stored = await tx.db.follow.upsert({ where: { followerId_followingId: key }, create: { id: newId(), ...key, ...fields }, update: fields });
      await notify(tx, [{ accountId: target.id, type: stored.state === "accept" ? "follow" : "follow_request", fromAccountId: follower.id }]);
      // federation: a local account's Follow goes to a remote target (pending until its Accept comes back);
      // a remote follower accepted at once gets our Accept
      if (follower.local && !target.local) await federate(tx, { type: "follow", followId: stored.id });
      if (!follower.local && target.local && stored.state === "accept") await federate(tx, { type: "follow.accept", followId: stored.id });
      return stored;
    });
  } else if (opts.reblogs !== undefined || opts.notify !== undefined) {
    follow = await ctx.db.follow.update({
      where: { id: existing.id },
      data: { ...(opts.reblogs !== undefined ? { showReblogs: opts.reblogs } : {}), ...(opts.notify !== undefined ? { notify: opts.notify } : {}) },
    });
  } else if (opts.apId) {
    // a remote server following again (it lost its state): later answers name this Follow, and an
    // accepted one gets our Accept again
    follow = await inTransaction(ctx, async (tx) => {
      const updated = existing.apId === opts.apId ? existing : await tx.db.follow.update({ where: { id: existing.id }, data: { apId: opts.apId } });
      if (!follower.local && target.local && updated.state === "accept") await federate(tx, { type: "follow.accept", followId: updated.id });
      return updated;
    });
  } else {
    follow = existing;
  }
  if (opts.notify !== undefined) await setSubscription(ctx, follower.id, target.id, opts.notify);
  if (isNew) await publishFollowUpdate(ctx, follower.id, target.id, follow.state === "accept" ? "follow_accept" : "follow_pending");
  return follow;
}

/**
 * `follower` stops following (or cancels a request to) `target`, and drops the subscription, the
 * endorsement and the list memberships that went with it. Unfollowing someone not followed is a no-op
 * (as in the reference API).
 */
export async function unfollowAs(ctx: Ctx, follower: Account, target: Account) {
  if (follower.id === target.id) throw Invalid("Can not unfollow yourself");
  await inTransaction(ctx, async (tx) => {
    const undone = follower.local && !target.local ? await tx.db.follow.findUnique({ where: { followerId_followingId: { followerId: follower.id, followingId: target.id } } }) : null;
    await tx.db.follow.deleteMany({ where: { followerId: follower.id, followingId: target.id } });
    await tx.db.userRelationship.deleteMany({ where: { sourceId: follower.id, targetId: target.id, type: { in: ["subscription", "endorsement"] } } });
    await leaveFollowerLists(tx, follower.id, target.id);
    // federation: an Undo of the Follow goes to a remote target here, committed with the unfollow
    if (undone) await federate(tx, { type: "follow.undo", followId: undone.id, followApId: undone.apId, followerId: follower.id, followingId: target.id });
  });
  // The family streams this change with state "unfollow", which the bus's event type does not carry yet.
}

export const followAccount = relationshipAction(
  "relationships.follow",
  accountInput.extend({ reblogs: bool().optional(), notify: bool().optional() }),
  (ctx, me, target, input) => followAs(ctx, me, target, { reblogs: input.reblogs, notify: input.notify }),
  { scopes: ["follow", "write:follows"] },
);

/**
 * The family's POST /api/v1/follows: follow by nickname ("alice", "bob@remote.host"), not by id; a
 * remote account not stored yet (by handle or actor URL) is fetched first.
 */
export const followByUri = operation({
  name: "relationships.followByUri",
  access: { scopes: ["follow", "write:follows"] },
  input: z.object({ uri: z.string() }),
  authorize: signedIn,
  async run(ctx, input): Promise<RelationshipState> {
    const me = requireAccount(ctx);
    const nickname = normalizeHandle(ctx, input.uri);
    const known = nickname ? ((await accountByName(ctx.db, { nicknames: [nickname] })) ?? (await ctx.db.account.findUnique({ where: { apId: input.uri.trim() } }))) : null;
    const target = known ?? (await resolveRemoteAccount(ctx, input.uri.trim()));
    if (!target) throw NotFound(RECORD_NOT_FOUND);
    await followAs(ctx, me, target);
    return relationshipWith(ctx, me.id, target);
  },
});

export const unfollowAccount = relationshipAction("relationships.unfollow", accountInput, unfollowAs, { scopes: ["follow", "write:follows"] });

/** Ends the follow (accepted or requested) of `follower` towards the viewer, as the followed side: a reject. */
async function dropFollower(ctx: Ctx, me: Account, follower: Account, states: FollowState[]) {
  const follow = await ctx.db.follow.findFirst({ where: { followerId: follower.id, followingId: me.id, state: { in: states } } });
  if (!follow) throw NotFound(RECORD_NOT_FOUND);
  await inTransaction(ctx, async (tx) => {
    await tx.db.follow.delete({ where: { id: follow.id } });
    // the follower's lists lose the viewer; the viewer's own lists are untouched
    await leaveFollowerLists(tx, follower.id, me.id);
    // federation: a Reject of the Follow goes to a remote follower here, committed with the drop
    if (!follower.local && me.local) await federate(tx, { type: "follow.reject", followId: follow.id, followApId: follow.apId, followerId: follower.id, followingId: me.id });
  });
  await publishFollowUpdate(ctx, follower.id, me.id, "follow_reject");
}

export const removeFromFollowers = relationshipAction("relationships.removeFromFollowers", accountInput, async (ctx, me, follower) => {
  if (follower.id === me.id) throw Invalid("Can not unfollow yourself");
  await dropFollower(ctx, me, follower, ["accept", "pending"]);
}, { scopes: ["follow", "write:follows"] });

export const authorizeFollowRequest = relationshipAction("relationships.authorizeFollowRequest", accountInput, async (ctx, me, follower) => {
  const follow = await ctx.db.follow.findFirst({ where: { followerId: follower.id, followingId: me.id, state: { in: ["pending", "accept"] } } });
  if (!follow) throw NotFound(RECORD_NOT_FOUND);
  if (follow.state === "pending") {
    await inTransaction(ctx, async (tx) => {
      await tx.db.follow.update({ where: { id: follow.id }, data: { state: "accept" } });
      await followRequestAccepted(tx, follower.id, me.id);
      // federation: an Accept of the Follow goes to a remote follower here, committed with the answer
      if (!follower.local) await federate(tx, { type: "follow.accept", followId: follow.id });
    });
    await publishFollowUpdate(ctx, follower.id, me.id, "follow_accept");
  }
}, { scopes: ["follow", "write:follows"] });

export const rejectFollowRequest = relationshipAction("relationships.rejectFollowRequest", accountInput, (ctx, me, follower) => dropFollower(ctx, me, follower, ["pending"]), { scopes: ["follow", "write:follows"] });

/** Accounts waiting for the viewer's answer, paged by follow id. */
export const listFollowRequests = operation({
  name: "relationships.followRequests",
  access: { scopes: ["follow", "read:follows"] },
  input: pageInput,
  authorize: signedIn,
  async run(ctx, input): Promise<Page<Account>> {
    const me = requireAccount(ctx);
    const page = keyset(input);
    const rows = await ctx.db.follow.findMany({
      where: { followingId: me.id, state: "pending", follower: { deactivated: false }, ...(page.cursor ? { id: page.cursor } : {}) },
      include: { follower: true },
      orderBy: { id: page.order },
      take: page.take,
    });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: result.items.map((r) => r.follower) };
  },
});

/** The family's subscriptions: be notified of an account's posts, following it or not. */
export const subscribeToAccount = relationshipAction("relationships.subscribe", accountInput, async (ctx, me, target) => {
  if (target.id === me.id) throw Forbidden("Can not subscribe to yourself");
  const blocks = await blocksBetween(ctx, me.id, target.id);
  if (blocks.bBlocksA) throw Forbidden(`Could not subscribe: ${target.nickname} is blocking you`);
  await setSubscription(ctx, me.id, target.id, true);
  await ctx.db.follow.updateMany({ where: { followerId: me.id, followingId: target.id }, data: { notify: true } });
}, { scopes: ["follow", "write:follows"] });

export const unsubscribeFromAccount = relationshipAction("relationships.unsubscribe", accountInput, async (ctx, me, target) => {
  await setSubscription(ctx, me.id, target.id, false);
  await ctx.db.follow.updateMany({ where: { followerId: me.id, followingId: target.id }, data: { notify: false } });
}, { scopes: ["follow", "write:follows"] });
