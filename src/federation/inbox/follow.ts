// Follow of a local account (locked accounts get a request; the Accept goes out from followAs), the
// answers to our Follows (Accept, Reject), and Undo of a Follow.
import { Follow, type Accept, type Reject } from "@fedify/vocab";
import { DomainError } from "../../kernel/errors.ts";
import { followAs, unfollowAs } from "../../domain/relationships/follows.ops.ts";
import { followAnswerTarget, remoteFollowAccepted, remoteFollowRejected } from "../../domain/relationships/remote-follows.ops.ts";
import { idOf, isObject } from "../remote/json.ts";
import { inbound, localAccountAt, type Inbound, type InboxCtx } from "./inbound.ts";
import { relayAnswer, relayFollow, relayUndoFollow } from "./relay.ts";

export async function onFollow(fctx: InboxCtx, follow: Follow) {
  const inb = await inbound(fctx, follow);
  if (inb && follow.id && (await relayFollow(inb, follow.id.href, follow.objectId?.href ?? null))) return;
  const target = inb && (await localAccountAt(fctx, follow.objectId));
  if (!inb || !target || !follow.id) return;
  try {
    await followAs(inb.ctx, inb.actor, target, { apId: follow.id.href });
  } catch (error) {
    // refused (blocked either way, deactivated target): nothing is stored
    if (!(error instanceof DomainError)) throw error;
  }
}

/** Our Follow the answer names: by its id, or as the Follow embedded in the answer (actor = our account). */
async function answeredFollow(inb: Inbound) {
  const object = inb.raw.object;
  const followApId = idOf(object);
  const follower = isObject(object) ? await localAccountAt(inb.fctx, idOf(object.actor)) : null;
  if (follower) return followAnswerTarget(inb.ctx, followApId, follower.id, inb.actor.id);
  if (!followApId) return null;
  const byId = await inb.ctx.db.follow.findFirst({ where: { apId: followApId, followingId: inb.actor.id } });
  if (byId) return byId;
  // our Follow ids are not always stored: the id names the follower in its path (render/activities.ts)
  const viaRecipient = await localAccountAt(inb.fctx, inb.fctx.recipient ? inb.fctx.getActorUri(inb.fctx.recipient) : null);
  return viaRecipient ? followAnswerTarget(inb.ctx, followApId, viaRecipient.id, inb.actor.id) : null;
}

export async function onAccept(fctx: InboxCtx, accept: Accept) {
  const inb = await inbound(fctx, accept);
  if (inb && (await relayAnswer(inb, "accept"))) return;
  const follow = inb && (await answeredFollow(inb));
  if (inb && follow) await remoteFollowAccepted(inb.ctx, follow);
}

export async function onReject(fctx: InboxCtx, reject: Reject) {
  const inb = await inbound(fctx, reject);
  if (inb && (await relayAnswer(inb, "reject"))) return;
  const follow = inb && (await answeredFollow(inb));
  if (inb && follow) await remoteFollowRejected(inb.ctx, follow);
}

/** Undo of a Follow: the remote account stops following (or withdraws its request). */
export async function undoFollow(inb: Inbound, object: unknown) {
  if (await relayUndoFollow(inb, object)) return;
  const followed = isObject(object) ? idOf(object.object) : null;
  let target = followed ? await localAccountAt(inb.fctx, followed) : null;
  if (!target) {
    const apId = idOf(object);
    const row = apId ? await inb.ctx.db.follow.findFirst({ where: { apId, followerId: inb.actor.id }, include: { following: true } }) : null;
    target = row?.following ?? null;
  }
  if (target?.local) await unfollowAs(inb.ctx, inb.actor, target);
}


