// Removing a remote instance (admin API `DELETE /instances/:instance`): the request logs it and queues a
// durable job; the job deletes every account of that host with all its content, in batches that survive
// a crash, and logs its progress.
import { z } from "zod";
import { storedHost } from "../../db/like.ts";
import { deletedStatusesWhere } from "../streams/streams.read.ts";
import type { Ctx } from "../context.ts";
import { operation } from "../operation.ts";
import { NotFound } from "../../kernel/errors.ts";
import { bool, int } from "../inputs.ts";
import { instanceHealth, type InstanceHealth } from "../federation/instances.ts";
import { actorOf, logAction, logActionAs, type Actor } from "../moderation-log/log.ts";
import { removeStored } from "../../media/storage.ts";
import { evictProxied } from "../media/proxy-cache.ts";
import { allStatusesChanged } from "../statuses/status-cache.ts";

export const PURGE_INSTANCE_JOB = "admin.instances.purge";
const BATCH = 100;

export const purgeInstance = operation({
  name: "admin.instances.purge",
  access: { scopes: ["admin:write:accounts", "admin:write:statuses"], privilege: "instances_delete" },
  input: z.object({ instance: z.string().trim().min(1) }),
  async run(ctx, input): Promise<string> {
    const host = input.instance.toLowerCase();
    const actor = actorOf(ctx);
    await logAction(ctx, { action: "instance_delete", instance: host });
    await ctx.jobs.enqueue(PURGE_INSTANCE_JOB, { host, actor });
    return input.instance;
  },
});

export interface PurgeInstancePayload {
  host: string;
  /** the admin who asked (older payloads have none) */
  actor?: Actor;
}

/**
 * The job's work, in batches of accounts, each batch one transaction, so a crash or restart resumes
 * where it stopped (the job is retried; what is gone stays gone). Remote accounts are deleted outright,
 * as the family deletes remote users (local accounts have no `domain`, so this server's own host matches
 * nothing). Statuses go first, while their authors exist: the status counters' trigger reads the
 * author's host. Their media rows, reactions, favourites, reblogs, follows both ways, notifications
 * and reports go with them by cascade; the instance's custom emoji rows go too, and every cached
 * copy of their files (media, avatars, headers, emoji) is evicted from the media proxy's cache. Progress
 * is written to the moderation log after each batch. While the host stands in `mrf_simple.reject`,
 * nothing of it comes back (src/domain/instance/rejected-domains.ts).
 */
export async function purgeInstanceAccounts(
  ctx: Pick<Ctx, "db" | "bus" | "clock" | "settings">,
  payload: PurgeInstancePayload,
  /** after each batch (the operator CLI's progress bar) */
  onBatch?: (accounts: number) => Promise<void>,
): Promise<{ accounts: number; statuses: number }> {
  const { db } = ctx;
  const { host } = payload;
  const actor = payload.actor ?? { id: null, nickname: "admin_token" };
  const hostFilter = storedHost(host);
  let accounts = 0;
  let statuses = 0;
  for (;;) {
    const batch = await db.account.findMany({ where: { local: false, domain: hostFilter }, select: { id: true, avatar: true, header: true }, take: BATCH });
    if (batch.length === 0) break;
    const ids = batch.map((a) => a.id);
    const media = await db.mediaAttachment.findMany({ where: { accountId: { in: ids } }, select: { url: true, remoteUrl: true } });
    const gone = await deletedStatusesWhere(ctx, { accountId: { in: ids } });
    const [removedStatuses] = await db.$transaction([
      db.status.deleteMany({ where: { accountId: { in: ids } } }),
      db.mediaAttachment.deleteMany({ where: { accountId: { in: ids } } }),
      db.notification.deleteMany({ where: { fromAccountId: { in: ids } } }),
      db.account.deleteMany({ where: { id: { in: ids } } }),
    ]);
    // counted on statuses anywhere (replies, reblogs); open streams drop them too
    allStatusesChanged(ctx);
    for (const d of gone) ctx.bus.publish("status_deleted", d);
    await forgetMedia(ctx, [...media.flatMap((m) => [m.url, m.remoteUrl]), ...batch.flatMap((a) => [a.avatar, a.header])]);
    accounts += ids.length;
    statuses += removedStatuses.count;
    await logActionAs(ctx, actor, { action: "instance_delete_progress", instance: host, accounts, statuses });
    await onBatch?.(ids.length);
  }
  const emoji = await db.remoteEmoji.findMany({ where: { domain: hostFilter }, select: { url: true } });
  await db.remoteEmoji.deleteMany({ where: { domain: hostFilter } });
  await forgetMedia(ctx, emoji.map((e) => e.url));
  await logActionAs(ctx, actor, { action: "instance_delete_done", instance: host, accounts, statuses });
  return { accounts, statuses };
}

/** Stored files (a local copy) and media proxy cache entries of these URLs. */
async function forgetMedia(ctx: Pick<Ctx, "settings" | "db">, urls: (string | null | undefined)[]) {
  const list = [...new Set(urls.filter((u): u is string => !!u))];
  for (const url of list) await removeStored(ctx, url);
  await evictProxied(ctx, list);
}

// ---- delivery health (federation): what the instances table records about each remote server

const instancesInput = z.object({
  /** only instances currently unreachable (true) or reachable (false) */
  unreachable: bool().optional(),
  page: int().default(1),
  page_size: int().default(50),
});

const pageSize = (n: number) => Math.min(500, Math.max(1, n));

/** Known remote instances with their delivery health, the unreachable first, then by domain. */
export const listInstances = operation({
  name: "admin.instances.list",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: instancesInput,
  async run(ctx, input): Promise<{ total: number; items: InstanceView[] }> {
    const where = input.unreachable === undefined ? {} : { unreachableSince: input.unreachable ? { not: null } : null };
    const [total, rows] = await Promise.all([
      ctx.db.instance.count({ where }),
      ctx.db.instance.findMany({ where, orderBy: [{ unreachableSince: { sort: "asc", nulls: "last" } }, { domain: "asc" }], skip: (Math.max(1, input.page) - 1) * pageSize(input.page_size), take: pageSize(input.page_size) }),
    ]);
    const now = ctx.clock();
    const counts = await instanceCounts(ctx, rows.map((r) => r.domain));
    return { total, items: rows.map((r) => ({ ...instanceHealth(r, now), ...counts(r.domain) })) };
  },
});

export type InstanceView = InstanceHealth & { users: number; statuses: number };

/**
 * Known accounts and statuses of these hosts, in two grouped queries whatever their number (statuses
 * from the counters the status trigger keeps per author host and visibility, reblogs excluded).
 */
async function instanceCounts(ctx: Ctx, domains: string[]): Promise<(domain: string) => { users: number; statuses: number }> {
  if (domains.length === 0) return () => ({ users: 0, statuses: 0 });
  const [users, statuses] = await Promise.all([
    ctx.db.account.groupBy({ by: ["domain"], where: { local: false, domain: { in: domains } }, _count: { _all: true } }),
    ctx.db.statusCounter.groupBy({ by: ["instance"], where: { instance: { in: domains } }, _sum: { count: true } }),
  ]);
  const u = new Map(users.map((r) => [r.domain, r._count._all]));
  const st = new Map(statuses.map((r) => [r.instance, Number(r._sum.count ?? 0)]));
  return (domain) => ({ users: u.get(domain) ?? 0, statuses: st.get(domain) ?? 0 });
}

/** One instance's delivery health; 404 when nothing was ever delivered to or heard from it. */
export const showInstance = operation({
  name: "admin.instances.show",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: z.object({ instance: z.string().trim().min(1) }),
  async run(ctx, input): Promise<InstanceView> {
    const row = await ctx.db.instance.findUnique({ where: { domain: input.instance.toLowerCase() } });
    if (!row) throw NotFound("Instance not found");
    return { ...instanceHealth(row, ctx.clock()), ...(await instanceCounts(ctx, [row.domain]))(row.domain) };
  },
});
