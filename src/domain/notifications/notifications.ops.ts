// Reading and dismissing notifications. Stored types carry no namespace prefix; on the wire the
// family's own types are `<ns>:emoji_reaction`, `<ns>:chat_mention`, `<ns>:report`.
import { z } from "zod";
import { decodeModel, modelJson, modelJsonById } from "../../db/model-rows.ts";
import { rows as sqlRows } from "../../db/sql.ts";
import { Prisma, type Account, type Notification, type Status, type Visibility } from "../../generated/prisma/client.ts";
import { accountCache } from "../accounts/account-cache.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Forbidden, Invalid, NotFound } from "../../kernel/errors.ts";
import { array, bool } from "../inputs.ts";
import { operation } from "../operation.ts";
import { keyset, limitSql, pageInput, type Page } from "../pagination.ts";
import { activeRelation } from "../relationships/relationships.read.ts";
import { lastPage, rememberPage } from "../page-hints.ts";
import { loadPageWithStatusData } from "../statuses/status-data.ts";
import { sqlArray, visibleAuthorSql, visibleStatusSql, visibleWhere } from "../statuses/visibility.ts";
import type { NotificationType } from "./notify.ts";

export const REFERENCE_TYPES = ["mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update", "move", "moderation_warning", "severed_relationships"] as const;
export const FAMILY_TYPES = ["emoji_reaction", "chat_mention", "report"] as const;
/** shown only when asked for by `types` / `include_types` */
export const OPT_IN_TYPES: readonly NotificationType[] = ["chat_mention", "report"];
const ALL_TYPES: readonly NotificationType[] = [...REFERENCE_TYPES, ...FAMILY_TYPES];
const VISIBILITIES: readonly Visibility[] = ["public", "unlisted", "private", "direct", "local", "list"];
/** how many notifications POST <ns>/notifications/read returns with max_id */
export const READ_RETURN_LIMIT = 80;

/** The wire name of a stored type. */
export function wireType(ctx: Ctx, type: string): string {
  return (FAMILY_TYPES as readonly string[]).includes(type) ? `${ctx.settings.namespace}:${type}` : type;
}

/** The stored type of a wire name (`<ns>:emoji_reaction` → `emoji_reaction`); unknown names give undefined. */
export function storedType(ctx: Ctx, name: string): NotificationType | undefined {
  const prefix = `${ctx.settings.namespace}:`;
  const bare = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if ((FAMILY_TYPES as readonly string[]).includes(bare) && bare === name) return undefined; // family types need the prefix
  return ALL_TYPES.find((t) => t === bare);
}

export const listNotificationsInput = pageInput.extend({
  types: array(z.string()).optional(),
  include_types: array(z.string()).optional(),
  exclude_types: array(z.string()).optional(),
  exclude_visibilities: array(z.string()).optional(),
  account_id: z.string().optional(),
  with_muted: bool().optional(),
});

/** The types a listing shows: the requested ones (both parameter names), else every default one; minus exclusions. */
function typesShown(ctx: Ctx, input: Pick<z.output<typeof listNotificationsInput>, "types" | "include_types" | "exclude_types">): NotificationType[] {
  const requested = [...(input.types ?? []), ...(input.include_types ?? [])];
  const known = (names: string[]) => names.map((n) => storedType(ctx, n)).filter((t): t is NotificationType => !!t);
  const base = requested.length ? known(requested) : ALL_TYPES.filter((t) => !OPT_IN_TYPES.includes(t));
  const excluded = new Set(known(input.exclude_types ?? []));
  return [...new Set(base)].filter((t) => !excluded.has(t));
}

/** What every read of the viewer's notifications shares: theirs, from live unsilenced accounts, about statuses they may see. */
function readableWhere(ctx: Ctx, meId: string, withMuted = false): Prisma.NotificationWhereInput {
  const silenced = withMuted ? ["block" as const] : ["block" as const, "mute" as const];
  return {
    accountId: meId,
    // held back by the notification policy: shown only through its request (notification-requests.ops.ts)
    filtered: false,
    fromAccount: { deactivated: false, relationsIn: { none: { sourceId: meId, type: { in: silenced }, ...activeRelation(ctx.clock()) } } },
    OR: [{ statusId: null }, { status: visibleWhere(ctx) }],
  };
}

export type NotificationRow = Prisma.NotificationGetPayload<{ include: typeof notificationInclude }>;
export const notificationInclude = { fromAccount: true, status: true, report: { include: { target: true } } } as const;

type Json = Record<string, unknown>;

/**
 * `notificationInclude` for a page in one statement (the include costs one per relation, sent even
 * when no notification of the page has a status or a report). Sent for an empty page too, as the
 * include was: a call costs the same whatever it finds (GraphQL's next-page probe counts on it). Its
 * text is the same for every page (one array per list: PostgreSQL keeps its plan), and the accounts
 * the account cache holds are not read again (accounts/account-cache.ts).
 */
async function withRelations(ctx: Ctx, page: Notification[]): Promise<NotificationRow[]> {
  const present = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))];
  const cache = accountCache(ctx);
  const accounts = new Map<string, Account>();
  for (const id of present(page.map((r) => r.fromAccountId))) {
    const hit = cache.get(id);
    if (hit) accounts.set(id, hit);
  }
  const reportIds = present(page.map((r) => r.reportId));
  const unread = present(page.map((r) => r.fromAccountId)).filter((id) => !accounts.has(id));
  const since = cache.begin();
  const [found] = await sqlRows<Relations & { statuses: Json[] | null }>(ctx.db, Prisma.sql`
    SELECT
      ${modelJsonById(ctx.db, "Account", Prisma.sql`SELECT unnest(${unread}::text[]) UNION SELECT target_id FROM reports WHERE id = ANY(${reportIds}::text[])`)} AS accounts,
      ${modelJsonById(ctx.db, "Status", Prisma.sql`SELECT unnest(${present(page.map((r) => r.statusId))}::text[])`)} AS statuses,
      ${modelJsonById(ctx.db, "Report", Prisma.sql`SELECT unnest(${reportIds}::text[])`)} AS reports`);
  const statuses = new Map((found.statuses ?? []).map((j) => decodeModel(ctx.db, "Status", j)).map((s) => [s.id, s]));
  return attachRelations(ctx, page, found, statuses, accounts, since);
}

/** The relations of a page of notifications as a statement read them (JSON rows): its accounts and reports (and statuses). */
interface Relations {
  accounts: Json[] | null;
  reports: Json[] | null;
}

/** The columns of a listed page's statement beside its statuses' data (listNotifications). */
interface NotificationColumns {
  n_rows: Json[] | null;
  n_accounts: Json[] | null;
  n_reports: Json[] | null;
  n_muted: string[] | null;
}

/**
 * `page` with its relations: the accounts read (`found`, stored in the account cache) or held already (`accounts`),
 * the statuses by id.
 */
function attachRelations(ctx: Ctx, page: Notification[], found: Relations, statuses: Map<string, Status>, accounts: Map<string, Account>, since: number): NotificationRow[] {
  const cache = accountCache(ctx);
  for (const a of (found.accounts ?? []).map((j) => decodeModel(ctx.db, "Account", j))) {
    accounts.set(a.id, a);
    cache.store(since, a);
  }
  const byId = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
  const reports = byId((found.reports ?? []).map((j) => decodeModel(ctx.db, "Report", j)));
  return page.map((n) => {
    const report = n.reportId ? reports.get(n.reportId) : undefined;
    return {
      ...n,
      fromAccount: accounts.get(n.fromAccountId)!,
      status: (n.statusId && statuses.get(n.statusId)) || null,
      report: report ? { ...report, target: accounts.get(report.targetId)! } : null,
    };
  });
}

/** A listed notification: its relations, and whether the reader mutes its account (the family's `is_muted`), read with the page. */
export type ListedNotificationRow = NotificationRow & { fromAccountMuted: boolean };

export const listNotifications = operation({
  name: "notifications.list",
  access: { scopes: ["read:notifications"] },
  input: listNotificationsInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Page<ListedNotificationRow>> {
    const me = requireAccount(ctx);
    const page = keyset(input, { defaultLimit: 20, maxLimit: 40 });
    const hidden = (input.exclude_visibilities ?? []).filter((v): v is Visibility => (VISIBILITIES as readonly string[]).includes(v));
    // readableWhere in SQL (one hand-written statement: Prisma's runtime cost a fifth of the page's CPU)
    const now = Prisma.sql`(${ctx.clock().toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
    const silenced = input.with_muted ? ["block"] : ["block", "mute"];
    const and = [
      Prisma.sql`n.account_id = ${me.id}`,
      Prisma.sql`NOT n.filtered`,
      Prisma.sql`NOT fa.deactivated`,
      Prisma.sql`n.from_account_id NOT IN (SELECT r.target_id FROM user_relationships r WHERE r.source_id = ${me.id}
        AND r.type = ANY (${sqlArray(silenced, '"RelationshipType"')}) AND (r.expires_at IS NULL OR r.expires_at > ${now}))`,
      Prisma.sql`(n.status_id IS NULL OR (s.id IS NOT NULL AND ${visibleAuthorSql(ctx, Prisma.sql`s`, Prisma.sql`a`)} AND ${visibleStatusSql(ctx, Prisma.sql`s`)}))`,
      Prisma.sql`n.type = ANY (${typesShown(ctx, input)}::text[])`,
    ];
    if (hidden.length) and.push(Prisma.sql`(n.status_id IS NULL OR s.visibility <> ALL (${sqlArray(hidden, '"Visibility"')}))`);
    if (input.account_id) and.push(Prisma.sql`n.from_account_id = ${input.account_id}`);
    if (page.cursor?.lt) and.push(Prisma.sql`n.id < ${page.cursor.lt}`);
    if (page.cursor?.gt) and.push(Prisma.sql`n.id > ${page.cursor.gt}`);
    const direction = Prisma.raw(page.order === "asc" ? "ASC" : "DESC");
    // the page, its relations (accounts, statuses, reports), the reader's mutes among its accounts and everything
    // its statuses render with, in ONE statement (status-data.ts loadPageWithStatusData: the statuses of the page are
    // its `_page`; rendering then reads nothing). Which accounts the page shows is not known before it runs: those
    // of the reader's last page that the account cache holds are not read again (src/domain/page-hints.ts)
    const cache = accountCache(ctx);
    const hintKey = `notifications:${me.id}`;
    const held = new Map<string, Account>();
    for (const id of lastPage<string[]>(ctx, hintKey) ?? []) {
      const hit = cache.get(id);
      if (hit) held.set(id, hit);
    }
    const since = cache.begin();
    const { columns: found, data } = await loadPageWithStatusData<NotificationColumns>(
      ctx,
      {
        with: Prisma.sql`_npage AS (
          SELECT n.id, n.from_account_id, n.status_id, n.report_id, ${modelJson(ctx.db, "Notification", "n")} AS row FROM notifications n
          JOIN accounts fa ON fa.id = n.from_account_id
          LEFT JOIN statuses s ON s.id = n.status_id
          LEFT JOIN accounts a ON a.id = s.account_id
          WHERE ${Prisma.join(and, " AND ")}
          ORDER BY n.id ${direction} LIMIT ${limitSql(page.take)})`,
        rows: Prisma.sql`SELECT id, reblog_of_id FROM statuses WHERE id IN (SELECT status_id FROM _npage)`,
        direction,
        columns: [
          Prisma.sql`(SELECT json_agg(_n.row ORDER BY _n.id ${direction}) FROM _npage _n) AS n_rows`,
          Prisma.sql`${modelJsonById(ctx.db, "Account", Prisma.sql`SELECT _shown.id FROM (SELECT from_account_id FROM _npage UNION SELECT target_id FROM reports WHERE id IN (SELECT report_id FROM _npage)) AS _shown(id)
            WHERE array_position(${[...held.keys()]}::text[], _shown.id) IS NULL`)} AS n_accounts`,
          Prisma.sql`${modelJsonById(ctx.db, "Report", Prisma.sql`SELECT DISTINCT report_id FROM _npage WHERE report_id IS NOT NULL`)} AS n_reports`,
          Prisma.sql`(SELECT json_agg(r.target_id) FROM user_relationships r WHERE r.source_id = ${me.id} AND r.type = 'mute'
            AND (r.expires_at IS NULL OR r.expires_at > ${now}) AND r.target_id IN (SELECT from_account_id FROM _npage)) AS n_muted`,
        ],
        // the notifications' accounts render with their counts, read with the authors' (views/notification.ts)
        alsoCounted: Prisma.sql`SELECT from_account_id FROM _npage`,
      },
      `notifications:${me.id}:statuses`,
    );
    const rows = (found.n_rows ?? []).map((j) => decodeModel(ctx.db, "Notification", j));
    const muted = new Set(found.n_muted ?? []);
    const listed = attachRelations(ctx, rows, { accounts: found.n_accounts, reports: found.n_reports }, data.statuses, held, since).map((r) => ({
      ...r,
      fromAccountMuted: muted.has(r.fromAccountId),
    }));
    rememberPage(ctx, hintKey, [...new Set(listed.flatMap((r) => [r.fromAccountId, ...(r.report ? [r.report.targetId] : [])]))]);
    return page.finish(listed, (r) => r.id);
  },
});

/** The viewer's readable notifications of the listing's types (and account), for groups and unread counts. */
export function getNotificationsWhere(
  ctx: Ctx,
  meId: string,
  input: { types?: string[]; exclude_types?: string[]; account_id?: string } = {},
): Prisma.NotificationWhereInput {
  return { AND: [readableWhere(ctx, meId), { type: { in: typesShown(ctx, input) } }, input.account_id ? { fromAccountId: input.account_id } : {}] };
}

/** Notifications matching `where`, newest first, with their relations (at most 1000: a group's worth). */
export async function readableNotifications(ctx: Ctx, where: Prisma.NotificationWhereInput): Promise<NotificationRow[]> {
  return withRelations(ctx, await ctx.db.notification.findMany({ where, orderBy: { id: "desc" }, take: 1000 }));
}

const idInput = z.object({ id: z.string() });

export const getNotification = operation({
  name: "notifications.get",
  access: { scopes: ["read:notifications"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<NotificationRow> {
    const me = requireAccount(ctx);
    const row = await ctx.db.notification.findFirst({ where: { AND: [readableWhere(ctx, me.id, true), { id: input.id }] }, include: notificationInclude });
    if (!row) throw NotFound("Record not found");
    return row;
  },
});

export const clearNotifications = operation({
  name: "notifications.clear",
  access: { scopes: ["write:notifications"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<void> {
    await ctx.db.notification.deleteMany({ where: { accountId: requireAccount(ctx).id } });
  },
});

export const dismissNotification = operation({
  name: "notifications.dismiss",
  access: { scopes: ["write:notifications"] },
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const { count } = await ctx.db.notification.deleteMany({ where: { id: input.id, accountId: requireAccount(ctx).id } });
    // the family answers 403 with this message for a notification that is not the viewer's
    if (count === 0) throw Forbidden("Cannot get notification");
  },
});

export const destroyNotifications = operation({
  name: "notifications.destroyMultiple",
  access: { scopes: ["write:notifications"] },
  input: z.object({ ids: array(z.string()) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    await ctx.db.notification.deleteMany({ where: { id: { in: input.ids }, accountId: requireAccount(ctx).id } });
  },
});

/** The notifications marker follows the newest seen notification, as the family keeps it. */
export async function syncNotificationsMarker(ctx: Ctx, accountId: string): Promise<void> {
  const newest = await ctx.db.notification.findFirst({ where: { accountId, seen: true }, orderBy: { id: "desc" }, select: { id: true } });
  if (!newest) return;
  await ctx.db.marker.upsert({
    where: { accountId_timeline: { accountId, timeline: "notifications" } },
    create: { accountId, timeline: "notifications", lastReadId: newest.id },
    update: { lastReadId: newest.id, version: { increment: 1 } },
  });
}

/** Marks the viewer's notifications up to `maxId` as seen; returns the ids that changed. */
export async function markSeenUpTo(ctx: Ctx, accountId: string, maxId: string): Promise<string[]> {
  const unseen = await ctx.db.notification.findMany({ where: { accountId, seen: false, id: { lte: maxId } }, select: { id: true }, orderBy: { id: "desc" } });
  if (unseen.length) await ctx.db.notification.updateMany({ where: { id: { in: unseen.map((n) => n.id) } }, data: { seen: true } });
  return unseen.map((n) => n.id);
}

export const markNotificationsRead = operation({
  name: "notifications.markRead",
  access: { scopes: ["write:notifications"] },
  input: z.object({ id: z.string().optional(), max_id: z.string().optional() }),
  authorize: requireAccount,
  async run(ctx, input): Promise<{ one: NotificationRow } | { many: NotificationRow[] }> {
    const me = requireAccount(ctx);
    if ((input.id === undefined) === (input.max_id === undefined)) throw Invalid("Give either id or max_id, not both");
    if (input.id !== undefined) {
      const { count } = await ctx.db.notification.updateMany({ where: { id: input.id, accountId: me.id }, data: { seen: true } });
      if (count === 0) throw Invalid("Cannot get notification");
      await syncNotificationsMarker(ctx, me.id);
      return { one: await ctx.db.notification.findUniqueOrThrow({ where: { id: input.id }, include: notificationInclude }) };
    }
    const changed = await markSeenUpTo(ctx, me.id, input.max_id!);
    if (changed.length) await syncNotificationsMarker(ctx, me.id);
    const many = changed.length
      ? await ctx.db.notification.findMany({
          where: { AND: [readableWhere(ctx, me.id, true), { id: { in: changed } }] },
          include: notificationInclude,
          orderBy: { id: "desc" },
          take: READ_RETURN_LIMIT,
        })
      : [];
    return { many };
  },
});
