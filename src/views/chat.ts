// The family's Chat and ChatMessage entities. A message's `id` is the viewing side's ref id; its
// `idempotency_key` shows only within the first minutes, as the family's cache keeps it. Accounts of
// a whole list render in one batch.
import type { Ctx } from "../../src/domain/context.ts";
import { messageRefs, withinIdempotencyWindow, type ChatView, type MessageRef } from "../../src/domain/chats/chats.read.ts";
import type { Account } from "../../src/generated/prisma/client.ts";
import { renderAccounts } from "./account.ts";
import { renderEmojis } from "./emoji.ts";
import { renderMedia } from "./media.ts";

export function renderChatMessage(ctx: Ctx, ref: MessageRef) {
  const m = ref.message;
  const out: Record<string, unknown> = {
    id: ref.id,
    chat_id: ref.chatId,
    account_id: m.accountId,
    // a media-only message has no content (the family's nil)
    content: m.content === "" ? null : m.content,
    created_at: m.createdAt.toISOString(),
    emojis: renderEmojis(m.emojis, ctx),
    attachment: m.media ? renderMedia(ctx, m.media) : null,
    unread: ref.unread,
    card: null,
  };
  if (m.idempotencyKey && withinIdempotencyWindow(m.createdAt, ctx.clock())) out.idempotency_key = m.idempotencyKey;
  return out;
}

export function renderChatMessages(ctx: Ctx, refs: MessageRef[]) {
  return refs.map((r) => renderChatMessage(ctx, r));
}

async function accountsById(ctx: Ctx, accounts: Account[]) {
  const unique = [...new Map(accounts.map((a) => [a.id, a])).values()];
  return new Map((await renderAccounts(ctx, unique)).map((a) => [a.id, a]));
}

export interface ChatRenderOptions {
  /** the mark-read answer leaves `last_message` out (the spec) */
  withoutLastMessage?: boolean;
}

/** Chats as their owner sees them: `account` is the other side. */
export async function renderChats(ctx: Ctx, views: ChatView[], opts: ChatRenderOptions = {}) {
  if (views.length === 0) return [];
  const accounts = await accountsById(ctx, views.map((v) => v.chat.recipient));
  return views.map((v) => {
    const out: Record<string, unknown> = { id: v.chat.id, account: accounts.get(v.chat.recipientId), unread: v.unread };
    if (!opts.withoutLastMessage) out.last_message = v.lastMessage ? renderChatMessage(ctx, v.lastMessage) : null;
    out.updated_at = v.chat.updatedAt.toISOString();
    return out;
  });
}

export async function renderChat(ctx: Ctx, view: ChatView, opts: ChatRenderOptions = {}) {
  return (await renderChats(ctx, [view], opts))[0];
}

/**
 * The admin API's Chat: `sender` (the owner) and `receiver` (the other side) as the family's admin view
 * has them, and `account` (= receiver) as the user API has it, so either reader finds its field.
 */
export async function renderAdminChats(ctx: Ctx, views: ChatView[]) {
  if (views.length === 0) return [];
  const accounts = await accountsById(ctx, views.flatMap((v) => [v.chat.account, v.chat.recipient]));
  return views.map((v) => ({
    id: v.chat.id,
    sender: accounts.get(v.chat.accountId),
    receiver: accounts.get(v.chat.recipientId),
    account: accounts.get(v.chat.recipientId),
    unread: v.unread,
    last_message: v.lastMessage ? renderChatMessage(ctx, v.lastMessage) : null,
    updated_at: v.chat.updatedAt.toISOString(),
  }));
}

/** The `chat_message` of `chat_mention` notifications, by the recipient's message reference id. One query. */
export async function chatMentionMessages(ctx: Ctx, refIds: string[]): Promise<Map<string, ReturnType<typeof renderChatMessage>>> {
  if (refIds.length === 0) return new Map();
  const refs = await messageRefs(ctx, refIds);
  return new Map(refs.map((r) => [r.id, renderChatMessage(ctx, r)]));
}
