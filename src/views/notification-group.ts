// Grouped notifications in the reference API's shape (v2): `{accounts, statuses, notification_groups}`,
// each account and status once. With `expand_accounts=partial_avatars` the newest account of each
// group is a full Account and the others come as `partial_accounts` (id, acct, url, avatars, locked, bot).
import type { Account, Status } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { sampleAccountIds, type NotificationGroup } from "../../src/domain/notifications/groups.ts";
import { wireType } from "../../src/domain/notifications/notifications.ops.ts";
import { renderAccounts } from "./account.ts";
import { renderNotifications } from "./notification.ts";
import { renderStatuses } from "./status.ts";

export async function renderNotificationGroups(ctx: Ctx, groups: NotificationGroup[], expand: "full" | "partial_avatars" = "full") {
  const samples = new Map(groups.map((g) => [g.key, sampleAccountIds(g)]));
  const accounts = new Map<string, Account>();
  const statuses = new Map<string, Status>();
  for (const g of groups)
    for (const n of g.notifications) {
      if (samples.get(g.key)!.includes(n.fromAccountId)) accounts.set(n.fromAccountId, n.fromAccount);
      if (n.status) statuses.set(n.status.id, n.status);
    }
  // reports, warnings and severance events render as in the v1 notification
  const reportGroups = groups.filter((g) => g.notifications[0].report || g.notifications[0].accountWarningId || g.notifications[0].severanceEventId);
  const [renderedAccounts, renderedStatuses, reports] = await Promise.all([
    renderAccounts(ctx, [...accounts.values()]),
    renderStatuses(ctx, [...statuses.values()]),
    reportGroups.length ? renderNotifications(ctx, reportGroups.map((g) => g.notifications[0])) : Promise.resolve([]),
  ]);
  const reportOf = new Map(reportGroups.map((g, i) => [g.key, reports[i] as { report?: unknown; moderation_warning?: unknown; event?: unknown }]));
  const full = new Set(expand === "partial_avatars" ? groups.map((g) => samples.get(g.key)![0]) : renderedAccounts.map((a) => a.id));
  const notificationGroups = groups.map((g) => {
    const newest = g.notifications[0];
    const oldest = g.notifications[g.notifications.length - 1];
    const out: Record<string, unknown> = {
      group_key: g.key,
      notifications_count: g.notifications.length,
      type: wireType(ctx, g.type),
      most_recent_notification_id: newest.id,
      page_min_id: oldest.id,
      page_max_id: newest.id,
      latest_page_notification_at: newest.createdAt.toISOString(),
      sample_account_ids: samples.get(g.key),
    };
    if (newest.statusId) out.status_id = newest.statusId;
    const attached = reportOf.get(g.key);
    if (attached?.report) out.report = attached.report;
    if (attached?.moderation_warning) out.moderation_warning = attached.moderation_warning;
    if (attached?.event) out.event = attached.event;
    if (g.type === "emoji_reaction") out.emoji = newest.emoji;
    return out;
  });
  const partial = renderedAccounts
    .filter((a) => !full.has(a.id))
    .map((a) => ({ id: a.id, acct: a.acct, url: a.url, avatar: a.avatar, avatar_static: a.avatar_static, locked: a.locked, bot: a.bot }));
  return {
    accounts: renderedAccounts.filter((a) => full.has(a.id)),
    ...(expand === "partial_avatars" ? { partial_accounts: partial } : {}),
    statuses: renderedStatuses,
    notification_groups: notificationGroups,
  };
}
