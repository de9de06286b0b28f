// The Relationship entity: the reference API's fields plus the family's (subscribing, blocked_by…).
import type { RelationshipState } from "../../src/domain/relationships/relationships.read.ts";

export function renderRelationship(r: RelationshipState) {
  return {
    id: r.id,
    following: r.following,
    showing_reblogs: r.showingReblogs,
    notifying: r.notifying,
    followed_by: r.followedBy,
    blocking: r.blocking,
    blocked_by: r.blockedBy,
    muting: r.muting,
    muting_notifications: r.mutingNotifications,
    subscribing: r.subscribing,
    requested: r.requested,
    requested_by: r.requestedBy,
    domain_blocking: r.domainBlocking,
    endorsed: r.endorsed,
    note: r.note,
  };
}
