// Live timelines, notifications and follow-relationship updates over graphql-ws, fed by the stream
// engine of the streaming API (src/domain/streams/): the same streams, the same authorization and
// the same per-subscriber inclusion rules (visibility, blocks, mutes, domain blocks, filters). Each
// event resolves with fresh batch loaders of the subscriber, so viewer-dependent fields are current.
import { Repeater, SlidingBuffer } from "graphql-yoga";
import type { Ctx } from "../domain/context.ts";
import { Forbidden, NotFound } from "../kernel/errors.ts";
import { createLoaders } from "../domain/loaders.ts";
import type { FollowSide } from "../realtime/bus.ts";
import { streamHub, type Delivery } from "../domain/streams/hub.ts";
import { authorizeStream, parseStream, type StreamParams } from "../domain/streams/specs.ts";
import { builder } from "./builder.ts";
import { accessOf } from "./access.ts";
import { listTimeline } from "../domain/lists/lists.ops.ts";
import { listNotifications } from "../domain/notifications/notifications.ops.ts";
import { homeTimeline, publicTimeline, tagTimeline } from "../domain/timelines/timelines.ops.ts";
import { AnnouncementRef } from "./announcements.ts";
import { Chat } from "./chats.ts";
import { Conversation } from "./conversations.ts";
import { Notification } from "./notifications.ts";
import { StatusType } from "./paging.ts";
import "./statuses.ts";

/** events kept for a subscriber that reads slowly; older ones are dropped first */
const BACKLOG = 100;

type Of<D, E> = D extends { event: infer X } ? (E extends X ? D : never) : never;
type DeliveryOf<E extends Delivery["event"]> = Of<Delivery, E>;

/** The stream's deliveries of the given events, once the viewer is allowed to read it. */
async function listen<E extends Delivery["event"]>(ctx: Ctx, params: StreamParams, events: readonly E[]): Promise<AsyncIterable<DeliveryOf<E>>> {
  const spec = parseStream(ctx.settings.namespace, params);
  if (!spec) throw NotFound("Unknown stream");
  const refusal = await authorizeStream(ctx, spec);
  if (refusal === "unauthorized") throw Forbidden("Invalid credentials.");
  if (refusal) throw NotFound("Record not found");
  const hub = streamHub(ctx);
  return new Repeater<DeliveryOf<E>>(async (push, stop) => {
    const remove = hub.add({
      viewer: ctx.viewer,
      streams: [spec],
      deliver: (d) => void ((events as readonly string[]).includes(d.event) && push(d as DeliveryOf<E>)),
    });
    await stop;
    remove();
  }, new SlidingBuffer(BACKLOG));
}

/** The subscription's context serves every event: start each with empty loaders. */
function fresh(ctx: Ctx): Ctx {
  ctx.loaders = createLoaders(ctx);
  return ctx;
}

/** the follow updates of the `user` stream, which no read operation serves: the scope the streaming API asks for it */
const userStream = { authScopes: { scopes: ["read:statuses"] } };

const FollowSideRef = builder.objectRef<FollowSide>("FollowRelationshipSide").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    followerCount: t.exposeInt("follower_count"),
    followingCount: t.exposeInt("following_count"),
  }),
});

type FollowUpdate = Extract<Delivery, { event: "follow_relationships_update" }>["update"];

const FollowRelationshipsUpdate = builder.objectRef<FollowUpdate>("FollowRelationshipsUpdate").implement({
  description: "A follow changed state: `follow_pending`, `follow_accept` or `follow_reject`, with both sides' counts",
  fields: (t) => ({
    state: t.exposeString("state"),
    follower: t.field({ type: FollowSideRef, resolve: (u) => u.follower }),
    following: t.field({ type: FollowSideRef, resolve: (u) => u.following }),
  }),
});

// A live timeline (or notification list) is guarded as its read is: the operation REST and the Query field run
// for it declares who may read it, page by page or as it grows. Pothos checks field auth per event; the start
// of the subscription is checked by the stream's own rules (authorizeStream, shared with the streaming API).
builder.subscriptionFields((t) => ({
  homeTimelineUpdated: t.field({
    ...accessOf(homeTimeline),
    type: StatusType,
    description: "Each new status of the viewer's home timeline (the streaming API's `user` stream)",
    subscribe: (_r, _a, ctx) => listen(ctx, { stream: "user" }, ["update"]),
    resolve: (d, _a, ctx) => (fresh(ctx), d.facts.status),
  }),
  publicTimelineUpdated: t.field({
    ...accessOf(publicTimeline),
    type: StatusType,
    description: "Each new status of the public timeline: `local` ones only, or those of one remote `instance`; `onlyMedia` with attachments",
    args: { local: t.arg.boolean(), onlyMedia: t.arg.boolean(), instance: t.arg.string() },
    subscribe: (_r, a, ctx) => {
      const base = a.instance ? "public:remote" : a.local ? "public:local" : "public";
      return listen(ctx, { stream: a.onlyMedia ? `${base}:media` : base, instance: a.instance ?? undefined }, ["update"]);
    },
    resolve: (d, _a, ctx) => (fresh(ctx), d.facts.status),
  }),
  hashtagTimelineUpdated: t.field({
    ...accessOf(tagTimeline),
    type: StatusType,
    description: "Each new status with the hashtag (`local`: posted here)",
    args: { tag: t.arg.string({ required: true }), local: t.arg.boolean() },
    subscribe: (_r, a, ctx) => listen(ctx, { stream: a.local ? "hashtag:local" : "hashtag", tag: a.tag }, ["update"]),
    resolve: (d, _a, ctx) => (fresh(ctx), d.facts.status),
  }),
  listTimelineUpdated: t.field({
    ...accessOf(listTimeline),
    type: StatusType,
    description: "Each new status of one of the viewer's lists",
    args: { listId: t.arg.id({ required: true }) },
    subscribe: (_r, a, ctx) => listen(ctx, { stream: "list", list: String(a.listId) }, ["update"]),
    resolve: (d, _a, ctx) => (fresh(ctx), d.facts.status),
  }),
  notificationReceived: t.field({
    ...accessOf(listNotifications),
    type: Notification,
    description: "Each new notification of the viewer (not from muted accounts, as the list shows them)",
    subscribe: (_r, _a, ctx) => listen(ctx, { stream: "user:notification" }, ["notification"]),
    resolve: (d, _a, ctx) => (fresh(ctx), d.notification),
  }),
  followRelationshipsUpdated: t.field({
    ...userStream,
    type: FollowRelationshipsUpdate,
    description: "Each change of a follow where the viewer is the follower or the followed account",
    subscribe: (_r, _a, ctx) => listen(ctx, { stream: "user" }, ["follow_relationships_update"]),
    resolve: (d) => d.update,
  }),
}));

/**
 * Every event the streaming API sends, by its name there. Typed as a record of the stream engine's
 * events, so an event added there without being listed here fails the type check.
 */
const STREAM_EVENTS: Record<Delivery["event"], string> = {
  update: "a new status (`status`)",
  "status.update": "an edited status (`status`)",
  delete: "a deleted status (`deletedStatusId`)",
  notification: "a new notification (`notification`)",
  conversation: "a direct conversation changed (`conversation`)",
  filters_changed: "the viewer's filters changed (no payload: read them again)",
  announcement: "an announcement published or changed (`announcement`)",
  "announcement.delete": "an announcement withdrawn (`deletedAnnouncementId`)",
  follow_relationships_update: "a follow changed state (`followRelationshipsUpdate`)",
  chat_update: "a chat changed: a message, read marks (`chat`)",
};
export const STREAM_EVENT_NAMES = Object.keys(STREAM_EVENTS) as Delivery["event"][];

const StreamEvent = builder.objectRef<Delivery>("StreamEvent").implement({
  description: `One event of a stream, as the streaming API sends it; \`event\` names it and one field carries it:\n${Object.entries(STREAM_EVENTS)
    .map(([e, what]) => `- \`${e}\`: ${what}`)
    .join("\n")}`,
  fields: (t) => ({
    event: t.string({ resolve: (d) => d.event }),
    stream: t.stringList({ description: "the stream it came on, as the streaming API names it", resolve: (d) => d.stream.wire }),
    status: t.field({ type: StatusType, nullable: true, resolve: (d) => (d.event === "update" || d.event === "status.update" ? d.facts.status : null) }),
    deletedStatusId: t.id({ nullable: true, resolve: (d) => (d.event === "delete" ? d.statusId : null) }),
    notification: t.field({ type: Notification, nullable: true, resolve: (d) => (d.event === "notification" ? d.notification : null) }),
    conversation: t.field({ type: Conversation, nullable: true, resolve: (d) => (d.event === "conversation" ? d.conversation : null) }),
    announcement: t.field({ type: AnnouncementRef, nullable: true, resolve: (d) => (d.event === "announcement" ? d.announcement : null) }),
    deletedAnnouncementId: t.id({ nullable: true, resolve: (d) => (d.event === "announcement.delete" ? d.announcementId : null) }),
    followRelationshipsUpdate: t.field({ type: FollowRelationshipsUpdate, nullable: true, resolve: (d) => (d.event === "follow_relationships_update" ? d.update : null) }),
    chat: t.field({ type: Chat, nullable: true, resolve: (d) => (d.event === "chat_update" ? d.chat : null) }),
  }),
});

builder.subscriptionFields((t) => ({
  streamEvents: t.field({
    type: StreamEvent,
    description:
      "Every event of one stream of the streaming API (`user`, `user:notification`, `public`, `public:local`, `public:media`, `public:remote`, `hashtag`, `hashtag:local`, `list`, `direct`, the chat stream…), with its parameters; the same authorization and the same per-subscriber rules as the streaming API",
    args: { stream: t.arg.string({ required: true }), tag: t.arg.string(), list: t.arg.id(), instance: t.arg.string() },
    subscribe: (_r, a, ctx) => listen(ctx, { stream: a.stream, tag: a.tag ?? undefined, list: a.list ? String(a.list) : undefined, instance: a.instance ?? undefined }, STREAM_EVENT_NAMES),
    resolve: (d, _a, ctx) => (fresh(ctx), d),
  }),
}));
