// Chats over GraphQL through the operations REST calls: the viewer's chats and a chat's messages as
// Relay connections, sending (with an idempotency key) and read marking, and a subscription that
// delivers the viewer's chat each time a message arrives in it (the bus's `chat_update`).
import type { ObjectRef } from "@pothos/core";
import { getRefFromModel } from "@pothos/plugin-prisma";
import { filter, pipe } from "graphql-yoga";
import { requireAccount, requireScopes } from "../domain/auth/policy.ts";
import {
  deleteChatMessage,
  listChatMessages,
  listChats,
  markChatMessageRead,
  markChatRead,
  openChat,
  postChatMessage,
  showChat,
} from "../domain/chats/chats.ops.ts";
import { adminChatMessages, adminDeleteChatMessage, adminShowChat, adminUserChats } from "../domain/chats/admin-chats.ops.ts";
import { chatCursor, withinIdempotencyWindow, type ChatView, type MessageRef } from "../domain/chats/chats.read.ts";
import { makeCtx } from "../domain/context.ts";
import { storedEmojis } from "../domain/emoji/emojify.ts";
import type { MediaAttachment } from "../generated/prisma/client.ts";
import { builder } from "./builder.ts";
import { proxiedUrl } from "../domain/media/proxy-url.ts";
import { AccountType, opt, relayConnection } from "./paging.ts";
import "./accounts.ts";
import "./statuses.ts";
import { accessOf } from "./access.ts";
import type { Access } from "../domain/auth/access.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
const MediaAttachmentType = getRefFromModel("MediaAttachment", builder) as unknown as ObjectRef<Types, MediaAttachment>;

const ChatEmoji = builder.objectRef<{ shortcode: string; url: string }>("ChatEmoji").implement({
  description: "A custom emoji used in a chat message",
  fields: (t) => ({ shortcode: t.exposeString("shortcode"), url: t.exposeString("url") }),
});

const ChatMessage = builder.objectRef<MessageRef>("ChatMessage").implement({
  description: "A message as one side of the chat sees it (`id` is that side's message id, as in REST)",
  fields: (t) => ({
    id: t.exposeID("id"),
    chatId: t.exposeID("chatId"),
    accountId: t.id({ resolve: (r) => r.message.accountId }),
    account: t.field({ type: AccountType, nullable: true, resolve: (r, _a, ctx) => ctx.loaders.account.load(r.message.accountId) }),
    content: t.string({ nullable: true, description: "escaped HTML; null for a media-only message", resolve: (r) => r.message.content || null }),
    createdAt: t.field({ type: "DateTime", resolve: (r) => r.message.createdAt }),
    unread: t.exposeBoolean("unread"),
    emojis: t.field({ type: [ChatEmoji], resolve: (r, _args, ctx) => storedEmojis(r.message.emojis).map((e) => ({ ...e, url: proxiedUrl(ctx, e.url) })) }),
    attachment: t.field({ type: MediaAttachmentType, nullable: true, resolve: (r) => r.message.media }),
    idempotencyKey: t.string({
      nullable: true,
      description: "the sender's idempotency key, during the first minutes only",
      resolve: (r, _a, ctx) => (r.message.idempotencyKey && withinIdempotencyWindow(r.message.createdAt, ctx.clock()) ? r.message.idempotencyKey : null),
    }),
  }),
});

export const Chat = builder.objectRef<ChatView>("Chat").implement({
  fields: (t) => ({
    id: t.id({ resolve: (v) => v.chat.id }),
    account: t.field({ type: AccountType, description: "the other side", resolve: (v) => v.chat.recipient }),
    owner: t.field({ type: AccountType, description: "the side whose chat this is (the admin API's `sender`)", resolve: (v) => v.chat.account }),
    unread: t.int({ description: "the viewer's unread messages", resolve: (v) => v.unread }),
    lastMessage: t.field({ type: ChatMessage, nullable: true, resolve: (v) => v.lastMessage }),
    updatedAt: t.field({ type: "DateTime", resolve: (v) => v.chat.updatedAt }),
  }),
});

const ChatConnection = builder.connectionObject({ type: Chat, name: "ChatConnection" });
const ChatMessageConnection = builder.connectionObject({ type: ChatMessage, name: "ChatMessageConnection" });


builder.queryFields((t) => ({
  chats: t.connection(
    {
      ...accessOf(listChats),
      type: Chat,
      description: "The viewer's chats, newest update first; chats with muted accounts only withMuted, blocked ones never",
      args: { withMuted: t.arg.boolean() },
      resolve: (_r, a, ctx) => relayConnection(a, (p) => listChats(ctx, { ...p, with_muted: opt(a.withMuted) }), { cursorOf: (v) => chatCursor(v.chat), floor: "0_0" }),
    },
    ChatConnection,
  ),
  chat: t.field({
    ...accessOf(showChat),
    type: Chat,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => showChat(ctx, { id: String(a.id) }),
  }),
  chatMessages: t.connection(
    {
      ...accessOf(listChatMessages),
      type: ChatMessage,
      description: "Messages of one of the viewer's chats, newest first",
      args: { chatId: t.arg.id({ required: true }) },
      resolve: (_r, a, ctx) => relayConnection(a, (p) => listChatMessages(ctx, { ...p, id: String(a.chatId) }), { cursorOf: (r) => r.id, floor: "0" }),
    },
    ChatMessageConnection,
  ),
}));

builder.mutationFields((t) => ({
  openChat: t.field({
    ...accessOf(openChat),
    type: Chat,
    description: "The viewer's chat with that account, created when missing",
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => openChat(ctx, { account_id: String(a.accountId) }),
  }),
  sendChatMessage: t.field({
    ...accessOf(postChatMessage),
    type: ChatMessage,
    description: "Posts `content` and/or `mediaId`; the same `idempotencyKey` within two minutes answers the same message",
    args: { chatId: t.arg.id({ required: true }), content: t.arg.string(), mediaId: t.arg.id(), idempotencyKey: t.arg.string() },
    resolve: (_r, a, ctx) =>
      postChatMessage(ctx, { id: String(a.chatId), content: opt(a.content), media_id: a.mediaId ? String(a.mediaId) : undefined, idempotency_key: opt(a.idempotencyKey) }),
  }),
  markChatRead: t.field({
    ...accessOf(markChatRead),
    type: Chat,
    description: "Marks the chat's messages read up to lastReadId",
    args: { chatId: t.arg.id({ required: true }), lastReadId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => markChatRead(ctx, { id: String(a.chatId), last_read_id: String(a.lastReadId) }),
  }),
  markChatMessageRead: t.field({
    ...accessOf(markChatMessageRead),
    type: ChatMessage,
    args: { chatId: t.arg.id({ required: true }), messageId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => markChatMessageRead(ctx, { id: String(a.chatId), message_id: String(a.messageId) }),
  }),
  deleteChatMessage: t.field({
    ...accessOf(deleteChatMessage),
    type: ChatMessage,
    description: "Deletes the viewer's own message for both sides, or removes the other side's from the viewer's chat",
    args: { chatId: t.arg.id({ required: true }), messageId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => deleteChatMessage(ctx, { id: String(a.chatId), message_id: String(a.messageId) }),
  }),
}));

/** The scopes an access rule asks a token for (none: "public", or any credentials). */
const scopesOf = (access: Access | undefined): readonly string[] => (access && access !== "public" && access.scopes !== "any" ? access.scopes : []);

builder.subscriptionField("chatMessageReceived", (t) =>
  t.field({
    // each event runs showChat: guarded as it declares
    ...accessOf(showChat),
    type: Chat,
    description: "The viewer's chat, with the new message as lastMessage, each time a message is posted in it (either side)",
    subscribe: (_r, _a, ctx) => {
      const me = requireAccount(ctx);
      // field auth runs per event only: the start is checked here, against the same declaration
      requireScopes(ctx.viewer, scopesOf(showChat.access));
      return pipe(
        ctx.bus.subscribe("chat_update"),
        filter((e) => e.accountId === me.id && e.change === "message"),
      );
    },
    // a fresh context per event: the subscription's own loaders would keep stale rows
    resolve: (event, _a, ctx) => showChat(makeCtx(ctx, ctx.viewer), { id: event.chatId }),
  }),
);

// Chat moderation, guarded as its operations declare (`messages_read` / `messages_delete` with the
// admin REST routes' scope).
builder.queryFields((t) => ({
  adminUserChats: t.field({
    ...accessOf(adminUserChats),
    type: [Chat],
    description: "Every chat of a user (by nickname or id), newest update first",
    args: { nickname: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => adminUserChats(ctx, { nickname: a.nickname }),
  }),
  adminChat: t.field({
    ...accessOf(adminShowChat),
    type: Chat,
    description: "One chat, whoever owns it",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => adminShowChat(ctx, { id: String(a.id) }),
  }),
  adminChatMessages: t.connection(
    {
      ...accessOf(adminChatMessages),
      type: ChatMessage,
      description: "Messages of any chat, newest first",
      args: { chatId: t.arg.id({ required: true }) },
      resolve: (_r, a, ctx) => relayConnection(a, (p) => adminChatMessages(ctx, { ...p, id: String(a.chatId) }), { cursorOf: (r) => r.id, floor: "0" }),
    },
    ChatMessageConnection,
  ),
}));

builder.mutationField("adminDeleteChatMessage", (t) =>
  t.field({
    ...accessOf(adminDeleteChatMessage),
    type: ChatMessage,
    description: "Deletes a chat message for both sides (moderation log: chat_message_delete); answers it as it was",
    args: { chatId: t.arg.id({ required: true }), messageId: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => adminDeleteChatMessage(ctx, { id: String(a.chatId), message_id: String(a.messageId) }),
  }),
);
