// The reference admin API's operations over GraphQL (domain blocks and allows, its account listing and
// actions, its report handling): the same operations as the `/api/v1/admin/…` routes, each field guarded as its operation declares.
// Lists page like the routes (maxId, sinceId, minId, limit), newest first.
import {
  createDomainAllow,
  createDomainBlock,
  deleteDomainAllow,
  deleteDomainBlock,
  DOMAIN_BLOCK_SEVERITIES,
  listDomainAllows,
  listDomainBlocks,
  showDomainAllow,
  showDomainBlock,
  updateDomainBlock,
} from "../domain/instances/domain-blocks.ops.ts";
import { ACCOUNT_ACTIONS, accountAction, listAdminAccounts } from "../domain/accounts/admin-reference.ops.ts";
import { assignReport, listReferenceReports, REPORT_CATEGORIES, setReportResolved, showReferenceReport, updateReportDetails } from "../domain/reports/admin-reference.ops.ts";
import { rejectUsers } from "../domain/accounts/admin-users.ops.ts";
import {
  createCanonicalEmailBlock,
  createEmailDomainBlock,
  createIpBlock,
  deleteCanonicalEmailBlock,
  deleteEmailDomainBlock,
  deleteIpBlock,
  listCanonicalEmailBlocks,
  listEmailDomainBlocks,
  listIpBlocks,
  showCanonicalEmailBlock,
  showEmailDomainBlock,
  showIpBlock,
  testCanonicalEmailBlocks,
  updateIpBlock,
} from "../domain/accounts/blocklists.ops.ts";
import { dimensions, measures, retention, type Cohort, type Dimension, type Measure } from "../domain/stats/metrics.ops.ts";
import { IP_BLOCK_SEVERITIES } from "../domain/auth/access-blocks.ts";
import type { CanonicalEmailBlock, EmailDomainBlock, InstanceDomainAllow, InstanceDomainBlock, IpBlock } from "../generated/prisma/client.ts";
import { ReportRef } from "./admin-reports.ts";
import { accessOf } from "./access.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";
import { AdminUser } from "./admin-users.ts";

const Severity = builder.enumType("DomainBlockSeverity", { values: DOMAIN_BLOCK_SEVERITIES });
const AccountActionType = builder.enumType("AdminAccountActionType", { values: ACCOUNT_ACTIONS });
const ReportCategory = builder.enumType("ReportCategory", { values: REPORT_CATEGORIES });

const DomainBlockRef = builder.objectRef<InstanceDomainBlock>("DomainBlock").implement({
  description: "A server blocked through the reference admin API (its SimplePolicy lists follow from severity and flags)",
  fields: (t) => ({
    id: t.exposeID("id"),
    domain: t.exposeString("domain"),
    severity: t.field({ type: Severity, resolve: (b) => b.severity as (typeof DOMAIN_BLOCK_SEVERITIES)[number] }),
    rejectMedia: t.exposeBoolean("rejectMedia"),
    rejectReports: t.exposeBoolean("rejectReports"),
    privateComment: t.exposeString("privateComment", { nullable: true }),
    publicComment: t.exposeString("publicComment", { nullable: true }),
    obfuscate: t.exposeBoolean("obfuscate"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const DomainAllowRef = builder.objectRef<InstanceDomainAllow>("DomainAllow").implement({
  fields: (t) => ({ id: t.exposeID("id"), domain: t.exposeString("domain"), createdAt: t.expose("createdAt", { type: "DateTime" }) }),
});


builder.objectField(ReportRef, "category", (t) => t.field({ type: ReportCategory, resolve: (r) => r.category as (typeof REPORT_CATEGORIES)[number] }));
builder.objectField(ReportRef, "ruleIds", (t) => t.idList({ resolve: (r) => r.ruleIds }));
builder.objectField(ReportRef, "assignedAccount", (t) =>
  t.field({ type: AdminUser, nullable: true, description: "the moderator who took the report", resolve: (r, _a, ctx) => (r.assignedAccountId ? ctx.loaders.account.load(r.assignedAccountId) : null) }),
);


builder.queryFields((t) => {
  const paging = { maxId: t.arg.id(), sinceId: t.arg.id(), minId: t.arg.id(), limit: t.arg.int() };
  const page = (a: { maxId?: string | number | null; sinceId?: string | number | null; minId?: string | number | null; limit?: number | null }) => ({
    max_id: a.maxId == null ? undefined : String(a.maxId),
    since_id: a.sinceId == null ? undefined : String(a.sinceId),
    min_id: a.minId == null ? undefined : String(a.minId),
    limit: opt(a.limit),
  });
  return {
    adminDomainBlocks: t.field({ ...accessOf(listDomainBlocks), type: [DomainBlockRef], args: paging, resolve: async (_r, a, ctx) => (await listDomainBlocks(ctx, page(a))).items }),
    adminDomainBlock: t.field({ ...accessOf(showDomainBlock), type: DomainBlockRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showDomainBlock(ctx, { id: String(a.id) }) }),
    adminDomainAllows: t.field({ ...accessOf(listDomainAllows), type: [DomainAllowRef], args: paging, resolve: async (_r, a, ctx) => (await listDomainAllows(ctx, page(a))).items }),
    adminDomainAllow: t.field({ ...accessOf(showDomainAllow), type: DomainAllowRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showDomainAllow(ctx, { id: String(a.id) }) }),
    adminAccounts: t.field({
      ...accessOf(listAdminAccounts),
      type: [AdminUser],
      description: "Accounts newest first, filtered as GET /api/v2/admin/accounts filters them",
      args: {
        ...paging,
        origin: t.arg.string({ description: "local or remote" }),
        status: t.arg.string({ description: "active, pending, disabled, silenced or suspended" }),
        staff: t.arg.boolean(),
        byDomain: t.arg.string(),
        username: t.arg.string(),
        displayName: t.arg.string(),
        email: t.arg.string(),
      },
      resolve: async (_r, a, ctx) =>
        (
          await listAdminAccounts(ctx, {
            ...page(a),
            origin: opt(a.origin) as "local" | "remote" | undefined,
            status: opt(a.status) as "active" | undefined,
            staff: opt(a.staff),
            by_domain: opt(a.byDomain),
            username: opt(a.username),
            display_name: opt(a.displayName),
            email: opt(a.email),
          })
        ).items,
    }),
    adminReferenceReports: t.field({
      ...accessOf(listReferenceReports),
      type: [ReportRef],
      description: "Reports newest first, as GET /api/v1/admin/reports lists them: open ones, or handled ones with resolved",
      args: { ...paging, resolved: t.arg.boolean(), accountId: t.arg.id(), targetAccountId: t.arg.id() },
      resolve: async (_r, a, ctx) =>
        (
          await listReferenceReports(ctx, {
            ...page(a),
            resolved: opt(a.resolved),
            account_id: a.accountId == null ? undefined : String(a.accountId),
            target_account_id: a.targetAccountId == null ? undefined : String(a.targetAccountId),
          })
        ).items,
    }),
    adminReferenceReport: t.field({ ...accessOf(showReferenceReport), type: ReportRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => showReferenceReport(ctx, { id: String(a.id) }) }),
  };
});

const BlockFields = builder.inputType("DomainBlockFields", {
  fields: (t) => ({
    severity: t.field({ type: Severity }),
    rejectMedia: t.boolean(),
    rejectReports: t.boolean(),
    privateComment: t.string(),
    publicComment: t.string(),
    obfuscate: t.boolean(),
  }),
});

type BlockFieldsInput = typeof BlockFields.$inferInput;
const blockInput = (f: BlockFieldsInput | null | undefined) => ({
  severity: opt(f?.severity),
  reject_media: opt(f?.rejectMedia),
  reject_reports: opt(f?.rejectReports),
  private_comment: f?.privateComment,
  public_comment: f?.publicComment,
  obfuscate: opt(f?.obfuscate),
});

builder.mutationFields((t) => ({
  createDomainBlock: t.field({
    ...accessOf(createDomainBlock),
    type: DomainBlockRef,
    args: { domain: t.arg.string({ required: true }), fields: t.arg({ type: BlockFields }) },
    resolve: (_r, a, ctx) => createDomainBlock(ctx, { domain: a.domain, ...blockInput(a.fields) }),
  }),
  updateDomainBlock: t.field({
    ...accessOf(updateDomainBlock),
    type: DomainBlockRef,
    args: { id: t.arg.id({ required: true }), fields: t.arg({ type: BlockFields, required: true }) },
    resolve: (_r, a, ctx) => updateDomainBlock(ctx, { id: String(a.id), ...blockInput(a.fields) }),
  }),
  deleteDomainBlock: t.field({ ...accessOf(deleteDomainBlock), type: DomainBlockRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => deleteDomainBlock(ctx, { id: String(a.id) }) }),
  createDomainAllow: t.field({ ...accessOf(createDomainAllow), type: DomainAllowRef, args: { domain: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => createDomainAllow(ctx, { domain: a.domain }) }),
  deleteDomainAllow: t.field({ ...accessOf(deleteDomainAllow), type: DomainAllowRef, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => deleteDomainAllow(ctx, { id: String(a.id) }) }),
  adminRejectUsers: t.field({
    ...accessOf(rejectUsers),
    type: [AdminUser],
    description: "Reject sign-ups waiting for approval (the accounts are deleted)",
    args: { nicknames: t.arg.stringList({ required: true }) },
    resolve: (_r, a, ctx) => rejectUsers(ctx, { nicknames: a.nicknames }),
  }),
  adminAccountAction: t.field({
    ...accessOf(accountAction),
    type: AdminUser,
    description: "The reference API's moderation action: none (warn), disable, suspend, silence or sensitive; recorded as the account's warning and notified (e-mailed with sendEmailNotification)",
    args: { id: t.arg.id({ required: true }), type: t.arg({ type: AccountActionType, required: true }), text: t.arg.string(), reportId: t.arg.id(), sendEmailNotification: t.arg.boolean() },
    resolve: (_r, a, ctx) =>
      accountAction(ctx, { id: String(a.id), type: a.type, text: a.text, report_id: a.reportId == null ? undefined : String(a.reportId), send_email_notification: a.sendEmailNotification ?? undefined }),
  }),
  adminAssignReport: t.field({
    ...accessOf(assignReport),
    type: ReportRef,
    description: "Take a report (assign true) or leave it to nobody",
    args: { id: t.arg.id({ required: true }), assign: t.arg.boolean({ required: true }) },
    resolve: (_r, a, ctx) => assignReport(ctx, { id: String(a.id), assign: a.assign }),
  }),
  adminSetReportResolved: t.field({
    ...accessOf(setReportResolved),
    type: ReportRef,
    args: { id: t.arg.id({ required: true }), resolved: t.arg.boolean({ required: true }) },
    resolve: (_r, a, ctx) => setReportResolved(ctx, { id: String(a.id), resolved: a.resolved }),
  }),
  adminUpdateReportDetails: t.field({
    ...accessOf(updateReportDetails),
    type: ReportRef,
    args: { id: t.arg.id({ required: true }), category: t.arg({ type: ReportCategory }), ruleIds: t.arg.idList() },
    resolve: (_r, a, ctx) => updateReportDetails(ctx, { id: String(a.id), category: opt(a.category), rule_ids: a.ruleIds?.map(String) }),
  }),
}));

// ---- sign-up and sign-in blocklists

const IpSeverity = builder.enumType("IpBlockSeverity", { values: IP_BLOCK_SEVERITIES });

const EmailDomainBlockRef = builder.objectRef<EmailDomainBlock>("EmailDomainBlock").implement({
  fields: (t) => ({ id: t.exposeID("id"), domain: t.exposeString("domain"), createdAt: t.expose("createdAt", { type: "DateTime" }) }),
});
const CanonicalEmailBlockRef = builder.objectRef<CanonicalEmailBlock>("CanonicalEmailBlock").implement({
  fields: (t) => ({ id: t.exposeID("id"), canonicalEmailHash: t.exposeString("canonicalEmailHash"), createdAt: t.expose("createdAt", { type: "DateTime" }) }),
});
const IpBlockRef = builder.objectRef<IpBlock>("IpBlock").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    ip: t.exposeString("ip", { description: "a CIDR range" }),
    severity: t.field({ type: IpSeverity, resolve: (b) => b.severity as (typeof IP_BLOCK_SEVERITIES)[number] }),
    comment: t.exposeString("comment"),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => {
  const paging = { maxId: t.arg.id(), sinceId: t.arg.id(), minId: t.arg.id(), limit: t.arg.int() };
  const page = (a: { maxId?: string | number | null; sinceId?: string | number | null; minId?: string | number | null; limit?: number | null }) => ({
    max_id: a.maxId == null ? undefined : String(a.maxId),
    since_id: a.sinceId == null ? undefined : String(a.sinceId),
    min_id: a.minId == null ? undefined : String(a.minId),
    limit: opt(a.limit),
  });
  const one = { id: t.arg.id({ required: true }) };
  return {
    adminEmailDomainBlocks: t.field({ ...accessOf(listEmailDomainBlocks), type: [EmailDomainBlockRef], args: paging, resolve: async (_r, a, ctx) => (await listEmailDomainBlocks(ctx, page(a))).items }),
    adminEmailDomainBlock: t.field({ ...accessOf(showEmailDomainBlock), type: EmailDomainBlockRef, args: one, resolve: (_r, a, ctx) => showEmailDomainBlock(ctx, { id: String(a.id) }) }),
    adminCanonicalEmailBlocks: t.field({ ...accessOf(listCanonicalEmailBlocks), type: [CanonicalEmailBlockRef], args: paging, resolve: async (_r, a, ctx) => (await listCanonicalEmailBlocks(ctx, page(a))).items }),
    adminCanonicalEmailBlock: t.field({ ...accessOf(showCanonicalEmailBlock), type: CanonicalEmailBlockRef, args: one, resolve: (_r, a, ctx) => showCanonicalEmailBlock(ctx, { id: String(a.id) }) }),
    adminTestCanonicalEmailBlocks: t.field({
      ...accessOf(testCanonicalEmailBlocks),
      type: [CanonicalEmailBlockRef],
      description: "The canonical e-mail blocks an address falls under",
      args: { email: t.arg.string({ required: true }) },
      resolve: (_r, a, ctx) => testCanonicalEmailBlocks(ctx, { email: a.email }),
    }),
    adminIpBlocks: t.field({ ...accessOf(listIpBlocks), type: [IpBlockRef], args: paging, resolve: async (_r, a, ctx) => (await listIpBlocks(ctx, page(a))).items }),
    adminIpBlock: t.field({ ...accessOf(showIpBlock), type: IpBlockRef, args: one, resolve: (_r, a, ctx) => showIpBlock(ctx, { id: String(a.id) }) }),
  };
});

builder.mutationFields((t) => {
  const one = { id: t.arg.id({ required: true }) };
  return {
    createEmailDomainBlock: t.field({ ...accessOf(createEmailDomainBlock), type: EmailDomainBlockRef, args: { domain: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => createEmailDomainBlock(ctx, { domain: a.domain }) }),
    deleteEmailDomainBlock: t.field({ ...accessOf(deleteEmailDomainBlock), type: EmailDomainBlockRef, args: one, resolve: (_r, a, ctx) => deleteEmailDomainBlock(ctx, { id: String(a.id) }) }),
    createCanonicalEmailBlock: t.field({
      ...accessOf(createCanonicalEmailBlock),
      type: CanonicalEmailBlockRef,
      args: { email: t.arg.string(), canonicalEmailHash: t.arg.string() },
      resolve: (_r, a, ctx) => createCanonicalEmailBlock(ctx, { email: opt(a.email), canonical_email_hash: opt(a.canonicalEmailHash) }),
    }),
    deleteCanonicalEmailBlock: t.field({ ...accessOf(deleteCanonicalEmailBlock), type: CanonicalEmailBlockRef, args: one, resolve: (_r, a, ctx) => deleteCanonicalEmailBlock(ctx, { id: String(a.id) }) }),
    createIpBlock: t.field({
      ...accessOf(createIpBlock),
      type: IpBlockRef,
      args: { ip: t.arg.string({ required: true }), severity: t.arg({ type: IpSeverity, required: true }), comment: t.arg.string(), expiresIn: t.arg.int({ description: "seconds" }) },
      resolve: (_r, a, ctx) => createIpBlock(ctx, { ip: a.ip, severity: a.severity, comment: a.comment, expires_in: a.expiresIn }),
    }),
    updateIpBlock: t.field({
      ...accessOf(updateIpBlock),
      type: IpBlockRef,
      args: { ...one, ip: t.arg.string(), severity: t.arg({ type: IpSeverity }), comment: t.arg.string(), expiresIn: t.arg.int() },
      resolve: (_r, a, ctx) => updateIpBlock(ctx, { id: String(a.id), ip: opt(a.ip), severity: opt(a.severity), comment: a.comment, expires_in: a.expiresIn }),
    }),
    deleteIpBlock: t.field({ ...accessOf(deleteIpBlock), type: IpBlockRef, args: one, resolve: (_r, a, ctx) => deleteIpBlock(ctx, { id: String(a.id) }) }),
  };
});

// ---- dashboard

const MeasureDatum = builder.objectRef<Measure["data"][number]>("MeasureDatum").implement({
  fields: (t) => ({ date: t.exposeString("date"), value: t.exposeString("value") }),
});
const MeasureRef = builder.objectRef<Measure>("Measure").implement({
  fields: (t) => ({
    key: t.exposeString("key"),
    unit: t.exposeString("unit", { nullable: true }),
    total: t.exposeString("total"),
    previousTotal: t.exposeString("previous_total"),
    data: t.field({ type: [MeasureDatum], resolve: (m) => m.data }),
  }),
});
const DimensionDatum = builder.objectRef<Dimension["data"][number]>("DimensionDatum").implement({
  fields: (t) => ({
    key: t.exposeString("key"),
    humanKey: t.exposeString("human_key"),
    value: t.exposeString("value"),
    unit: t.string({ nullable: true, resolve: (d) => d.unit ?? null }),
  }),
});
const DimensionRef = builder.objectRef<Dimension>("Dimension").implement({
  fields: (t) => ({ key: t.exposeString("key"), data: t.field({ type: [DimensionDatum], resolve: (d) => d.data }) }),
});
const CohortDatum = builder.objectRef<Cohort["data"][number]>("CohortDatum").implement({
  fields: (t) => ({ date: t.exposeString("date"), rate: t.exposeFloat("rate"), value: t.exposeString("value") }),
});
const CohortRef = builder.objectRef<Cohort>("Cohort").implement({
  fields: (t) => ({ period: t.exposeString("period"), frequency: t.exposeString("frequency"), data: t.field({ type: [CohortDatum], resolve: (c) => c.data }) }),
});

builder.queryFields((t) => {
  const span = { startAt: t.arg({ type: "DateTime", required: true }), endAt: t.arg({ type: "DateTime", required: true }) };
  return {
    adminMeasures: t.field({
      ...accessOf(measures),
      type: [MeasureRef],
      args: { ...span, keys: t.arg.stringList({ required: true }), tagId: t.arg.id(), domain: t.arg.string() },
      resolve: (_r, a, ctx) => measures(ctx, { keys: a.keys, start_at: a.startAt, end_at: a.endAt, tag_id: a.tagId == null ? undefined : String(a.tagId), domain: opt(a.domain) }),
    }),
    adminDimensions: t.field({
      ...accessOf(dimensions),
      type: [DimensionRef],
      args: { ...span, keys: t.arg.stringList({ required: true }), limit: t.arg.int(), tagId: t.arg.id(), domain: t.arg.string() },
      resolve: (_r, a, ctx) => dimensions(ctx, { keys: a.keys, start_at: a.startAt, end_at: a.endAt, limit: opt(a.limit), tag_id: a.tagId == null ? undefined : String(a.tagId), domain: opt(a.domain) }),
    }),
    adminRetention: t.field({
      ...accessOf(retention),
      type: [CohortRef],
      args: { ...span, frequency: t.arg.string({ description: "day (default) or month" }) },
      resolve: (_r, a, ctx) => retention(ctx, { start_at: a.startAt, end_at: a.endAt, frequency: a.frequency === "month" ? "month" : "day" }),
    }),
  };
});
