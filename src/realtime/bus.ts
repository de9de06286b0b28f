// One typed event bus for every realtime consumer (GraphQL subscriptions, streaming API, web push).
// In-process by default; with REDIS_URL it runs over Redis pub/sub (redis-bus.ts), so events CROSS PROCESSES:
// - payloads must stay JSON-serialisable plain objects (ids and small facts, no Dates, no class instances);
// - every process's subscribers receive every event, once per process: a subscriber may update what its
//   own process holds (sockets, caches, settings) but must never enqueue jobs or write to the database,
//   or each process would do it once. Do durable work where the event is published.
// Each listener of an event is called on its own, and a subscriber that stops reading is dropped (pubsub.ts).
// the pub/sub alone, not graphql-yoga: its entry loads the whole GraphQL server (≈17 MB), which a
// process that serves no GraphQL request yet does not need (src/server.ts loads it on demand)
import type { PubSub } from "@graphql-yoga/subscription";
import { isolatingListeners, pubSub } from "./pubsub.ts";
import { createRedisTopicTarget } from "./redis-bus.ts";

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
  /** a local account signed up (the admin UI's users page shows it live) */
  account_registered: [payload: { accountId: string }];
  /** a report was filed (staff subscriptions show them live) */
  report: [payload: { reportId: string }];
  /** the runtime configuration changed in the database: every process reloads it */
  config_changed: [payload: {}];
  /** custom emoji packs changed on disk (shared by the processes): every process rescans them */
  emoji_changed: [payload: {}];
  /** an announcement was created, changed or deleted (the streaming API tells users of active ones) */
  announcement: [payload: { id: string; change: "created" | "updated" | "deleted" }];
  /** one side's chat changed: a new message (the `user:<ns>_chat` stream's `<ns>:chat_update`), or messages read */
  chat_update: [payload: { accountId: string; chatId: string; change: "message" | "read" }];
  /** a status was stored (posted, published from a schedule, reblogged): the streams' `update` */
  status_created: [payload: { statusId: string; /** its author (absent from processes of earlier versions) */ accountId?: string }];
  /** a status was edited: the streams' `status.update` */
  status_updated: [payload: { statusId: string }];
  /** what every viewer sees of these statuses changed (counts, reactions, poll, media, pin…; `all`: too many to name): status-cache.ts drops them */
  statuses_changed: [payload: { ids: string[] } | { all: true }];
  /** a status was deleted (also each reblog deleted with it): the streams' `delete`, routed without the row */
  status_deleted: [payload: DeletedStatus];
  /** a direct status bumped one participant's conversation: that account's `direct` stream */
  conversation: [payload: { accountId: string; conversationId: string }];
  /** accounts (`a:<id>`), OAuth tokens (`t:<id>`), apps (`p:<id>`), browser sessions (`s:<id>`), follows (`f:<account id>`) or what an account sees (`v:<account id>`: blocks, mutes, filters…) were written, or too many of one kind to name: the row caches drop them (src/db/row-writes.ts `RowWrites`, src/domain/row-caches.ts) */
  viewers_changed: [payload: { keys: string[] } | { all: "a" | "t" | "p" | "s" | "f" | "v" }];
  /** an account's keyword filters changed: its `user` stream's `filters_changed` */
  filters_changed: [payload: { accountId: string }];
  /** these local accounts wrote something through an API (REST, GraphQL): their cached pages are dropped (src/http/routes/page-cache.ts) */
  viewers_wrote: [payload: { accountIds: string[] }];
};

/** A deleted status as the streams route its `delete` (src/domain/streams/streams.read.ts `deletedStatuses` builds it). */
export interface DeletedStatus {
  statusId: string;
  accountId: string;
  visibility: string;
  recipientIds: string[];
  reblogOfId: string | null;
  local: boolean;
  /** the author's domain (null when local) */
  domain: string | null;
  tags: string[];
  hasMedia: boolean;
  context: string;
  inReplyToAccountId: string | null;
}

export type Bus = PubSub<BusEvents> & {
  /** the Redis channel of each topic is `<redisPrefix><topic>`; undefined when in-process */
  redisPrefix?: string;
  /** closes the Redis connections, if any (server shutdown) */
  close(): Promise<void>;
  /**
   * Calls `listener(true)` when events of other processes may be missed from now on (the connection to
   * Redis dropped, or is not made yet: at once if so) and `listener(false)` once they arrive again; never
   * in-process. What is kept on the strength of events (the caches) keeps nothing meanwhile. Answers the
   * function that stops it.
   */
  onGap(listener: (down: boolean) => void): () => void;
  /** whether Redis answers a PING within `timeoutMs` (the healthcheck); undefined when in-process */
  redisReachable?(timeoutMs: number): Promise<boolean>;
};

/** In-process without options; over Redis with `{url, prefix}` (prefix: channelPrefix in redis-bus.ts). */
export function createBus(redis?: { url: string; prefix: string; log?: (message: string) => void }): Bus {
  const log = redis?.log ?? ((message: string) => console.error(`[bus] ${message}`));
  if (!redis) return Object.assign(pubSub(isolatingListeners(new EventTarget(), log)), { close: async () => {}, onGap: () => () => {} });
  const { target, close, onGap, reachable } = createRedisTopicTarget(redis);
  const pubsub = pubSub(isolatingListeners(target, log));
  return Object.assign(pubsub, { redisPrefix: redis.prefix, close, onGap, redisReachable: reachable });
}
