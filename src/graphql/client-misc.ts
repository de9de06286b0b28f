// Smaller client operations over GraphQL: filing a report, the instance's description and peers,
// suggested accounts, birthdays of followed accounts and unreachable instances. Each field calls the
// operation its REST route calls; account lists render through the request's loaders.
import { renderStatuses } from "../views/status.ts";
import { listBirthdays } from "../domain/accounts/birthdays.ops.ts";
import { remoteInteraction } from "../domain/federation/remote-interaction.ops.ts";
import { availableFrontends } from "../domain/frontends/preferred-frontend.ops.ts";
import { federationStatus } from "../domain/instance/federation-status.ops.ts";
import { instanceInfo, instancePeers } from "../domain/instance/instance.ops.ts";
import { fileReport, listOwnReports, showOwnReport, type FiledReport } from "../domain/reports/reports.ops.ts";
import type { ReportRow } from "../domain/reports/admin-reports.ops.ts";
import { dismissSuggestion, listSuggestions } from "../domain/statuses/collections.ops.ts";
import { translateStatus } from "../domain/statuses/edit.ops.ts";
import { builder } from "./builder.ts";
import { AccountType, opt } from "./paging.ts";
import { accessOf } from "./access.ts";

const FiledReportRef = builder.objectRef<FiledReport>("FiledReport").implement({
  description: "A report the viewer filed (moderators see it as an admin Report)",
  fields: (t) => ({
    id: t.id({ resolve: (r) => r.report.id }),
    category: t.string({ resolve: (r) => r.report.category }),
    comment: t.string({ resolve: (r) => r.report.comment }),
    forwarded: t.boolean({ resolve: (r) => r.report.forward }),
    statusIds: t.idList({ resolve: (r) => r.report.statusIds }),
    ruleIds: t.idList({ resolve: (r) => r.report.ruleIds }),
    state: t.string({ resolve: (r) => r.report.state }),
    createdAt: t.field({ type: "DateTime", resolve: (r) => r.report.createdAt }),
    targetAccount: t.field({ type: AccountType, resolve: (r) => r.target }),
  }),
});

const filed = (r: ReportRow): FiledReport => ({ report: r, target: r.target });

const UnreachableInstance = builder.objectRef<{ domain: string; since: string }>("UnreachableInstance").implement({
  fields: (t) => ({ domain: t.exposeString("domain"), since: t.field({ type: "DateTime", resolve: (u) => new Date(u.since) }) }),
});

builder.queryFields((t) => ({
  ownReports: t.field({
    ...accessOf(listOwnReports),
    type: [FiledReportRef],
    description: "The viewer's own reports, newest first, as GET /api/v0/<ns>/reports pages them (`size` 20 by default)",
    args: { state: t.arg.string({ description: "open, closed or resolved" }), page: t.arg.int(), size: t.arg.int() },
    resolve: async (_r, a, ctx) => (await listOwnReports(ctx, { state: opt(a.state) as "open" | undefined, page: opt(a.page), size: opt(a.size) })).reports.map(filed),
  }),
  ownReport: t.field({
    ...accessOf(showOwnReport),
    type: FiledReportRef,
    description: "One of the viewer's own reports (NOT_FOUND for another's)",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => filed(await showOwnReport(ctx, { id: String(a.id) })),
  }),
  extendedDescription: t.string({
    ...accessOf(instanceInfo),
    description: "The instance's description (HTML), as GET /api/v1/instance/extended_description",
    resolve: async (_r, _a, ctx) => (await instanceInfo(ctx, {})).config.description,
  }),
  instancePeers: t.stringList({ ...accessOf(instancePeers), description: "Hosts of the remote accounts this server knows", resolve: (_r, _a, ctx) => instancePeers(ctx, {}) }),
  suggestions: t.field({
    ...accessOf(listSuggestions),
    type: [AccountType],
    description: "Accounts the staff suggests, without the viewer and those the viewer follows (REST v2's `source` is always staff)",
    args: { limit: t.arg.int() },
    resolve: (_r, a, ctx) => listSuggestions(ctx, { limit: opt(a.limit) }),
  }),
  birthdays: t.field({
    ...accessOf(listBirthdays),
    type: [AccountType],
    description: "Accounts the viewer follows whose shown birthday is on `day` of `month`",
    args: { day: t.arg.int({ required: true }), month: t.arg.int({ required: true }) },
    resolve: (_r, a, ctx) => listBirthdays(ctx, { day: a.day, month: a.month }),
  }),
  availableFrontends: t.stringList({
    ...accessOf(availableFrontends),
    description: "The installed frontends a browser may pick for `/` (\"name/ref\"); the choice itself is a browser cookie, set over REST",
    resolve: (_r, _a, ctx) => availableFrontends(ctx, {}),
  }),
  frontendConfigurations: t.string({
    description: "The frontends' configuration (the `frontend_configurations` setting group), JSON-encoded, as REST answers it",
    resolve: async (_r, _a, ctx) => JSON.stringify(await ctx.config.group("frontend_configurations")),
  }),
  remoteInteractionUrl: t.string({
    ...accessOf(remoteInteraction),
    description: "The URL of the interaction page for `apId` on the server of `profile` (user@host); NOT_FOUND when that server offers none",
    args: { apId: t.arg.string({ required: true }), profile: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await remoteInteraction(ctx, { ap_id: a.apId, profile: a.profile })).url,
  }),
  unreachableInstances: t.field({
    ...accessOf(federationStatus),
    type: [UnreachableInstance],
    description: "Instances whose deliveries have failed for 7 days or more (REST's federation_status)",
    resolve: async (_r, _a, ctx) => Object.entries((await federationStatus(ctx, {})).unreachable).map(([domain, since]) => ({ domain, since })),
  }),
}));

builder.mutationFields((t) => ({
  dismissSuggestion: t.boolean({
    ...accessOf(dismissSuggestion),
    description: "Dismiss a suggested account: suggestions leave it out for the viewer from then on (NOT_FOUND for an unknown account)",
    args: { accountId: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => (await dismissSuggestion(ctx, { account_id: String(a.accountId) }), true),
  }),
  translateStatus: t.string({
    ...accessOf(translateStatus),
    nullable: true,
    description: "No translation backend is configured: NOT_FOUND for a visible status (the reference server's answer without one)",
    args: { id: t.arg.id({ required: true }), lang: t.arg.string() },
    resolve: (_r, a, ctx) => translateStatus(ctx, { id: String(a.id), lang: a.lang }),
  }),
  fileReport: t.field({
    ...accessOf(fileReport),
    type: FiledReportRef,
    args: {
      accountId: t.arg.id({ required: true }),
      statusIds: t.arg.idList(),
      comment: t.arg.string(),
      forward: t.arg.boolean(),
      ruleIds: t.arg.idList(),
      category: t.arg.string({ description: "spam, legal, violation or other" }),
    },
    // the reported statuses are kept as REST renders them (the snapshot moderators read), as REST files them
    resolve: (_r, a, ctx) =>
      fileReport(ctx, {
        account_id: String(a.accountId),
        status_ids: a.statusIds?.map(String),
        comment: a.comment,
        forward: a.forward,
        rule_ids: a.ruleIds?.map(String),
        category: a.category,
        snapshot: renderStatuses,
      }),
  }),
}));
