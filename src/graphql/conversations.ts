// Direct conversations as a Relay connection, through the operations REST calls. Accounts load
// through the request's batch loader, last statuses through its batched status data.
import type { Account } from "../generated/prisma/client.ts";
import type { Ctx } from "../domain/context.ts";
import { cursorOf, deleteConversation, listConversations, readConversation, type ConversationView } from "../domain/conversations/conversations.ops.ts";
import { builder } from "./builder.ts";
import { AccountType, relayConnection, StatusType } from "./paging.ts";
import "./accounts.ts";
import "./statuses.ts";
import { accessOf } from "./access.ts";

async function recipients(ctx: Ctx, v: ConversationView): Promise<Account[]> {
  const loaded = await ctx.loaders.account.loadMany(v.participation.recipientIds);
  return loaded.filter((a): a is Account => !!a && !(a instanceof Error));
}

export const Conversation = builder.objectRef<ConversationView>("Conversation").implement({
  fields: (t) => ({
    id: t.id({ description: "the conversation id (`<ns>.direct_conversation_id` of its statuses)", resolve: (v) => v.participation.conversationId }),
    unread: t.boolean({ resolve: (v) => v.participation.unread }),
    accounts: t.field({
      type: [AccountType],
      description: "everyone but the viewer, unless the viewer is alone in it (as REST's `accounts`)",
      resolve: async (v, _a, ctx) => {
        const all = await recipients(ctx, v);
        const others = all.filter((a) => a.id !== ctx.viewer.account?.id);
        return others.length ? others : all;
      },
    }),
    recipients: t.field({ type: [AccountType], description: "who a reply goes to; the viewer is always one", resolve: (v, _a, ctx) => recipients(ctx, v) }),
    lastStatus: t.field({ type: StatusType, nullable: true, resolve: (v) => v.lastStatus }),
  }),
});

const ConversationConnection = builder.connectionObject({ type: Conversation, name: "ConversationConnection" });

builder.queryFields((t) => ({
  conversations: t.connection(
    {
      ...accessOf(listConversations),
      type: Conversation,
      description: "The viewer's direct conversations, most recently active first",
      args: { recipients: t.arg.idList({ description: "only conversations with all these recipients" }) },
      resolve: (_r, a, ctx) =>
        relayConnection(a, (p) => listConversations(ctx, { ...p, recipients: a.recipients?.map(String) }), {
          // the operation's cursor: most recent activity, then participation id
          cursorOf: (v) => cursorOf(v.participation),
          floor: "0_0",
        }),
    },
    ConversationConnection,
  ),
}));

builder.mutationFields((t) => ({
  readConversation: t.field({
    ...accessOf(readConversation),
    type: Conversation,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => readConversation(ctx, { id: String(a.id) }),
  }),
  deleteConversation: t.boolean({
    ...accessOf(deleteConversation),
    description: "Removes the conversation from the viewer's list",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      await deleteConversation(ctx, { id: String(a.id) });
      return true;
    },
  }),
}));
