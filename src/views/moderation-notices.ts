// What the instance tells an account about moderation: the reference API's AccountWarning (in
// `moderation_warning` notifications) and RelationshipSeveranceEvent (in `severed_relationships` ones
// and at /api/v1/severed_relationships). src/domain/notifications/moderation-notices.read.ts loads them.
import type { SeveranceShare } from "../../src/domain/notifications/moderation-notices.read.ts";
import type { AccountWarning } from "../../src/generated/prisma/client.ts";

/** `target_account` is the warned account itself (the notification's reader), rendered by the caller's batch. */
export function renderWarning(w: AccountWarning, targetAccount: unknown) {
  return {
    id: w.id,
    action: w.action,
    text: w.text,
    // the reference documents null for none; masto (and clients) type it as a list
    status_ids: w.statusIds,
    target_account: targetAccount ?? null,
    // appeals are not taken (docs/compatibility.md)
    appeal: null,
    created_at: w.createdAt.toISOString(),
  };
}

/** The account's share of the event: its own counts, under the account-level id (the one the lists are read by). */
export function renderSeveranceEvent(share: SeveranceShare) {
  return {
    id: share.id,
    type: share.event.type,
    purged: share.event.purged,
    target_name: share.event.targetName,
    followers_count: share.followersCount,
    following_count: share.followingCount,
    created_at: share.event.createdAt.toISOString(),
  };
}
