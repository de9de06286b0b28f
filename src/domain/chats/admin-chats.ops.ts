// Chat moderation through the admin API: staff with `messages_read` read any user's chats and their
// messages; with `messages_delete` they delete a message for both sides (logged as the family logs it).
import { z } from "zod";
import { findAccountByIdOrNickname } from "../accounts/lookup.ts";
import { NotFound } from "../../kernel/errors.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { pageInput, type Page } from "../pagination.ts";
import { chatMessagesPage, deleteMessageEverywhere } from "./chats.ops.ts";
import { chatInclude, chatView, chatViews, refInChat, type ChatView, type MessageRef } from "./chats.read.ts";

export const adminUserChats = operation({
  name: "admin.chats.ofUser",
  access: { scopes: ["admin:read:chats"], privilege: "messages_read" },
  input: z.object({ nickname: z.string() }),
  async run(ctx, input): Promise<ChatView[]> {
    const user = await findAccountByIdOrNickname(ctx, input.nickname);
    if (!user) throw NotFound("Not found");
    const chats = await ctx.db.chat.findMany({ where: { accountId: user.id }, include: chatInclude, orderBy: [{ updatedAt: "desc" }, { id: "desc" }] });
    return chatViews(ctx, chats);
  },
});

export const adminShowChat = operation({
  name: "admin.chats.show",
  access: { scopes: ["admin:read:chats"], privilege: "messages_read" },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<ChatView> {
    const chat = await ctx.db.chat.findUnique({ where: { id: input.id }, include: chatInclude });
    if (!chat) throw NotFound("Not found");
    return chatView(ctx, chat);
  },
});

export const adminChatMessages = operation({
  name: "admin.chats.messages",
  access: { scopes: ["admin:read:chats"], privilege: "messages_read" },
  input: pageInput.extend({ id: z.string() }),
  async run(ctx, input): Promise<Page<MessageRef>> {
    const chat = await ctx.db.chat.findUnique({ where: { id: input.id }, select: { id: true } });
    if (!chat) throw NotFound("not found");
    return chatMessagesPage(ctx, chat.id, input);
  },
});

/** Deletes the message for both sides; the log names the message id the request gave. Answers the message as it was. */
export const adminDeleteChatMessage = operation({
  name: "admin.chats.deleteMessage",
  access: { scopes: ["admin:write:chats"], privilege: "messages_delete" },
  input: z.object({ id: z.string(), message_id: z.string() }),
  async run(ctx, input): Promise<MessageRef> {
    const ref = await refInChat(ctx, input.id, input.message_id);
    if (!ref) throw NotFound("could_not_delete");
    await deleteMessageEverywhere(ctx, ref.messageId);
    await logAction(ctx, { action: "chat_message_delete", subject: { id: ref.id } });
    return ref;
  },
});
