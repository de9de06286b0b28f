// One typed event bus for every realtime consumer (GraphQL subscriptions, streaming API, web push).
// In-process for now; with REDIS_URL a Redis event target makes it span nodes (realtime issue).
import { createPubSub } from "graphql-yoga";

export interface FollowSide {
  id: string;
  follower_count: number;
  following_count: number;
}

export type BusEvents = {
  /** a test/diagnostic event; real topics are added by the areas that publish them */
  ping: [payload: { at: string }];
  /** every follow state change; the streaming issue delivers it to both accounts' user streams */
  follow_relationships_update: [payload: { state: "follow_pending" | "follow_accept" | "follow_reject"; follower: FollowSide; following: FollowSide }];
  /** a notification was stored for a local account (streaming and web push deliver it) */
  notification: [payload: { accountId: string; notificationId: string }];
  /** a moderation-log entry was written (staff subscriptions show them live) */
  moderation_log: [payload: { id: number }];
  /** a report was filed (staff subscriptions show them live) */
  report: [payload: { reportId: string }];
};

export type Bus = ReturnType<typeof createBus>;

export function createBus() {
  return createPubSub<BusEvents>();
}
