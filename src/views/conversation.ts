// Reference API conversations: their accounts and last status rendered in batches (also streamed).
import type { Ctx } from "../../src/domain/context.ts";
import type { ConversationView } from "../../src/domain/conversations/conversations.ops.ts";
import { loadFound } from "../../src/domain/loaders.ts";
import { renderAccounts } from "./account.ts";
import { renderStatuses } from "./status.ts";

/** The Conversation entity with `<ns>.recipients`; accounts and statuses are loaded once for the whole list. */
export async function renderConversations(ctx: Ctx, views: ConversationView[]) {
  if (views.length === 0) return [];
  const viewerId = ctx.viewer.account?.id;
  const ids = [...new Set(views.flatMap((v) => v.participation.recipientIds))];
  const [accounts, statuses] = await Promise.all([
    loadFound(ctx.loaders.account, ids),
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

export async function renderConversation(ctx: Ctx, view: ConversationView) {
  return (await renderConversations(ctx, [view]))[0];
}
