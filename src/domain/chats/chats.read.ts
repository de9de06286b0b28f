// Reading chats: each side owns a Chat row (owner → recipient) and sees every message through its own
// ChatMessageRef (the API's message id, with that side's unread flag). A list of chats loads in a fixed
// number of queries: the rows, one grouped unread count, the newest ref of each chat.
import { Prisma, type Account, type Chat } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { activeRelation } from "../relationships/relationships.read.ts";

/** How long a message carries its `idempotency_key` (and a repeated key returns it): the family's 2-minute cache. */
export const IDEMPOTENCY_WINDOW_MS = 2 * 60 * 1000;

/** Whether a message created at `createdAt` is still within the idempotency window at `now`. */
export function withinIdempotencyWindow(createdAt: Date, now: Date): boolean {
  const age = now.getTime() - createdAt.getTime();
  return age >= 0 && age < IDEMPOTENCY_WINDOW_MS;
}

export const messageInclude = { message: { include: { media: true } } } as const;
/** A message as one side sees it: the ref (id, chat, unread) with the stored message and its media. */
export type MessageRef = Prisma.ChatMessageRefGetPayload<{ include: typeof messageInclude }>;

export type ChatRow = Chat & { account: Account; recipient: Account };
export const chatInclude = { account: true, recipient: true } as const;

export interface ChatView {
  chat: ChatRow;
  /** the owner's unread refs */
  unread: number;
  lastMessage: MessageRef | null;
}

/** Unread counts and newest messages for `chats`, in three queries whatever their number. */
export async function chatViews(ctx: Ctx, chats: ChatRow[]): Promise<ChatView[]> {
  if (chats.length === 0) return [];
  const ids = chats.map((c) => c.id);
  const [counts, newest] = await Promise.all([
    ctx.db.chatMessageRef.groupBy({ by: ["chatId"], where: { chatId: { in: ids }, unread: true }, _count: { _all: true } }),
    ctx.db.$queryRaw<{ id: string }[]>`
      SELECT DISTINCT ON (chat_id) id FROM chat_message_refs
      WHERE chat_id IN (${Prisma.join(ids)}) ORDER BY chat_id, id DESC`,
  ]);
  const refs = newest.length ? await ctx.db.chatMessageRef.findMany({ where: { id: { in: newest.map((r) => r.id) } }, include: messageInclude }) : [];
  const unread = new Map(counts.map((c) => [c.chatId, c._count._all]));
  const last = new Map(refs.map((r) => [r.chatId, r]));
  return chats.map((chat) => ({ chat, unread: unread.get(chat.id) ?? 0, lastMessage: last.get(chat.id) ?? null }));
}

export async function chatView(ctx: Ctx, chat: ChatRow): Promise<ChatView> {
  return (await chatViews(ctx, [chat]))[0];
}

/** One of the viewer's chats; someone else's is as missing as an unknown one (the family's 404). */
export async function ownChat(ctx: Ctx, accountId: string, chatId: string): Promise<ChatRow> {
  const chat = await ctx.db.chat.findFirst({ where: { id: chatId, accountId }, include: chatInclude });
  if (!chat) throw NotFound("Record not found");
  return chat;
}

/** A message ref of `chatId`, or null. */
/** Message references by id, with their messages (the `chat_message` of `chat_mention` notifications). One query. */
export async function messageRefs(ctx: Ctx, refIds: string[]): Promise<MessageRef[]> {
  if (refIds.length === 0) return [];
  return ctx.db.chatMessageRef.findMany({ where: { id: { in: [...new Set(refIds)] } }, include: messageInclude });
}

export function refInChat(ctx: Ctx, chatId: string, refId: string): Promise<MessageRef | null> {
  return ctx.db.chatMessageRef.findFirst({ where: { id: refId, chatId }, include: messageInclude });
}

/** Chats whose other side the owner blocks are never listed; muted ones only `with_muted`, as in the family. */
export function listedChatsWhere(ctx: Ctx, ownerId: string, withMuted = false): Prisma.ChatWhereInput {
  const hidden = withMuted ? ["block" as const] : ["block" as const, "mute" as const];
  return { accountId: ownerId, recipient: { relationsIn: { none: { sourceId: ownerId, type: { in: hidden }, ...activeRelation(ctx.clock()) } } } };
}

// ---- chat paging: newest update first ------------------------------------------------------------

/** Cursor of a chat in "newest update first" order: `<updatedAt ms>_<chat id>`. */
export function chatCursor(chat: Pick<Chat, "id" | "updatedAt">): string {
  return `${chat.updatedAt.getTime()}_${chat.id}`;
}

/**
 * The `where` for chats past a cursor. Clients that page with a bare chat id (as the family's Link
 * header carries) are served too: the id is looked up among the owner's chats.
 */
export async function chatsPast(ctx: Ctx, ownerId: string, cursor: string, direction: "lt" | "gt", field: string): Promise<Prisma.ChatWhereInput> {
  let at: Date;
  let id: string;
  const m = /^(\d+)_(.+)$/.exec(cursor);
  if (m) {
    at = new Date(Number(m[1]));
    id = m[2];
  } else {
    const chat = await ctx.db.chat.findFirst({ where: { id: cursor, accountId: ownerId }, select: { id: true, updatedAt: true } });
    if (!chat) throw Invalid(`${field}: unknown cursor`, { [field]: "is invalid" });
    ({ updatedAt: at, id } = chat);
  }
  return { OR: [{ updatedAt: { [direction]: at } }, { updatedAt: at, id: { [direction]: id } }] };
}
