// Direct-message conversations: one Conversation per thread of direct statuses, one participation per
// participant with its own unread flag and its own recipients (who a reply through the conversation
// goes to). Recipients are fixed when the participation is created and change only when its owner
// PATCHes them, as in the family.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Account, ConversationParticipation, Prisma, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { visibleWhere } from "../statuses/visibility.ts";
import { statusesChanged } from "../statuses/status-cache.ts";

export type Participation = ConversationParticipation;

/**
 * Called after a direct status is stored: joins the conversation chosen at draft time
 * (`in_reply_to_conversation_id`), else the parent's, else starts a new one; bumps every participant.
 * Returns the status with `directConversationId` set.
 */
export async function recordDirectStatus(ctx: Ctx, status: Status): Promise<Status> {
  if (status.visibility !== "direct" || status.reblogOfId) return status;
  let conversationId = status.directConversationId;
  if (conversationId && !(await ctx.db.conversation.findUnique({ where: { id: conversationId }, select: { id: true } }))) conversationId = null;
  if (!conversationId && status.inReplyToId) {
    const parent = await ctx.db.status.findUnique({ where: { id: status.inReplyToId }, select: { directConversationId: true } });
    conversationId = parent?.directConversationId ?? null;
  }
  const now = ctx.clock();
  if (conversationId) await ctx.db.conversation.update({ where: { id: conversationId }, data: { lastStatusId: status.id, updatedAt: now } });
  else conversationId = (await ctx.db.conversation.create({ data: { id: newId(), lastStatusId: status.id, createdAt: now, updatedAt: now } })).id;

  const wanted = [...new Set([status.accountId, ...status.recipientIds])];
  const existing = await ctx.db.account.findMany({ where: { id: { in: wanted } }, select: { id: true } });
  const participants = wanted.filter((id) => existing.some((a) => a.id === id));
  // as in the family, a participant who blocks the author is not told: the participation stays as it was
  const blocking = await ctx.db.userRelationship.findMany({
    where: { type: "block", sourceId: { in: participants }, targetId: status.accountId },
    select: { sourceId: true },
  });
  const silent = new Set(blocking.map((b) => b.sourceId));
  const told = participants.filter((id) => !silent.has(id));
  const untold = participants.filter((id) => silent.has(id));
  // race-free for two replies at once: an upsert with an update is one INSERT … ON CONFLICT DO UPDATE, and
  // a silent participant's row, created if missing and else left as it is, is ON CONFLICT DO NOTHING (an
  // upsert with an empty update would be a SELECT then an INSERT, failing the transaction on a lost race)
  await ctx.db.$transaction([
    ...told.map((accountId) => {
      const unread = accountId !== status.accountId;
      return ctx.db.conversationParticipation.upsert({
        where: { conversationId_accountId: { conversationId: conversationId!, accountId } },
        create: { id: newId(), conversationId: conversationId!, accountId, unread, recipientIds: participants, updatedAt: now },
        update: { unread, updatedAt: now },
      });
    }),
    ...(untold.length
      ? [ctx.db.conversationParticipation.createMany({ data: untold.map((accountId) => ({ id: newId(), conversationId: conversationId!, accountId, unread: false, recipientIds: participants, updatedAt: now })), skipDuplicates: true })]
      : []),
  ]);
  const updated = await ctx.db.status.update({ where: { id: status.id }, data: { directConversationId: conversationId } });
  statusesChanged(ctx, [status.id]); // direct_conversation_id
  for (const accountId of participants) if (!silent.has(accountId)) ctx.bus.publish("conversation", { accountId, conversationId });
  return updated;
}

/**
 * For posting with `in_reply_to_conversation_id`: the poster's participation recipients (without the
 * poster), the conversation's newest status the poster can see (the parent), and the conversation id.
 */
export async function conversationReplyTarget(ctx: Ctx, me: Account, conversationId: string) {
  const participation = await ctx.db.conversationParticipation.findUnique({ where: { conversationId_accountId: { conversationId, accountId: me.id } } });
  if (!participation) throw Unprocessable("in_reply_to_conversation_id: conversation not found", { in_reply_to_conversation_id: "is unknown" });
  const [recipients, parent] = await Promise.all([
    ctx.db.account.findMany({ where: { id: { in: participation.recipientIds.filter((id) => id !== me.id) }, deactivated: false } }),
    ctx.db.status.findFirst({ where: { AND: [visibleWhere(ctx), { directConversationId: conversationId, reblogOfId: null }] }, orderBy: { id: "desc" }, include: { account: true } }),
  ]);
  return { conversationId, recipients, parent };
}

// ---- reading -------------------------------------------------------------------------------

export interface ConversationView {
  participation: Participation;
  lastStatus: Status | null;
}

/** The newest status of each conversation the viewer can see, in one query. */
async function withLastStatuses(ctx: Ctx, participations: Participation[]): Promise<ConversationView[]> {
  if (participations.length === 0) return [];
  const last = await ctx.db.status.findMany({
    where: { AND: [visibleWhere(ctx), { directConversationId: { in: participations.map((p) => p.conversationId) }, reblogOfId: null }] },
    orderBy: [{ directConversationId: "asc" }, { id: "desc" }],
    distinct: ["directConversationId"],
  });
  const byConversation = new Map(last.map((s) => [s.directConversationId!, s]));
  return participations.map((participation) => ({ participation, lastStatus: byConversation.get(participation.conversationId) ?? null }));
}

async function ownParticipation(ctx: Ctx, conversationId: string): Promise<Participation> {
  const me = requireAccount(ctx);
  const p = await ctx.db.conversationParticipation.findUnique({ where: { conversationId_accountId: { conversationId, accountId: me.id } } });
  if (!p) throw NotFound("Record not found");
  return p;
}

/** Cursor of a participation in "newest activity first" order: `<updatedAt ms>_<participation id>`. */
export function cursorOf(p: Participation): string {
  return `${p.updatedAt.getTime()}_${p.id}`;
}

function afterCursor(cursor: string, direction: "lt" | "gt"): Prisma.ConversationParticipationWhereInput {
  const m = /^(\d+)_(.+)$/.exec(cursor);
  if (!m) throw Invalid("Invalid cursor", { max_id: "is invalid" });
  const at = new Date(Number(m[1]));
  return { OR: [{ updatedAt: { [direction]: at } }, { updatedAt: at, id: { [direction]: m[2] } }] };
}

export const listConversations = operation({
  name: "conversations.list",
  access: { scopes: ["read:statuses"] },
  input: pageInput.extend({ recipients: array(z.string()).optional() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<ConversationView>> {
    const me = requireAccount(ctx);
    const page = keyset(input);
    const and: Prisma.ConversationParticipationWhereInput[] = [{ accountId: me.id }];
    if (input.max_id) and.push(afterCursor(input.max_id, "lt"));
    if (input.min_id) and.push(afterCursor(input.min_id, "gt"));
    else if (input.since_id) and.push(afterCursor(input.since_id, "gt"));
    if (input.recipients?.length) and.push({ recipientIds: { hasEvery: input.recipients } });
    const rows = await ctx.db.conversationParticipation.findMany({
      where: { AND: and },
      orderBy: [{ updatedAt: page.order }, { id: page.order }],
      take: page.take,
    });
    const result = page.finish(rows, cursorOf);
    return { ...result, items: await withLastStatuses(ctx, result.items) };
  },
});

export const showConversation = operation({
  name: "conversations.show",
  access: { scopes: ["read:statuses"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    return (await withLastStatuses(ctx, [await ownParticipation(ctx, input.id)]))[0];
  },
});

export const deleteConversation = operation({
  name: "conversations.delete",
  access: { scopes: ["write:conversations"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const p = await ownParticipation(ctx, input.id);
    await ctx.db.conversationParticipation.delete({ where: { id: p.id } });
    return {};
  },
});

export const readConversation = operation({
  name: "conversations.read",
  access: { scopes: ["write:conversations"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const p = await ownParticipation(ctx, input.id);
    const updated = p.unread ? await ctx.db.conversationParticipation.update({ where: { id: p.id }, data: { unread: false } }) : p;
    return (await withLastStatuses(ctx, [updated]))[0];
  },
});

/** Marks every conversation of the viewer read; answers those that were unread. */
export const readAllConversations = operation({
  name: "conversations.read_all",
  access: { scopes: ["write:conversations"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx) {
    const me = requireAccount(ctx);
    const unread = await ctx.db.conversationParticipation.findMany({ where: { accountId: me.id, unread: true }, orderBy: [{ updatedAt: "desc" }, { id: "desc" }] });
    if (unread.length) await ctx.db.conversationParticipation.updateMany({ where: { id: { in: unread.map((p) => p.id) } }, data: { unread: false } });
    return withLastStatuses(ctx, unread.map((p) => ({ ...p, unread: false })));
  },
});

/** Replaces the viewer's recipients of a conversation; the viewer always stays one of them. */
export const updateConversationRecipients = operation({
  name: "conversations.update_recipients",
  access: { scopes: ["write:conversations"] },
  input: z.object({ id: z.string(), recipients: array(z.string()) }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const p = await ownParticipation(ctx, input.id);
    const wanted = [...new Set(input.recipients.filter((id) => id !== me.id))];
    const found = await ctx.db.account.findMany({ where: { id: { in: wanted } }, select: { id: true } });
    if (found.length !== wanted.length) throw NotFound("Record not found");
    const updated = await ctx.db.conversationParticipation.update({ where: { id: p.id }, data: { recipientIds: [me.id, ...wanted] } });
    return (await withLastStatuses(ctx, [updated]))[0];
  },
});

/** Statuses of a conversation the viewer takes part in, newest first, as far as the viewer may see them. */
export const conversationStatuses = operation({
  name: "conversations.statuses",
  access: { scopes: ["read:statuses"] },
  input: pageInput.extend({ id: z.string() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<Status>> {
    await ownParticipation(ctx, input.id);
    const page = keyset(input);
    const rows = await ctx.db.status.findMany({
      where: { AND: [visibleWhere(ctx), { directConversationId: input.id }, page.cursor ? { id: page.cursor } : {}] },
      orderBy: { id: page.order },
      take: page.take,
    });
    return page.finish(rows, (s) => s.id);
  },
});
