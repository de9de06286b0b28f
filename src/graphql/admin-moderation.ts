// Status moderation, instance purge, statistics and the moderation log over GraphQL: the operations of
// the admin REST routes with the same guards, and a live `moderationLogEntryAdded` subscription.
import { purgeInstance } from "../domain/instances/instances.ops.ts";
import { dailyActivity, statusStats, type DailyActivity, type StatusVisibilityCounts } from "../domain/stats/stats.ops.ts";
import { adminDeleteStatus, adminInstanceStatuses, adminListStatuses, adminShowStatus, adminUpdateStatus } from "../domain/statuses/admin-statuses.ops.ts";
import type { Ctx } from "../domain/context.ts";
import { findLogEntry, listModerationLog } from "../domain/moderation-log/moderation-log.ops.ts";
import type { ModerationLogEntry } from "../generated/prisma/client.ts";
import { guardSubscription } from "./admin-auth.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { AccountType, opt, StatusType } from "./paging.ts";
import "./accounts.ts";
import "./statuses.ts";
import "./admin-instances.ts";

const LogEntry = builder.objectRef<ModerationLogEntry>("ModerationLogEntry").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    action: t.exposeString("action"),
    message: t.exposeString("message", { description: "the family's text, e.g. `@admin deleted status #…`" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    time: t.int({ description: "Unix time in seconds, as the REST entry's `time`", resolve: (e) => Math.floor(e.createdAt.getTime() / 1000) }),
    actor: t.field({ type: AccountType, nullable: true, description: "null for the admin token", resolve: (e, _a, ctx) => (e.actorId ? ctx.loaders.account.load(e.actorId) : null) }),
    dataJson: t.string({ description: "the REST entry's `data` object, JSON-encoded", resolve: (e) => JSON.stringify(e.data) }),
  }),
});

const VisibilityCounts = builder.objectRef<StatusVisibilityCounts>("StatusVisibilityCounts").implement({
  fields: (t) => ({ public: t.exposeInt("public"), unlisted: t.exposeInt("unlisted"), private: t.exposeInt("private"), direct: t.exposeInt("direct") }),
});

const DailyActivityType = builder.objectRef<DailyActivity>("DailyActivity").implement({
  description: "What happened on one UTC day",
  fields: (t) => ({
    day: t.exposeString("day", { description: "YYYY-MM-DD (UTC)" }),
    localStatuses: t.exposeInt("localStatuses", { description: "statuses written here" }),
    remoteStatuses: t.exposeInt("remoteStatuses", { description: "statuses received from other instances" }),
    signups: t.exposeInt("signups", { description: "local accounts created" }),
  }),
});


builder.queryFields((t) => ({
  adminStatuses: t.connection(
    {
      ...accessOf(adminListStatuses),
      type: StatusType,
      description: "Statuses newest first: public and unlisted unless godmode, without reblogs unless withReblogs",
      args: { localOnly: t.arg.boolean(), godmode: t.arg.boolean(), withReblogs: t.arg.boolean() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const input = { offset, page_size: limit, local_only: opt(args.localOnly), godmode: opt(args.godmode), with_reblogs: opt(args.withReblogs), with_total: true };
          const { total, items } = await adminListStatuses(ctx, input);
          return { total: total ?? 0, items };
        }),
    },
    { name: "AdminStatusConnection", ...totalCountField },
  ),
  adminInstanceStatuses: t.connection(
    {
      ...accessOf(adminInstanceStatuses),
      type: StatusType,
      description: "Statuses of one host's accounts (this server's host: local statuses)",
      args: { instance: t.arg.string({ required: true }), godmode: t.arg.boolean(), withReblogs: t.arg.boolean() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const { total, items } = await adminInstanceStatuses(ctx, { instance: args.instance, offset, page_size: limit, godmode: opt(args.godmode), with_reblogs: opt(args.withReblogs) });
          return { total: total ?? 0, items };
        }),
    },
    { name: "AdminInstanceStatusConnection", ...totalCountField },
  ),
  adminStatus: t.field({
    ...accessOf(adminShowStatus),
    type: StatusType,
    description: "One status, whatever its visibility",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => adminShowStatus(ctx, { id: String(args.id) }),
  }),
  moderationLog: t.connection(
    {
      ...accessOf(listModerationLog),
      type: LogEntry,
      description: "Moderation-log entries, newest first",
      args: {
        search: t.arg.string({ description: "part of the message, case-insensitive" }),
        userId: t.arg.id({ description: "the acting account" }),
        startDate: t.arg({ type: "DateTime" }),
        endDate: t.arg({ type: "DateTime" }),
      },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, (offset, limit) =>
          listModerationLog(ctx, {
            offset,
            page_size: limit,
            search: opt(args.search),
            user_id: args.userId ? String(args.userId) : undefined,
            start_date: args.startDate?.toISOString(),
            end_date: args.endDate?.toISOString(),
          }),
        ),
    },
    { name: "ModerationLogConnection", ...totalCountField },
  ),
  stats: t.field({
    ...accessOf(statusStats),
    type: VisibilityCounts,
    description: "Status counts by visibility, for every instance or one host (this server's host: local statuses)",
    args: { instance: t.arg.string() },
    resolve: (_root, args, ctx) => statusStats(ctx, { instance: opt(args.instance) }),
  }),
  adminActivity: t.field({
    ...accessOf(dailyActivity),
    type: [DailyActivityType],
    description: "New statuses (local and remote) and local sign-ups per UTC day, the last `days` days (1 to 90, default 14) oldest first, today included",
    args: { days: t.arg.int() },
    resolve: (_root, args, ctx) => dailyActivity(ctx, { days: opt(args.days) }),
  }),
}));

builder.mutationFields((t) => ({
  adminUpdateStatus: t.field({
    ...accessOf(adminUpdateStatus),
    type: StatusType,
    args: { id: t.arg.id({ required: true }), sensitive: t.arg.boolean(), visibility: t.arg.string({ description: "public, private or unlisted" }) },
    resolve: (_root, args, ctx) => adminUpdateStatus(ctx, { id: String(args.id), sensitive: opt(args.sensitive), visibility: opt(args.visibility) }),
  }),
  adminDeleteStatus: t.field({
    ...accessOf(adminDeleteStatus),
    type: "ID",
    description: "Deletes a status; answers its id",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await adminDeleteStatus(ctx, { id: String(args.id) })).id,
  }),
  purgeInstance: t.field({
    ...accessOf(purgeInstance),
    type: "String",
    description: "Queues the removal of every account of a remote host and their content; answers the host",
    args: { instance: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => purgeInstance(ctx, { instance: args.instance }),
  }),
}));

/** The entry the bus announced; its writer's transaction may commit a moment after the announcement. */
async function announcedEntry(ctx: Ctx, id: number): Promise<ModerationLogEntry> {
  for (let attempt = 0; ; attempt++) {
    const entry = await findLogEntry(ctx, id);
    if (entry) return entry;
    if (attempt >= 20) throw new Error(`moderation log entry ${id} not found`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

builder.subscriptionField("moderationLogEntryAdded", (t) =>
  t.field({
    ...accessOf(listModerationLog),
    type: LogEntry,
    description: "Each moderation-log entry as it is written (staff holding moderation_log_read)",
    subscribe: (_root, _args, ctx) => {
      guardSubscription(ctx, listModerationLog);
      return ctx.bus.subscribe("moderation_log");
    },
    resolve: (event: { id: number }, _args, ctx) => announcedEntry(ctx, event.id),
  }),
);
