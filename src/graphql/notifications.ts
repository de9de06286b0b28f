// Notifications as a Relay connection, and read-marking / dismissing, through the operations REST
// calls. Rows arrive with their account, status and report; everything else renders through the
// request's batch loaders, so a page costs the same number of queries whatever its length.
import {
  clearNotifications,
  dismissNotification,
  listNotifications,
  markNotificationsRead,
  wireType,
  type NotificationRow,
} from "../domain/notifications/notifications.ops.ts";
import type { AccountRelationshipSeveranceEvent, AccountWarning, RelationshipSeveranceEvent } from "../generated/prisma/client.ts";
import { listSeverances, severedRelationshipsCsv } from "../domain/relationships/severances.ts";
import { builder } from "./builder.ts";
import { AccountType, opt, relayConnection, StatusType } from "./paging.ts";
import "./accounts.ts";
import "./statuses.ts";
import { accessOf } from "./access.ts";

type ReportRow = NonNullable<NotificationRow["report"]>;

const NotificationReport = builder.objectRef<ReportRow>("NotificationReport").implement({
  description: "The report an `<ns>:report` notification tells moderators about",
  fields: (t) => ({
    id: t.exposeID("id"),
    actionTaken: t.boolean({ resolve: (r) => r.state !== "open" }),
    comment: t.exposeString("comment"),
    forwarded: t.boolean({ resolve: (r) => r.forward && !r.target.local }),
    statusIds: t.exposeIDList("statusIds"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    targetAccount: t.field({ type: AccountType, resolve: (r) => r.target }),
  }),
});

const NotificationWarning = builder.objectRef<AccountWarning>("AccountWarning").implement({
  description: "A moderator's action as the account is told of it (`moderation_warning` notifications)",
  fields: (t) => ({
    id: t.exposeID("id"),
    action: t.exposeString("action", { description: "none, disable, sensitive, silence or suspend" }),
    text: t.exposeString("text"),
    statusIds: t.exposeIDList("statusIds"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    targetAccount: t.field({ type: AccountType, nullable: true, resolve: (w, _a, ctx) => ctx.loaders.account.load(w.accountId) }),
  }),
});

const SeveranceEvent = builder.objectRef<AccountRelationshipSeveranceEvent & { event: RelationshipSeveranceEvent }>("RelationshipSeveranceEvent").implement({
  description: "Follows a moderation or block event cut (`severed_relationships` notifications): the viewer's share",
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.string({ description: "domain_block, user_domain_block or account_suspension", resolve: (e) => e.event.type }),
    purged: t.boolean({ resolve: (e) => e.event.purged }),
    targetName: t.string({ resolve: (e) => e.event.targetName }),
    followersCount: t.exposeInt("followersCount"),
    followingCount: t.exposeInt("followingCount"),
    createdAt: t.field({ type: "DateTime", resolve: (e) => e.event.createdAt }),
  }),
});

export const Notification = builder.objectRef<NotificationRow>("Notification").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.string({ description: "the REST type name (`mention`, `<ns>:emoji_reaction`, …)", resolve: (n, _a, ctx) => wireType(ctx, n.type) }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    isSeen: t.exposeBoolean("seen"),
    account: t.field({ type: AccountType, resolve: (n) => n.fromAccount }),
    status: t.field({ type: StatusType, nullable: true, resolve: (n) => n.status }),
    target: t.field({
      type: AccountType,
      nullable: true,
      description: "where the account moved (move notifications)",
      resolve: (n, _a, ctx) => (n.type === "move" && n.fromAccount.movedToId ? ctx.loaders.account.load(n.fromAccount.movedToId) : null),
    }),
    emoji: t.string({ nullable: true, description: "the reaction (emoji_reaction notifications)", resolve: (n) => (n.type === "emoji_reaction" ? n.emoji : null) }),
    report: t.field({ type: NotificationReport, nullable: true, resolve: (n) => n.report }),
    moderationWarning: t.field({ type: NotificationWarning, nullable: true, resolve: (n, _a, ctx) => (n.accountWarningId ? ctx.loaders.accountWarning.load(n.accountWarningId) : null) }),
    event: t.field({ type: SeveranceEvent, nullable: true, resolve: (n, _a, ctx) => (n.severanceEventId ? ctx.loaders.severanceEvent.load(n.severanceEventId) : null) }),
  }),
});

const NotificationConnection = builder.connectionObject({ type: Notification, name: "NotificationConnection" });

builder.queryFields((t) => ({
  notifications: t.connection(
    {
      ...accessOf(listNotifications),
      type: Notification,
      description: "The viewer's notifications, newest first; types take the REST names, opt-in types only when asked for",
      args: {
        types: t.arg.stringList(),
        excludeTypes: t.arg.stringList(),
        excludeVisibilities: t.arg.stringList(),
        accountId: t.arg.id(),
        withMuted: t.arg.boolean(),
      },
      resolve: (_r, a, ctx) =>
        relayConnection(
          a,
          (p) =>
            listNotifications(ctx, {
              ...p,
              types: opt(a.types),
              exclude_types: opt(a.excludeTypes),
              exclude_visibilities: opt(a.excludeVisibilities),
              account_id: a.accountId ? String(a.accountId) : undefined,
              with_muted: opt(a.withMuted),
            }),
          { cursorOf: (n) => n.id, floor: "0" },
        ),
    },
    NotificationConnection,
  ),
}));

builder.mutationFields((t) => ({
  markNotificationsRead: t.field({
    ...accessOf(markNotificationsRead),
    type: [Notification],
    description: "Marks one notification (`id`) or every one up to `maxId` as seen; answers those it marked (at most 80 with maxId)",
    args: { id: t.arg.id(), maxId: t.arg.id() },
    resolve: async (_r, a, ctx) => {
      const result = await markNotificationsRead(ctx, { id: a.id != null ? String(a.id) : undefined, max_id: a.maxId != null ? String(a.maxId) : undefined });
      return "one" in result ? [result.one] : result.many;
    },
  }),
  dismissNotification: t.boolean({
    ...accessOf(dismissNotification),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      await dismissNotification(ctx, { id: String(a.id) });
      return true;
    },
  }),
  clearNotifications: t.boolean({
    ...accessOf(clearNotifications),
    resolve: async (_r, _a, ctx) => {
      await clearNotifications(ctx, {});
      return true;
    },
  }),
}));

const SeveranceConnection = builder.connectionObject({ type: SeveranceEvent, name: "RelationshipSeveranceEventConnection" });

builder.queryFields((t) => ({
  severedRelationships: t.connection(
    {
      ...accessOf(listSeverances),
      type: SeveranceEvent,
      description: "The viewer's severed-relationship events, newest first",
      resolve: (_r, a, ctx) => relayConnection(a, (p) => listSeverances(ctx, p), { cursorOf: (e) => e.id, floor: "0" }),
    },
    SeveranceConnection,
  ),
  severedRelationshipsCsv: t.string({
    ...accessOf(severedRelationshipsCsv),
    description: "The followers or follows one event cut, as the REST route's CSV",
    args: { id: t.arg.id({ required: true }), direction: t.arg.string({ required: true, description: "followers or following" }) },
    resolve: (_r, a, ctx) => severedRelationshipsCsv(ctx, { id: String(a.id), direction: a.direction as "followers" | "following" }),
  }),
}));
