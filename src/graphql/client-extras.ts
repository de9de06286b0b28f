// More client operations over GraphQL, each calling the operation its REST route calls: one
// notification, dismissing several, a notification group's accounts, read markers, conversations
// (one, its statuses, its recipients, all read), followed hashtags, and the announcements of the day
// with their reactions.
import type { Status } from "../generated/prisma/client.ts";
import { activeAnnouncements, addAnnouncementReaction, dismissAnnouncement, removeAnnouncementReaction } from "../domain/announcements/announcements.ops.ts";
import { conversationStatuses, readAllConversations, showConversation, updateConversationRecipients } from "../domain/conversations/conversations.ops.ts";
import { notificationGroupAccounts } from "../domain/notifications/groups.ts";
import { getMarkers, saveMarkers, type MarkerView } from "../domain/notifications/markers.ops.ts";
import { destroyNotifications, getNotification } from "../domain/notifications/notifications.ops.ts";
import { followTag, listFollowedTags, showTag, unfollowTag, type TagView } from "../domain/tags/followed-tags.ops.ts";
import { AnnouncementRef } from "./announcements.ts";
import { builder } from "./builder.ts";
import { Conversation } from "./conversations.ts";
import { Notification } from "./notifications.ts";
import { AccountType, relayConnection, StatusType } from "./paging.ts";
import { StatusConnection } from "./timelines.ts";
import { accessOf } from "./access.ts";

const Marker = builder.objectRef<MarkerView & { timeline: string }>("Marker").implement({
  fields: (t) => ({
    timeline: t.exposeString("timeline"),
    lastReadId: t.id({ resolve: (m) => m.marker.lastReadId }),
    version: t.int({ resolve: (m) => m.marker.version }),
    updatedAt: t.field({ type: "DateTime", resolve: (m) => m.marker.updatedAt }),
    unreadCount: t.int({ nullable: true, description: "unseen notifications (the notifications marker only)", resolve: (m) => m.unreadCount ?? null }),
  }),
});
const markerList = (markers: Partial<Record<string, MarkerView>>) => Object.entries(markers).map(([timeline, m]) => ({ ...m!, timeline }));

const TagRef = builder.objectRef<TagView>("Tag").implement({
  fields: (t) => ({
    name: t.string({ resolve: (v) => v.tag.name }),
    url: t.string({ resolve: (v, _a, ctx) => `${ctx.settings.baseUrl}/tag/${encodeURIComponent(v.tag.name)}` }),
    following: t.boolean({ nullable: true, description: "null when anonymous", resolve: (v) => v.following }),
  }),
});
const TagConnection = builder.connectionObject({ type: TagRef, name: "TagConnection" });

builder.queryFields((t) => ({
  notification: t.field({ ...accessOf(getNotification), type: Notification, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => getNotification(ctx, { id: String(a.id) }) }),
  notificationGroupAccounts: t.field({
    ...accessOf(notificationGroupAccounts),
    type: [AccountType],
    args: { groupKey: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => notificationGroupAccounts(ctx, { group_key: a.groupKey }),
  }),
  markers: t.field({
    ...accessOf(getMarkers),
    type: [Marker],
    args: { timelines: t.arg.stringList({ description: "home, notifications; all when absent" }) },
    resolve: async (_r, a, ctx) => markerList(await getMarkers(ctx, { timeline: a.timelines ?? undefined })),
  }),
  conversation: t.field({ ...accessOf(showConversation), type: Conversation, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showConversation(ctx, { id: String(a.id) }) }),
  conversationStatuses: t.connection(
    {
      ...accessOf(conversationStatuses),
      type: StatusType,
      args: { id: t.arg.id({ required: true }) },
      resolve: (_r, a, ctx) => relayConnection(a, (p) => conversationStatuses(ctx, { ...p, id: String(a.id) }), { cursorOf: (s: Status) => s.id, floor: "0" }),
    },
    StatusConnection,
  ),
  tag: t.field({ ...accessOf(showTag), type: TagRef, args: { name: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => showTag(ctx, { name: a.name }) }),
  followedTags: t.connection(
    { ...accessOf(listFollowedTags), type: TagRef, resolve: (_r, a, ctx) => relayConnection(a, (p) => listFollowedTags(ctx, p), { cursorOf: (v) => v.tag.id, floor: "0", itemCursors: false }) },
    TagConnection,
  ),
  announcements: t.field({ ...accessOf(activeAnnouncements), type: [AnnouncementRef], description: "The announcements active now, oldest first", resolve: (_r, _a, ctx) => activeAnnouncements(ctx, {}) }),
}));

builder.mutationFields((t) => ({
  dismissNotifications: t.boolean({
    ...accessOf(destroyNotifications),
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_r, a, ctx) => (await destroyNotifications(ctx, { ids: a.ids.map(String) }), true),
  }),
  saveMarkers: t.field({
    ...accessOf(saveMarkers),
    type: [Marker],
    args: { home: t.arg.id(), notifications: t.arg.id() },
    resolve: async (_r, a, ctx) =>
      markerList(
        await saveMarkers(ctx, {
          home: a.home ? { last_read_id: String(a.home) } : undefined,
          notifications: a.notifications ? { last_read_id: String(a.notifications) } : undefined,
        }),
      ),
  }),
  readAllConversations: t.field({ ...accessOf(readAllConversations), type: [Conversation], resolve: (_r, _a, ctx) => readAllConversations(ctx, {}) }),
  updateConversationRecipients: t.field({
    ...accessOf(updateConversationRecipients),
    type: Conversation,
    args: { id: t.arg.id({ required: true }), recipients: t.arg.idList({ required: true }) },
    resolve: (_r, a, ctx) => updateConversationRecipients(ctx, { id: String(a.id), recipients: a.recipients.map(String) }),
  }),
  followTag: t.field({ ...accessOf(followTag), type: TagRef, args: { name: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => followTag(ctx, { name: a.name }) }),
  unfollowTag: t.field({ ...accessOf(unfollowTag), type: TagRef, args: { name: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => unfollowTag(ctx, { name: a.name }) }),
  dismissAnnouncement: t.boolean({
    ...accessOf(dismissAnnouncement),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await dismissAnnouncement(ctx, { id: String(a.id) }), true),
  }),
  addAnnouncementReaction: t.boolean({
    ...accessOf(addAnnouncementReaction),
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await addAnnouncementReaction(ctx, { id: String(a.id), name: a.name }), true),
  }),
  removeAnnouncementReaction: t.boolean({
    ...accessOf(removeAnnouncementReaction),
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await removeAnnouncementReaction(ctx, { id: String(a.id), name: a.name }), true),
  }),
}));
