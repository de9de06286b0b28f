// Reference API conversations (direct messages) and the family's own conversation endpoints.
// A conversation's id is the Conversation id, the `<ns>.direct_conversation_id` of its statuses.
import { z } from "zod";
import type { Ctx } from "../../src/domain/context.ts";
import {
  conversationStatuses,
  deleteConversation,
  listConversations,
  readAllConversations,
  readConversation,
  showConversation,
  updateConversationRecipients,
  type ConversationView,
} from "../../src/domain/conversations/conversations.ops.ts";
import { array } from "../../src/domain/inputs.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../route.ts";
import { renderAccounts } from "../views/account.ts";
import { renderStatuses } from "../views/status.ts";

const idParam = z.object({ id: z.string() });
const tags = ["Conversations"];

/** The Conversation entity with `<ns>.recipients`; accounts and statuses are loaded once for the whole list. */
export async function renderConversations(ctx: Ctx, views: ConversationView[]) {
  if (views.length === 0) return [];
  const viewerId = ctx.viewer.account?.id;
  const ids = [...new Set(views.flatMap((v) => v.participation.recipientIds))];
  const [accounts, statuses] = await Promise.all([
    ctx.db.account.findMany({ where: { id: { in: ids } } }),
    renderStatuses(ctx, views.flatMap((v) => (v.lastStatus ? [v.lastStatus] : []))),
  ]);
  const rendered = new Map((await renderAccounts(ctx, accounts)).map((a) => [a.id, a]));
  const byStatus = new Map(statuses.map((s) => [s.id, s]));
  const ns = ctx.settings.namespace;
  return views.map(({ participation: p, lastStatus }) => {
    const recipients = p.recipientIds.flatMap((id) => (rendered.has(id) ? [rendered.get(id)!] : []));
    // everyone but the viewer, unless the viewer is alone in it (as in the family)
    const others = recipients.filter((a) => a.id !== viewerId);
    return {
      id: p.conversationId,
      unread: p.unread,
      accounts: others.length ? others : recipients,
      last_status: lastStatus ? (byStatus.get(lastStatus.id) ?? null) : null,
      [ns]: { recipients },
    };
  });
}

async function renderConversation(ctx: Ctx, view: ConversationView) {
  return (await renderConversations(ctx, [view]))[0];
}

export const conversationRoutes = [
  route({
    method: "GET",
    path: "/api/v1/conversations",
    summary: "The viewer's direct conversations, most recently active first",
    tags,
    auth: { scopes: ["read:statuses"] },
    query: pageInput.extend({ recipients: array(z.string()).optional() }),
    paged: "id",
    async handler(ctx, input) {
      const page = await listConversations(ctx, input.query);
      return { ...page, items: await renderConversations(ctx, page.items) };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/conversations/:id",
    summary: "Remove the conversation from the viewer's list",
    tags,
    auth: { scopes: ["write:conversations"] },
    params: idParam,
    async handler(ctx, input) {
      return deleteConversation(ctx, input.params);
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/conversations/:id/read",
    summary: "Mark a conversation read",
    tags,
    auth: { scopes: ["write:conversations"] },
    params: idParam,
    async handler(ctx, input) {
      return renderConversation(ctx, await readConversation(ctx, input.params));
    },
  }),
  // own API; the fixed path comes before /:id
  route({
    method: "POST",
    path: "/api/v1/$ns/conversations/read",
    summary: "Mark every conversation read; answers the conversations that were unread",
    tags,
    auth: { scopes: ["write:conversations"] },
    async handler(ctx) {
      return renderConversations(ctx, await readAllConversations(ctx, {}));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/conversations/:id/statuses",
    summary: "Statuses of a conversation, newest first",
    tags,
    auth: { scopes: ["read:statuses"] },
    params: idParam,
    query: pageInput,
    paged: "id",
    async handler(ctx, input) {
      const page = await conversationStatuses(ctx, { ...input.query, id: input.params.id });
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/conversations/:id",
    summary: "One conversation of the viewer",
    tags,
    auth: { scopes: ["read:statuses"] },
    params: idParam,
    async handler(ctx, input) {
      return renderConversation(ctx, await showConversation(ctx, input.params));
    },
  }),
  route({
    method: "PATCH",
    path: "/api/v1/$ns/conversations/:id",
    summary: "Replace the recipients of the viewer's replies in this conversation (the viewer always stays)",
    tags,
    auth: { scopes: ["write:conversations"] },
    params: idParam,
    body: z.object({ recipients: array(z.string()).optional() }),
    query: z.object({ recipients: array(z.string()).optional() }),
    async handler(ctx, input) {
      const recipients = input.body.recipients ?? input.query.recipients ?? [];
      return renderConversation(ctx, await updateConversationRecipients(ctx, { id: input.params.id, recipients }));
    },
  }),
];
