// Admin reports over GraphQL: the operations of the admin REST routes, guarded like them (the route's
// OAuth scope and its privilege; the admin token passes), and a live `reportFiled` subscription.
import {
  addReportNote,
  deleteReportNote,
  findReport,
  groupedReports,
  listReports,
  REPORT_STATES,
  showReport,
  updateReportStates,
  type ReportGroup,
  type ReportRow,
} from "../domain/reports/admin-reports.ops.ts";
import { loadFound } from "../domain/loaders.ts";
import { Invalid, NotFound } from "../kernel/errors.ts";
import type { Account, ReportNote } from "../generated/prisma/client.ts";
import { guardSubscription } from "./admin-auth.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { AccountType, opt, StatusType } from "./paging.ts";
import "./accounts.ts";
import "./statuses.ts";

const ReportStateEnum = builder.enumType("ReportState", { values: REPORT_STATES });

interface Snapshot {
  id: string;
  content?: string;
  spoiler_text?: string;
  sensitive?: boolean;
  visibility?: string;
  created_at?: string;
  url?: string;
}

const StatusSnapshot = builder.objectRef<Snapshot>("ReportedStatusSnapshot").implement({
  description: "A reported status as it was when the report was filed (shown once the status is deleted)",
  fields: (t) => ({
    id: t.exposeID("id"),
    content: t.string({ resolve: (s) => s.content ?? "" }),
    spoilerText: t.string({ resolve: (s) => s.spoiler_text ?? "" }),
    sensitive: t.boolean({ resolve: (s) => !!s.sensitive }),
    visibility: t.string({ resolve: (s) => s.visibility ?? "public" }),
    createdAt: t.string({ nullable: true, resolve: (s) => s.created_at ?? null }),
    url: t.string({ nullable: true, resolve: (s) => s.url ?? null }),
  }),
});

const ReportNoteRef = builder.objectRef<ReportNote & { author: Account | null }>("ReportNote").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    content: t.exposeString("content"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    author: t.field({ type: AccountType, nullable: true, description: "null when written with the admin token", resolve: (n) => n.author }),
  }),
});

export const ReportRef = builder.objectRef<ReportRow>("Report").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    state: t.field({ type: ReportStateEnum, resolve: (r) => r.state }),
    content: t.string({ description: "the reporter's comment", resolve: (r) => r.comment }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    account: t.field({ type: AccountType, description: "the reported account", resolve: (r) => r.target }),
    actor: t.field({ type: AccountType, description: "the reporting account", resolve: (r) => r.reporter }),
    statusIds: t.idList({ resolve: (r) => r.statusIds }),
    statuses: t.field({
      type: [StatusType],
      description: "the reported statuses that still exist",
      resolve: async (r, _a, ctx) => loadFound(ctx.loaders.status, r.statusIds),
    }),
    removedStatuses: t.field({
      type: [StatusSnapshot],
      description: "the reported statuses deleted since, as they were when reported",
      resolve: async (r, _a, ctx) => {
        const live = new Set((await loadFound(ctx.loaders.status, r.statusIds)).map((s) => s.id));
        return ((r.statusSnapshots as unknown as Snapshot[]) ?? []).filter((s) => s?.id && !live.has(s.id));
      },
    }),
    notes: t.field({ type: [ReportNoteRef], resolve: (r) => r.notes }),
  }),
});

const ReportGroupRef = builder.objectRef<ReportGroup>("ReportGroup").implement({
  description: "The reports naming one status (GET /grouped_reports)",
  fields: (t) => ({
    statusId: t.exposeID("statusId"),
    date: t.expose("date", { type: "DateTime", description: "the newest report's date" }),
    status: t.field({ type: StatusType, nullable: true, description: "null once deleted", resolve: (g, _a, ctx) => ctx.loaders.status.load(g.statusId) }),
    actors: t.field({ type: [AccountType], description: "the reporters, once each", resolve: (g) => g.actors }),
    reports: t.field({ type: [ReportRef], resolve: (g) => g.reports }),
  }),
});


builder.queryFields((t) => ({
  adminReports: t.connection(
    {
      ...accessOf(listReports),
      type: ReportRef,
      description: "Reports, newest first",
      args: { state: t.arg({ type: ReportStateEnum }) },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const { total, reports } = await listReports(ctx, { state: opt(args.state), offset, page_size: limit });
          return { total, items: reports };
        }),
    },
    { name: "ReportConnection", ...totalCountField },
  ),
  adminGroupedReports: t.field({
    ...accessOf(groupedReports),
    type: [ReportGroupRef],
    description: "Reports grouped by reported status",
    resolve: (_root, _args, ctx) => groupedReports(ctx, {}),
  }),
  adminReport: t.field({
    ...accessOf(showReport),
    type: ReportRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => showReport(ctx, { id: String(args.id) }),
  }),
}));

builder.mutationFields((t) => ({
  updateReportState: t.field({
    ...accessOf(updateReportStates),
    type: ReportRef,
    args: { id: t.arg.id({ required: true }), state: t.arg({ type: ReportStateEnum, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { updated, errors } = await updateReportStates(ctx, { reports: [{ id: String(args.id), state: args.state }] });
      if (errors[0]?.error === "not_found") throw NotFound("Not found");
      if (errors[0]) throw Invalid(errors[0].error, { state: errors[0].error });
      return updated[0];
    },
  }),
  addReportNote: t.field({
    ...accessOf(addReportNote),
    type: ReportRef,
    args: { reportId: t.arg.id({ required: true }), content: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => addReportNote(ctx, { id: String(args.reportId), content: args.content }),
  }),
  deleteReportNote: t.field({
    ...accessOf(deleteReportNote),
    type: ReportRef,
    args: { reportId: t.arg.id({ required: true }), noteId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => deleteReportNote(ctx, { report_id: String(args.reportId), id: String(args.noteId) }),
  }),
}));

builder.subscriptionField("reportFiled", (t) =>
  t.field({
    ...accessOf(listReports),
    type: ReportRef,
    description: "Each report as it is filed (staff holding reports_manage_reports)",
    subscribe: (_root, _args, ctx) => {
      guardSubscription(ctx, listReports);
      return ctx.bus.subscribe("report");
    },
    resolve: (event: { reportId: string }, _args, ctx) => findReport(ctx, event.reportId),
  }),
);
