// The family's chats: the earlier unpaged list (`/api/v1/<ns>/chats`) beside the later paged one
// (`/api/v2/<ns>/chats`), a chat's messages newest first, posting (with `Idempotency-Key`), read
// marking and deletion. Error bodies are the family's: 404 `Record not found`, and on posting or
// deleting its error atoms (`no_content`, `content_too_long`, `not_found`, `could_not_delete`).
import { z } from "zod";
import {
  deleteChatMessage,
  listAllChats,
  listChatMessages,
  listChats,
  listChatsInput,
  markChatMessageRead,
  markChatRead,
  openChat,
  postChatMessage,
  showChat,
} from "../../src/domain/chats/chats.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { bool } from "../../src/domain/inputs.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderChat, renderChatMessage, renderChatMessages, renderChats } from "../../src/views/chat.ts";
import { text } from "../../src/domain/input-limits.ts";
import { ChatMessageSchema, ChatSchema } from "../../src/views/schemas/notification.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const tags = ["Chats"];
const idParam = z.object({ id: z.string() });
const messageParams = z.object({ id: z.string(), message_id: z.string() });

/** On posting, the family answers a missing chat with 400 `not_found` (its error atom), not a 404. */
const postErrors = (e: DomainError) => (e.kind === "not_found" ? { status: 400, body: { error: "not_found" } } : undefined);
/** Deleting answers every failure with 400 `could_not_delete`. */
const deleteErrors = (e: DomainError) => (e.kind === "not_found" ? { status: 400, body: { error: "could_not_delete" } } : undefined);

export const chatRoutes = [
  route({
    method: "POST",
    path: "/api/v1/$ns/chats/by-account-id/:id",
    view: ChatSchema,
    summary: "The viewer's chat with that account, created when missing",
    tags,
    operation: openChat,
    params: idParam,
    async handler(ctx, { params }) {
      return renderChat(ctx, await openChat(ctx, { account_id: params.id }));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/chats",
    view: listOf(ChatSchema),
    summary: "Every chat of the viewer, newest update first, unpaged (the earlier variant); muted accounts' chats only with_muted",
    tags,
    operation: listAllChats,
    query: z.object({ with_muted: bool().optional() }),
    async handler(ctx, { query }) {
      return renderChats(ctx, await listAllChats(ctx, query));
    },
  }),
  route({
    method: "GET",
    path: "/api/v2/$ns/chats",
    view: listOf(ChatSchema),
    summary: "The viewer's chats, newest update first, paged with max_id / min_id / since_id / limit (the later variant)",
    tags,
    operation: listChats,
    query: listChatsInput,
    paged: "id",
    async handler(ctx, input) {
      const page = await listChats(ctx, input.query);
      return { ...page, items: await renderChats(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/chats/:id",
    view: ChatSchema,
    summary: "One chat of the viewer",
    tags,
    operation: showChat,
    params: idParam,
    async handler(ctx, { params }) {
      return renderChat(ctx, await showChat(ctx, params));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/chats/:id/messages",
    view: listOf(ChatMessageSchema),
    summary: "Messages of a chat, newest first",
    tags,
    operation: listChatMessages,
    params: idParam,
    query: pageInput,
    paged: "id",
    async handler(ctx, input) {
      const page = await listChatMessages(ctx, { ...input.query, id: input.params.id });
      return { ...page, items: await renderChatMessages(ctx, page.items) };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/chats/:id/messages",
    view: ChatMessageSchema,
    summary: "Post a message: `content` (escaped, line breaks and custom emoji only) and/or `media_id`; an `Idempotency-Key` header repeated within two minutes answers the same message",
    tags,
    operation: postChatMessage,
    params: idParam,
    body: z.object({ content: text().optional(), media_id: z.string().optional() }),
    errors: postErrors,
    response: { description: "ChatMessage; 400 `{error: no_content | content_too_long | forbidden | not_found}`; 422 `{error}` when the recipient refuses" },
    async handler(ctx, { params, body, req }) {
      const key = req.get("idempotency-key");
      return renderChatMessage(ctx, await postChatMessage(ctx, { ...body, id: params.id, idempotency_key: key }));
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/chats/:id/read",
    view: ChatSchema,
    summary: "Mark the chat's messages read up to `last_read_id`; answers the chat without `last_message`",
    tags,
    operation: markChatRead,
    params: idParam,
    body: z.object({ last_read_id: z.string() }),
    async handler(ctx, { params, body }) {
      return renderChat(ctx, await markChatRead(ctx, { id: params.id, last_read_id: body.last_read_id }), { withoutLastMessage: true });
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/chats/:id/messages/:message_id/read",
    view: ChatMessageSchema,
    summary: "Mark one message read",
    tags,
    operation: markChatMessageRead,
    params: messageParams,
    async handler(ctx, { params }) {
      return renderChatMessage(ctx, await markChatMessageRead(ctx, params));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/$ns/chats/:id/messages/:message_id",
    view: ChatMessageSchema,
    summary: "Delete the viewer's own message for both sides, or remove the other side's message from the viewer's chat",
    tags,
    operation: deleteChatMessage,
    params: messageParams,
    errors: deleteErrors,
    response: { description: "the deleted ChatMessage; 400 `{error: could_not_delete}`" },
    async handler(ctx, { params }) {
      return renderChatMessage(ctx, await deleteChatMessage(ctx, params));
    },
  }),
];
