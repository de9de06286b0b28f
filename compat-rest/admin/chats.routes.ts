// Admin API: chat moderation (read with `messages_read`, delete with `messages_delete`). Error bodies
// are the family's: 404 `{error: "Not found"}` (a user's chats, a chat), 404 `{error: "not found"}`
// (messages of an unknown chat), 400 `{error: "could_not_delete"}`.
import { z } from "zod";
import { adminChatMessages, adminDeleteChatMessage, adminShowChat, adminUserChats } from "../../src/domain/chats/admin-chats.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminChats, renderChatMessage, renderChatMessages } from "../../src/views/chat.ts";
import { admin } from "./paths.ts";
import { AdminChatSchema, ChatMessageSchema } from "../../src/views/schemas/notification.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Admin: chats"];

const couldNotDelete = (e: DomainError) => (e.kind === "not_found" ? { status: 400, body: { error: "could_not_delete" } } : undefined);

export const adminChatRoutes = [
  route({
    method: "GET",
    path: admin("/users/:nickname/chats"),
    view: listOf(AdminChatSchema),
    summary: "Every chat of a user (by nickname or id), newest update first",
    tags,
    operation: adminUserChats,
    params: z.object({ nickname: z.string() }),
    response: { description: "array of Chat with `sender` and `receiver`; 404 `{error: \"Not found\"}`" },
    async handler(ctx, { params }) {
      return renderAdminChats(ctx, await adminUserChats(ctx, params));
    },
  }),
  route({
    method: "GET",
    path: admin("/chats/:id"),
    view: AdminChatSchema,
    summary: "One chat, whoever owns it",
    tags,
    operation: adminShowChat,
    params: z.object({ id: z.string() }),
    response: { description: "Chat with `sender` and `receiver`; 404 `{error: \"Not found\"}`" },
    async handler(ctx, { params }) {
      return (await renderAdminChats(ctx, [await adminShowChat(ctx, params)]))[0];
    },
  }),
  route({
    method: "GET",
    path: admin("/chats/:id/messages"),
    view: listOf(ChatMessageSchema),
    summary: "Messages of a chat, newest first (max_id / min_id / limit)",
    tags,
    operation: adminChatMessages,
    params: z.object({ id: z.string() }),
    query: pageInput,
    response: { description: "array of ChatMessage; 404 `{error: \"not found\"}`" },
    async handler(ctx, { params, query }) {
      const page = await adminChatMessages(ctx, { ...query, id: params.id });
      return renderChatMessages(ctx, page.items);
    },
  }),
  route({
    method: "DELETE",
    path: admin("/chats/:id/messages/:message_id"),
    view: ChatMessageSchema,
    summary: "Delete a chat message for both sides (moderation log: chat_message_delete)",
    tags,
    operation: adminDeleteChatMessage,
    params: z.object({ id: z.string(), message_id: z.string() }),
    errors: couldNotDelete,
    response: { description: "the deleted ChatMessage; 400 `{error: \"could_not_delete\"}`" },
    async handler(ctx, { params }) {
      return renderChatMessage(ctx, await adminDeleteChatMessage(ctx, params));
    },
  }),
];
