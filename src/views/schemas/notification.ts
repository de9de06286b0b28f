// Notification (v1), grouped notifications (v2), Report as the reporter sees it, Chat and ChatMessage,
// Conversation, markers, moderation notices (views/notification.ts, notification-group.ts, report.ts,
// chat.ts, moderation-notices.ts; conversations.routes.ts).
import { z } from "zod";
import { AccountSchema, EmojiSchema } from "./account.ts";
import { MediaAttachmentSchema, StatusSchema } from "./status.ts";
import { extensions, shape, timestamp, view } from "./view.ts";

/** The fields the reporter's Report and the staff's Admin::Report share (reference-admin.ts). */
export const reportFields = () => ({
  id: z.string(),
  action_taken: z.boolean(),
  action_taken_at: timestamp().nullable(),
  category: z.string(),
  comment: z.string(),
  forwarded: z.boolean(),
  created_at: timestamp(),
});

export const ReportSchema = view("Report", (w) =>
  z.object({
    ...reportFields(),
    status_ids: z.array(z.string()),
    rule_ids: z.array(z.string()).nullable(),
    target_account: AccountSchema(w),
  }),
);

export const AccountWarningSchema = view("AccountWarning", (w) =>
  z.object({
    id: z.string(),
    action: z.string(),
    text: z.string(),
    status_ids: z.array(z.string()),
    target_account: AccountSchema(w).nullable(),
    appeal: z.null(),
    created_at: timestamp(),
  }),
);

export const RelationshipSeveranceEventSchema = view("RelationshipSeveranceEvent", () =>
  z.object({
    id: z.string(),
    type: z.string(),
    purged: z.boolean(),
    target_name: z.string(),
    followers_count: z.number().int(),
    following_count: z.number().int(),
    created_at: timestamp(),
  }),
);

export const ChatMessageSchema = view("ChatMessage", (w) =>
  z.object({
    id: z.string(),
    chat_id: z.string(),
    account_id: z.string(),
    /** null for a media-only message */
    content: z.string().nullable(),
    created_at: timestamp(),
    emojis: z.array(EmojiSchema(w)),
    attachment: MediaAttachmentSchema(w).nullable(),
    unread: z.boolean(),
    card: z.null(),
    /** within the first minutes only */
    idempotency_key: z.string().optional(),
  }),
);

export const ChatSchema = view("Chat", (w) =>
  z.object({
    id: z.string(),
    account: AccountSchema(w),
    unread: z.number().int(),
    /** left out of the mark-read answer */
    last_message: ChatMessageSchema(w).nullable().optional(),
    updated_at: timestamp(),
  }),
);

/** The admin API's Chat: `sender` (the owner), `receiver` and `account` (both the other side). */
export const AdminChatSchema = view("AdminChat", (w) =>
  z.object({
    id: z.string(),
    sender: AccountSchema(w),
    receiver: AccountSchema(w),
    account: AccountSchema(w),
    unread: z.number().int(),
    last_message: ChatMessageSchema(w).nullable(),
    updated_at: timestamp(),
  }),
);

export const NotificationSchema = view("Notification", (w) =>
  z.object({
    id: z.string(),
    type: z.string(),
    created_at: timestamp(),
    account: AccountSchema(w),
    // each of these only for the types that carry it
    status: StatusSchema(w).nullable().optional(),
    emoji: z.string().nullable().optional(),
    chat_message: ChatMessageSchema(w).nullable().optional(),
    target: AccountSchema(w).nullable().optional(),
    moderation_warning: AccountWarningSchema(w).optional(),
    event: RelationshipSeveranceEventSchema(w).optional(),
    report: ReportSchema(w).optional(),
    ...extensions(w, { namespace: true }),
  }),
);

export const NotificationGroupsSchema = view("GroupedNotificationsResults", (w) =>
  z.object({
    accounts: z.array(AccountSchema(w)),
    /** with expand_accounts=partial_avatars */
    partial_accounts: z
      .array(z.object({ id: z.string(), acct: z.string(), url: z.string(), avatar: z.string(), avatar_static: z.string(), locked: z.boolean(), bot: z.boolean() }))
      .optional(),
    statuses: z.array(StatusSchema(w)),
    notification_groups: z.array(
      z.object({
        group_key: z.string(),
        notifications_count: z.number().int(),
        type: z.string(),
        most_recent_notification_id: z.string(),
        page_min_id: z.string(),
        page_max_id: z.string(),
        latest_page_notification_at: timestamp(),
        sample_account_ids: z.array(z.string()),
        status_id: z.string().optional(),
        report: ReportSchema(w).optional(),
        moderation_warning: AccountWarningSchema(w).optional(),
        event: RelationshipSeveranceEventSchema(w).optional(),
        emoji: z.string().nullable().optional(),
      }),
    ),
  }),
);

export const ConversationSchema = view("Conversation", (w) =>
  z.object({
    id: z.string(),
    unread: z.boolean(),
    accounts: z.array(AccountSchema(w)),
    last_status: StatusSchema(w).nullable(),
    ...extensions(w, { namespace: true }),
  }),
);

/** `{home?, notifications?}`, each timeline's marker. */
export const MarkersSchema = view("Markers", (w) =>
  z.record(
    z.string(),
    z.object({ last_read_id: z.string(), version: z.number().int(), updated_at: timestamp(), [w.namespace]: z.looseObject({}).optional() }),
  ),
);

export const NotificationRequestSchema = view("NotificationRequest", (w) =>
  z.object({
    id: z.string(),
    created_at: timestamp(),
    updated_at: timestamp(),
    account: AccountSchema(w),
    notifications_count: z.string(),
    last_status: StatusSchema(w).nullable(),
  }),
);

const policySummary = z.object({ pending_requests_count: z.number().int(), pending_notifications_count: z.number().int() });

export const NotificationPolicyV2Schema = view("NotificationPolicy", () =>
  z.object({
    for_not_following: z.string(),
    for_not_followers: z.string(),
    for_new_accounts: z.string(),
    for_private_mentions: z.string(),
    for_limited_accounts: z.string(),
    summary: policySummary,
  }),
);

export const NotificationPolicyV1Schema = view("NotificationPolicyV1", () =>
  z.object({
    filter_not_following: z.boolean(),
    filter_not_followers: z.boolean(),
    filter_new_accounts: z.boolean(),
    filter_private_mentions: z.boolean(),
    summary: policySummary,
  }),
);

export const MergedSchema = shape(() => z.object({ merged: z.boolean() }));
