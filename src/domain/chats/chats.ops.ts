// Chats between two accounts: at most one chat per (owner, other) pair and side. Opening a chat makes
// the viewer's side; the other side's chat appears with the first message it receives (as in the
// family, so nobody learns of a chat nobody wrote in). A message is stored once and seen by each side
// through its own ref, with its own unread flag.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { customEmojiIn } from "../emoji/emojify.ts";
import { Invalid, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { bool } from "../inputs.ts";
import { federate } from "../federation/outbox.ts";
import type { RemoteMedia } from "../statuses/remote.ops.ts";
import { notify } from "../notifications/notify.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { chatContentHtml, chatLength } from "./chat-content.ts";
import { text } from "../input-limits.ts";
import {
  chatCursor,
  chatInclude,
  chatsPast,
  chatView,
  chatViews,
  IDEMPOTENCY_WINDOW_MS,
  listedChatsWhere,
  messageInclude,
  ownChat,
  refInChat,
  type ChatView,
  type MessageRef,
} from "./chats.read.ts";

const chatId = z.object({ id: z.string() });
const messageId = z.object({ id: z.string(), message_id: z.string() });

export const openChat = operation({
  name: "chats.open",
  access: { scopes: ["write:chats"] },
  input: z.object({ account_id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<ChatView> {
    const me = requireAccount(ctx);
    const other = await ctx.db.account.findUnique({ where: { id: input.account_id } });
    if (!other) throw NotFound("Record not found");
    // idempotent: an existing chat is answered as it is
    const chat = await ctx.db.chat.upsert({
      where: { accountId_recipientId: { accountId: me.id, recipientId: other.id } },
      create: { id: newId(), accountId: me.id, recipientId: other.id, createdAt: ctx.clock(), updatedAt: ctx.clock() },
      update: {},
      include: chatInclude,
    });
    return chatView(ctx, chat);
  },
});

export const showChat = operation({
  name: "chats.show",
  access: { scopes: ["read:chats"] },
  input: chatId,
  authorize: requireAccount,
  async run(ctx, input): Promise<ChatView> {
    return chatView(ctx, await ownChat(ctx, requireAccount(ctx).id, input.id));
  },
});

export const listChatsInput = pageInput.extend({ with_muted: bool().optional() });

/** The viewer's chats, newest update first, paged (the later variant, and GraphQL). */
export const listChats = operation({
  name: "chats.list",
  access: { scopes: ["read:chats"] },
  input: listChatsInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<ChatView>> {
    const me = requireAccount(ctx);
    const page = keyset(input);
    const and = [listedChatsWhere(ctx, me.id, input.with_muted)];
    if (input.max_id) and.push(await chatsPast(ctx, me.id, input.max_id, "lt", "max_id"));
    if (input.min_id) and.push(await chatsPast(ctx, me.id, input.min_id, "gt", "min_id"));
    else if (input.since_id) and.push(await chatsPast(ctx, me.id, input.since_id, "gt", "since_id"));
    const rows = await ctx.db.chat.findMany({ where: { AND: and }, include: chatInclude, orderBy: [{ updatedAt: page.order }, { id: page.order }], take: page.take });
    const result = page.finish(rows, chatCursor);
    return { ...result, items: await chatViews(ctx, result.items) };
  },
});

/** Every chat of the viewer at once (the earlier variant has no paging). */
export const listAllChats = operation({
  name: "chats.listAll",
  access: { scopes: ["read:chats"] },
  input: z.object({ with_muted: bool().optional() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<ChatView[]> {
    const me = requireAccount(ctx);
    const rows = await ctx.db.chat.findMany({ where: listedChatsWhere(ctx, me.id, input.with_muted), include: chatInclude, orderBy: [{ updatedAt: "desc" }, { id: "desc" }] });
    return chatViews(ctx, rows);
  },
});

/** Messages of one chat, newest first, keyset-paged by the viewer's ref ids. */
export async function chatMessagesPage(ctx: Ctx, chatIdValue: string, input: z.output<typeof pageInput>): Promise<Page<MessageRef>> {
  const page = keyset(input);
  const rows = await ctx.db.chatMessageRef.findMany({
    where: { chatId: chatIdValue, ...(page.cursor ? { id: page.cursor } : {}) },
    include: messageInclude,
    orderBy: { id: page.order },
    take: page.take,
  });
  return page.finish(rows, (r) => r.id);
}

export const listChatMessages = operation({
  name: "chats.messages",
  access: { scopes: ["read:chats"] },
  input: pageInput.extend({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<MessageRef>> {
    const chat = await ownChat(ctx, requireAccount(ctx).id, input.id);
    return chatMessagesPage(ctx, chat.id, input);
  },
});

export const postChatMessageInput = z.object({
  id: z.string(),
  content: text().optional(),
  media_id: z.string().optional(),
  /** the `Idempotency-Key` request header */
  idempotency_key: z.string().optional(),
});

/** Why `recipient` refuses a message from `author`; the texts are the family's validator messages. */
async function refusal(ctx: Ctx, author: Account, recipient: Account): Promise<string | null> {
  if (recipient.acceptsChatMessages === false) return "recipient does not accept chat messages";
  if (author.id === recipient.id) return null;
  const blocks = await ctx.db.userRelationship.findMany({
    where: {
      AND: [
        activeRelation(ctx.clock()),
        { type: "block", OR: [{ sourceId: recipient.id, targetId: author.id }, { sourceId: author.id, targetId: recipient.id }] },
      ],
    },
    select: { sourceId: true },
  });
  if (blocks.some((b) => b.sourceId === recipient.id)) return "actor is blocked by recipient";
  if (blocks.length) return "recipient is blocked by actor";
  return null;
}

export const postChatMessage = operation({
  name: "chats.post",
  access: { scopes: ["write:chats"] },
  input: postChatMessageInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<MessageRef> {
    const me = requireAccount(ctx);
    const chat = await ownChat(ctx, me.id, input.id);
    const now = ctx.clock();
    const key = input.idempotency_key || undefined;
    if (key) {
      // the same key again within the window answers the message it made, as the family's cache does
      const earlier = await ctx.db.chatMessageRef.findFirst({
        where: { chatId: chat.id, message: { accountId: me.id, idempotencyKey: key, createdAt: { gt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } } },
        include: messageInclude,
      });
      if (earlier) return earlier;
    }

    // the family's error atoms: 400 `no_content`, `content_too_long`, `forbidden` (someone else's media)
    const text = input.content || undefined;
    if (text === undefined && !input.media_id) throw Invalid("no_content");
    if (text !== undefined && chatLength(text) > ctx.config.get("instance", "chat_limit")) throw Invalid("content_too_long");
    const media = input.media_id ? await ctx.db.mediaAttachment.findFirst({ where: { id: input.media_id, accountId: me.id } }) : null;
    if (input.media_id && !media) throw Invalid("forbidden");
    const recipient = chat.recipient;
    const refused = await refusal(ctx, me, recipient);
    if (refused) throw Unprocessable(refused);

    const self = recipient.id === me.id;
    const { mine, theirs } = await ctx.db.$transaction(async (tx) => {
      const message = await tx.chatMessage.create({
        data: {
          id: newId(),
          accountId: me.id,
          content: text === undefined ? "" : chatContentHtml(text),
          mediaId: media?.id ?? null,
          emojis: customEmojiIn(ctx, text) as object[],
          idempotencyKey: key ?? null,
          createdAt: now,
        },
      });
      await tx.chat.update({ where: { id: chat.id }, data: { updatedAt: now } });
      const mine = await tx.chatMessageRef.create({ data: { id: newId(), chatId: chat.id, messageId: message.id, unread: false, createdAt: now }, include: messageInclude });
      // remote recipients keep their own chats on their server
      if (self || !recipient.local) return { mine, theirs: null };
      const other = await tx.chat.upsert({
        where: { accountId_recipientId: { accountId: recipient.id, recipientId: me.id } },
        create: { id: newId(), accountId: recipient.id, recipientId: me.id, createdAt: now, updatedAt: now },
        update: { updatedAt: now },
      });
      const theirs = await tx.chatMessageRef.create({ data: { id: newId(), chatId: other.id, messageId: message.id, unread: true, createdAt: now } });
      return { mine, theirs };
    });

    ctx.bus.publish("chat_update", { accountId: me.id, chatId: chat.id, change: "message" });
    // a remote recipient gets it as a ChatMessage addressed to it alone
    if (!self && !recipient.local) await federate(ctx, { type: "chat.message", messageId: mine.messageId, recipientId: recipient.id });
    if (theirs) {
      ctx.bus.publish("chat_update", { accountId: recipient.id, chatId: theirs.chatId, change: "message" });
      await notify(ctx, [{ accountId: recipient.id, type: "chat_mention", fromAccountId: me.id, chatMessageRefId: theirs.id }]);
    }
    return mine;
  },
});

/** Marks the viewer's messages of a chat read up to `last_read_id` (inclusive); answers the chat. */
export const markChatRead = operation({
  name: "chats.read",
  access: { scopes: ["write:chats"] },
  input: z.object({ id: z.string(), last_read_id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<ChatView> {
    const chat = await ownChat(ctx, requireAccount(ctx).id, input.id);
    await ctx.db.chatMessageRef.updateMany({ where: { chatId: chat.id, unread: true, id: { lte: input.last_read_id } }, data: { unread: false } });
    // only the reader's side changed: the other side sees no read receipts
    ctx.bus.publish("chat_update", { accountId: chat.accountId, chatId: chat.id, change: "read" });
    return chatView(ctx, chat);
  },
});

export const markChatMessageRead = operation({
  name: "chats.readMessage",
  access: { scopes: ["write:chats"] },
  input: messageId,
  authorize: requireAccount,
  async run(ctx, input): Promise<MessageRef> {
    const chat = await ownChat(ctx, requireAccount(ctx).id, input.id);
    const ref = await refInChat(ctx, chat.id, input.message_id);
    if (!ref) throw NotFound("Record not found");
    const updated = await ctx.db.chatMessageRef.update({ where: { id: ref.id }, data: { unread: false }, include: messageInclude });
    ctx.bus.publish("chat_update", { accountId: chat.accountId, chatId: chat.id, change: "read" });
    return updated;
  },
});

/** Deletes a message everywhere (its refs and the recipient's chat_mention go with it). */
export async function deleteMessageEverywhere(ctx: Ctx, messageIdValue: string): Promise<void> {
  const refs = await ctx.db.chatMessageRef.findMany({ where: { messageId: messageIdValue }, select: { id: true } });
  await ctx.db.$transaction([
    ctx.db.notification.deleteMany({ where: { chatMessageRefId: { in: refs.map((r) => r.id) } } }),
    ctx.db.chatMessage.delete({ where: { id: messageIdValue } }),
  ]);
}

/**
 * As in the family: deleting one's own message deletes it for both sides; deleting the other side's
 * message only removes it from the viewer's chat. Answers the message as it was.
 */
export const deleteChatMessage = operation({
  name: "chats.deleteMessage",
  access: { scopes: ["write:chats"] },
  input: messageId,
  authorize: requireAccount,
  async run(ctx, input): Promise<MessageRef> {
    const me = requireAccount(ctx);
    const chat = await ownChat(ctx, me.id, input.id);
    const ref = await refInChat(ctx, chat.id, input.message_id);
    if (!ref) throw NotFound("Record not found");
    if (ref.message.accountId === me.id) await deleteMessageEverywhere(ctx, ref.messageId);
    else
      await ctx.db.$transaction([
        ctx.db.notification.deleteMany({ where: { chatMessageRefId: ref.id } }),
        ctx.db.chatMessageRef.delete({ where: { id: ref.id } }),
      ]);
    return ref;
  },
});

/**
 * A chat message from a remote account (an incoming ChatMessage) to a local one: stored once by its
 * ActivityPub id, in the recipient's chat with the author (made on the first message), unread, with a
 * `chat_mention` notification and a `chat_update` event. Refused like a local message would be
 * (blocks, a recipient who accepts no chat messages). Never a status: chats stay out of timelines.
 */
export async function receiveChatMessage(
  ctx: Ctx,
  author: Account,
  recipient: Account,
  message: { apId: string; content: string; emojis: { shortcode: string; url: string }[]; createdAt: Date; media?: RemoteMedia | null },
): Promise<void> {
  if (!recipient.local || recipient.deactivated || author.local) return;
  if (await refusal(ctx, author, recipient)) return;
  if (await ctx.db.chatMessage.findUnique({ where: { apId: message.apId }, select: { id: true } })) return;
  const now = ctx.clock();
  if (!message.content && !message.media) return;
  const ref = await ctx.db.$transaction(async (tx) => {
    const m = message.media;
    // the attachment stays on the author's server: the row points at it (remote_url), as for remote statuses
    const media = m
      ? await tx.mediaAttachment.create({
          data: { id: newId(), accountId: author.id, type: m.type, mimeType: m.mimeType, url: m.url, remoteUrl: m.url, description: m.description, blurhash: m.blurhash, focusX: m.focus?.x ?? null, focusY: m.focus?.y ?? null },
        })
      : null;
    const stored = await tx.chatMessage.create({
      data: { id: newId(), accountId: author.id, content: message.content, emojis: message.emojis, apId: message.apId, mediaId: media?.id ?? null, createdAt: message.createdAt },
    });
    const chat = await tx.chat.upsert({
      where: { accountId_recipientId: { accountId: recipient.id, recipientId: author.id } },
      create: { id: newId(), accountId: recipient.id, recipientId: author.id, createdAt: now, updatedAt: now },
      update: { updatedAt: now },
    });
    return tx.chatMessageRef.create({ data: { id: newId(), chatId: chat.id, messageId: stored.id, unread: true, createdAt: now } });
  });
  ctx.bus.publish("chat_update", { accountId: recipient.id, chatId: ref.chatId, change: "message" });
  await notify(ctx, [{ accountId: recipient.id, type: "chat_mention", fromAccountId: author.id, chatMessageRefId: ref.id }]);
}
