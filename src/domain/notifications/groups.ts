// Grouped notifications (reference API v2): favourites and reblogs of one status, and follows, that
// arrive within the same 12-hour window share a group; every other notification is a group of its
// own (`ungrouped-<id>`). The group key is computed from the notification (type, status, time
// window), not stored, so it needs no migration and a group can always be read back by its key.
// Pages hold `limit` groups; each counts the notifications of the page (the reference's page_min_id /
// page_max_id say which), so a group may continue on the next page, as in the reference.
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { array } from "../inputs.ts";
import { operation } from "../operation.ts";
import type { Page } from "../pagination.ts";
import { getNotificationsWhere, listNotifications, listNotificationsInput, readableNotifications, storedType, type NotificationRow } from "./notifications.ops.ts";
import type { NotificationType } from "./notify.ts";

/** the types the reference groups (by default all of them) */
export const GROUPABLE_TYPES: readonly NotificationType[] = ["favourite", "reblog", "follow"];
const WINDOW_MS = 12 * 3600 * 1000;
/** accounts named per group (`sample_account_ids`) */
const SAMPLE_ACCOUNTS = 8;
/** raw notifications read per batch while filling a page of groups, and batches at most */
const BATCH = 80;
const MAX_BATCHES = 5;

export interface NotificationGroup {
  key: string;
  type: string;
  /** the group's notifications in this page, newest first */
  notifications: NotificationRow[];
}

export function groupKeyOf(n: Pick<NotificationRow, "id" | "type" | "statusId" | "createdAt">, grouped: ReadonlySet<string>): string {
  if (!grouped.has(n.type) || !GROUPABLE_TYPES.includes(n.type as NotificationType)) return `ungrouped-${n.id}`;
  const window = Math.floor(n.createdAt.getTime() / WINDOW_MS);
  return n.type === "follow" ? `follow-${window}` : `${n.type}-${n.statusId}-${window}`;
}

/** The notifications a group key names (null for a key that names none). */
function keyWhere(key: string): Prisma.NotificationWhereInput | null {
  const parts = key.split("-");
  const during = (w: string) => {
    const n = Number(w);
    return Number.isSafeInteger(n) && n >= 0 ? { gte: new Date(n * WINDOW_MS), lt: new Date((n + 1) * WINDOW_MS) } : null;
  };
  if (parts[0] === "ungrouped" && parts.length === 2 && parts[1]) return { id: parts[1] };
  if (parts[0] === "follow" && parts.length === 2) {
    const createdAt = during(parts[1]);
    return createdAt && { type: "follow", createdAt };
  }
  if ((parts[0] === "favourite" || parts[0] === "reblog") && parts.length === 3 && parts[1]) {
    const createdAt = during(parts[2]);
    return createdAt && { type: parts[0], statusId: parts[1], createdAt };
  }
  return null;
}

/** Groups notifications (newest first) in order of their newest member. */
export function groupNotifications(rows: readonly NotificationRow[], grouped: ReadonlySet<string>): NotificationGroup[] {
  const groups = new Map<string, NotificationGroup>();
  for (const n of rows) {
    const key = groupKeyOf(n, grouped);
    const g = groups.get(key);
    if (g) g.notifications.push(n);
    else groups.set(key, { key, type: n.type, notifications: [n] });
  }
  return [...groups.values()];
}

export function sampleAccountIds(g: NotificationGroup): string[] {
  return [...new Set(g.notifications.map((n) => n.fromAccountId))].slice(0, SAMPLE_ACCOUNTS);
}

export const listNotificationGroupsInput = listNotificationsInput.extend({
  grouped_types: array(z.string()).optional(),
  expand_accounts: z.enum(["full", "partial_avatars"]).optional(),
  include_filtered: z.string().optional(),
});

function groupedTypes(ctx: Ctx, names: string[] | undefined): Set<string> {
  if (names === undefined) return new Set(GROUPABLE_TYPES);
  return new Set(names.map((n) => storedType(ctx, n)).filter((t): t is NotificationType => !!t));
}

/**
 * A page of `limit` groups (default 40, at most 80): notifications are read in batches (as
 * /api/v1/notifications reads them: same types, exclusions and paging) until the page holds `limit`
 * groups or there are no more; a page stops before the notification that would start one group too many.
 */
export const listNotificationGroups = operation({
  name: "notifications.groups.list",
  access: { scopes: ["read:notifications"] },
  input: listNotificationGroupsInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<NotificationGroup>> {
    const grouped = groupedTypes(ctx, input.grouped_types);
    const limit = Math.min(Math.max(input.limit ?? 40, 1), 80);
    const forward = !!input.min_id;
    const taken: NotificationRow[] = [];
    const keys = new Set<string>();
    let cursor = { max_id: input.max_id, since_id: input.since_id, min_id: input.min_id };
    let full = false;
    for (let batch = 0; batch < MAX_BATCHES && !full; batch++) {
      const page = await listNotifications(ctx, { ...input, ...cursor, limit: BATCH });
      // min_id pages run from the cursor upwards: take the oldest first
      const rows = forward ? [...page.items].reverse() : page.items;
      for (const n of rows) {
        const key = groupKeyOf(n, grouped);
        if (!keys.has(key) && keys.size === limit) {
          full = true;
          break;
        }
        keys.add(key);
        taken.push(n);
      }
      if (page.items.length < BATCH || !page.first || !page.last) break;
      cursor = forward ? { max_id: undefined, since_id: undefined, min_id: page.first } : { max_id: page.last, since_id: input.since_id, min_id: undefined };
    }
    const rows = forward ? taken.reverse() : taken;
    return { items: groupNotifications(rows, grouped), first: rows[0]?.id, last: rows[rows.length - 1]?.id };
  },
});

const keyInput = z.object({ group_key: z.string().max(200) });

async function groupRows(ctx: Ctx, key: string): Promise<NotificationRow[]> {
  const me = requireAccount(ctx);
  const where = keyWhere(key);
  const rows = where ? await readableNotifications(ctx, { AND: [getNotificationsWhere(ctx, me.id), where] }) : [];
  if (rows.length === 0) throw NotFound("Record not found");
  return rows;
}

/** One group with all its notifications. */
export const getNotificationGroup = operation({
  name: "notifications.groups.show",
  access: { scopes: ["read:notifications"] },
  input: keyInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<NotificationGroup> {
    const rows = await groupRows(ctx, input.group_key);
    return { key: input.group_key, type: rows[0].type, notifications: rows };
  },
});

/** The accounts of a group, newest first. */
export const notificationGroupAccounts = operation({
  name: "notifications.groups.accounts",
  access: { scopes: ["read:notifications"] },
  input: keyInput,
  authorize: requireAccount,
  async run(ctx, input) {
    const rows = await groupRows(ctx, input.group_key);
    return [...new Map(rows.map((n) => [n.fromAccountId, n.fromAccount])).values()];
  },
});

export const dismissNotificationGroup = operation({
  name: "notifications.groups.dismiss",
  access: { scopes: ["write:notifications"] },
  input: keyInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const me = requireAccount(ctx);
    const where = keyWhere(input.group_key);
    const { count } = where ? await ctx.db.notification.deleteMany({ where: { AND: [{ accountId: me.id }, where] } }) : { count: 0 };
    if (count === 0) throw NotFound("Record not found");
  },
});

export const unreadCountInput = z.object({
  limit: z.coerce.number().int().optional(),
  types: array(z.string()).optional(),
  exclude_types: array(z.string()).optional(),
  account_id: z.string().optional(),
  grouped_types: array(z.string()).optional(),
});

/**
 * Unread notifications (not seen: newer than the notifications marker, which follows what was
 * seen), at most `limit` (default 100, at most 1000); `grouped` counts groups instead (v2).
 */
export const unreadNotificationCount = operation({
  name: "notifications.unreadCount",
  access: { scopes: ["read:notifications"] },
  input: unreadCountInput.extend({ grouped: z.boolean().optional() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<number> {
    const me = requireAccount(ctx);
    const limit = Math.min(Math.max(input.limit ?? 100, 1), 1000);
    const where = { AND: [getNotificationsWhere(ctx, me.id, input), { seen: false }] };
    if (!input.grouped) return ctx.db.notification.count({ where, take: limit });
    const grouped = groupedTypes(ctx, input.grouped_types);
    const rows = await ctx.db.notification.findMany({ where, select: { id: true, type: true, statusId: true, createdAt: true }, orderBy: { id: "desc" }, take: limit * 10 });
    return Math.min(new Set(rows.map((n) => groupKeyOf(n, grouped))).size, limit);
  },
});
