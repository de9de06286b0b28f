// The reference API's Notification entity with the family's `<ns>.is_seen`, `emoji` (reactions),
// `target` (moves) and `report`. A listed page's statuses' data came with its statement (listNotifications);
// other notifications load it here, in one statement, then every account (the notifications' and the
// statuses' authors) renders in one batch.
import type { Account } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { loadStatusData } from "../../src/domain/statuses/status-data.ts";
import { wireType, type ListedNotificationRow, type NotificationRow } from "../../src/domain/notifications/notifications.ops.ts";
import { mutedAmong } from "../../src/domain/relationships/relationships.read.ts";
import { loadFound } from "../../src/domain/loaders.ts";
import { loadSeveranceEvents, loadWarnings } from "../../src/domain/notifications/moderation-notices.read.ts";
import { renderAccounts } from "./account.ts";
import { chatMentionMessages } from "./chat.ts";
import { renderLoadedStatuses } from "./status.ts";
import { renderSeveranceEvent, renderWarning } from "./moderation-notices.ts";

export async function renderNotifications(ctx: Ctx, rows: NotificationRow[]) {
  if (rows.length === 0) return [];
  const movedIds = [...new Set(rows.filter((r) => r.type === "move" && r.fromAccount.movedToId).map((r) => r.fromAccount.movedToId!))];
  const statuses = [...new Map(rows.filter((r) => r.status).map((r) => [r.status!.id, r.status!])).values()];
  const fromIds = [...new Set(rows.map((r) => r.fromAccountId))];
  const [moved, data, chatMessages, muted, warnings, events] = await Promise.all([
    loadFound(ctx.loaders.account, movedIds),
    // the notifications' accounts' counts come with the statuses' data (one statement less)
    statuses.length ? loadStatusData(ctx, statuses, fromIds) : Promise.resolve(null),
    chatMentionMessages(ctx, rows.flatMap((r) => (r.type === "chat_mention" && r.chatMessageRefId ? [r.chatMessageRefId] : []))),
    // the family's `is_muted`: whether the reader mutes the notification's account (shown with with_muted)
    mutedAccounts(ctx, rows, fromIds),
    loadWarnings(ctx, rows.flatMap((r) => (r.accountWarningId ? [r.accountWarningId] : []))),
    loadSeveranceEvents(ctx, rows.flatMap((r) => (r.severanceEventId ? [r.severanceEventId] : []))),
  ]);
  // the notifications' accounts and the statuses' authors render in one batch
  const accounts = new Map<string, Account>();
  for (const a of [...rows.map((r) => r.fromAccount), ...rows.flatMap((r) => (r.report ? [r.report.target] : [])), ...moved, ...[...warnings.values()].map((w) => w.account), ...(data?.accounts.values() ?? [])])
    accounts.set(a.id, a);
  const renderedAccounts = await renderAccounts(ctx, [...accounts.values()], { counts: data?.accountCounts });
  const accountById = new Map(renderedAccounts.map((a) => [a.id, a]));
  const renderedStatuses = data ? renderLoadedStatuses(ctx, statuses, data, accountById) : [];
  const statusById = new Map(renderedStatuses.map((s) => [s.id, s]));
  const ns = ctx.settings.namespace;
  return rows.map((n) => {
    const out: Record<string, unknown> = {
      id: n.id,
      type: wireType(ctx, n.type),
      created_at: n.createdAt.toISOString(),
      account: accountById.get(n.fromAccountId),
    };
    if (n.statusId) out.status = statusById.get(n.statusId) ?? null;
    if (n.type === "emoji_reaction") out.emoji = n.emoji;
    if (n.type === "chat_mention") out.chat_message = (n.chatMessageRefId && chatMessages.get(n.chatMessageRefId)) ?? null;
    if (n.type === "move" && n.fromAccount.movedToId) out.target = accountById.get(n.fromAccount.movedToId) ?? null;
    const warning = n.accountWarningId ? warnings.get(n.accountWarningId) : undefined;
    if (warning) out.moderation_warning = renderWarning(warning, accountById.get(warning.accountId));
    const event = n.severanceEventId ? events.get(n.severanceEventId) : undefined;
    if (event) out.event = renderSeveranceEvent(event);
    if (n.report) {
      const r = n.report;
      const handled = r.state !== "open";
      out.report = {
        id: r.id,
        action_taken: handled,
        action_taken_at: handled ? r.updatedAt.toISOString() : null,
        category: "other",
        comment: r.comment,
        forwarded: r.forward && !r.target.local,
        created_at: r.createdAt.toISOString(),
        status_ids: r.statusIds,
        rule_ids: null,
        target_account: accountById.get(r.targetId),
      };
    }
    out[ns] = { is_seen: n.seen, is_muted: muted.has(n.fromAccountId) };
    return out;
  });
}

/** Which of the notifications' accounts the reader mutes: a listed page read it with its rows (listNotifications), others ask. */
async function mutedAccounts(ctx: Ctx, rows: NotificationRow[], fromIds: string[]): Promise<Set<string>> {
  const listed = rows as Partial<ListedNotificationRow>[];
  if (listed.every((r) => r.fromAccountMuted !== undefined)) return new Set(listed.flatMap((r) => (r.fromAccountMuted ? [r.fromAccountId!] : [])));
  const viewerId = ctx.viewer.account?.id;
  return viewerId ? mutedAmong(ctx, viewerId, fromIds) : new Set();
}

export async function renderNotification(ctx: Ctx, row: NotificationRow) {
  return (await renderNotifications(ctx, [row]))[0];
}
