// The admin API's Report (and the statuses and accounts inside it) as the family renders them: the
// reference Account merged with the admin user fields, statuses with such accounts, and reported
// statuses that were deleted shown from the snapshot taken when the report was filed.
import type { Account, Status } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { loadFound } from "../../src/domain/loaders.ts";
import type { ReportGroup, ReportRow } from "../../src/domain/reports/admin-reports.ops.ts";
import { renderAccounts } from "./account.ts";
import { renderAdminUser } from "./admin-user.ts";
import { escapeHtml } from "./html.ts";
import { renderStatuses } from "./status.ts";

type Json = Record<string, any>;

export async function renderAdminAccounts(ctx: Ctx, accounts: Account[]): Promise<Map<string, Json>> {
  const unique = [...new Map(accounts.map((a) => [a.id, a])).values()];
  const rendered = await renderAccounts(ctx, unique);
  // the family merges its admin user view over the reference Account
  return new Map(unique.map((a, i) => [a.id, { ...rendered[i], ...renderAdminUser(ctx, a) }]));
}

type AccountsRenderer = (ctx: Ctx, accounts: Account[]) => Promise<Map<string, Json>>;

/** Plain reference Accounts by id: what a reporter sees of the accounts in their own reports. */
async function renderPlainAccounts(ctx: Ctx, accounts: Account[]): Promise<Map<string, Json>> {
  const unique = [...new Map(accounts.map((a) => [a.id, a])).values()];
  const rendered = await renderAccounts(ctx, unique);
  return new Map(unique.map((a, i) => [a.id, rendered[i]]));
}

/** Statuses with admin accounts (reblogged ones too); `accounts` may already hold some. */
export async function renderAdminStatuses(ctx: Ctx, statuses: Status[], accounts = new Map<string, Json>(), renderPeople: AccountsRenderer = renderAdminAccounts): Promise<Json[]> {
  if (statuses.length === 0) return [];
  const rendered: Json[] = await renderStatuses(ctx, statuses);
  const ids = new Set(rendered.flatMap((s) => [s.account?.id, s.reblog?.account?.id]).filter((id): id is string => !!id && !accounts.has(id)));
  if (ids.size) {
    const rows = await loadFound(ctx.loaders.account, [...ids]);
    for (const [id, a] of await renderPeople(ctx, rows)) accounts.set(id, a);
  }
  const withAdmin = (s: Json): Json => ({ ...s, account: accounts.get(s.account?.id) ?? s.account });
  return rendered.map((s) => ({ ...withAdmin(s), reblog: s.reblog ? withAdmin(s.reblog) : null }));
}

/** Every status a list of reports names, live when it still exists, else its snapshot. */
async function reportedStatuses(ctx: Ctx, reports: ReportRow[], accounts: Map<string, Json>, renderPeople: AccountsRenderer = renderAdminAccounts): Promise<Map<string, Json>> {
  const ids = [...new Set(reports.flatMap((r) => r.statusIds))];
  const live = await loadFound(ctx.loaders.status, ids);
  const out = new Map((await renderAdminStatuses(ctx, live, accounts, renderPeople)).map((s) => [s.id as string, s]));
  for (const r of reports) {
    for (const snap of (r.statusSnapshots as Json[]) ?? []) {
      if (!snap?.id || out.has(snap.id)) continue;
      out.set(snap.id, { ...snap, account: accounts.get(snap.account?.id) ?? snap.account });
    }
  }
  return out;
}

/** Reports in a fixed number of queries, whatever their number. */
export async function renderAdminReports(ctx: Ctx, reports: ReportRow[]): Promise<Json[]> {
  if (reports.length === 0) return [];
  const people = reports.flatMap((r) => [r.reporter, r.target, ...r.notes.flatMap((n) => (n.author ? [n.author] : []))]);
  const accounts = await renderAdminAccounts(ctx, people);
  const statuses = await reportedStatuses(ctx, reports, accounts);
  return reports.map((r) => renderOne(r, accounts, statuses));
}

/**
 * The reporter's own reports (`/api/v0/<ns>/reports`) in the admin Report's shape, but with plain
 * reference Accounts (no e-mail or roles of the reported account) and without the moderators' notes.
 */
export async function renderOwnReports(ctx: Ctx, reports: ReportRow[]): Promise<Json[]> {
  if (reports.length === 0) return [];
  const accounts = await renderPlainAccounts(ctx, reports.flatMap((r) => [r.reporter, r.target]));
  const statuses = await reportedStatuses(ctx, reports, accounts, renderPlainAccounts);
  return reports.map((r) => ({ ...renderOne(r, accounts, statuses), notes: [] }));
}

function renderOne(r: ReportRow, accounts: Map<string, Json>, statuses: Map<string, Json>): Json {
  return {
    id: r.id,
    state: r.state,
    // the family shows the comment as (filtered) HTML, null when there is none
    content: r.comment ? escapeHtml(r.comment) : null,
    category: r.category,
    rule_ids: r.ruleIds.map(String),
    created_at: r.createdAt.toISOString(),
    account: accounts.get(r.targetId),
    actor: accounts.get(r.reporterId),
    statuses: r.statusIds.map((id) => statuses.get(id)).filter((s): s is Json => !!s),
    notes: r.notes.map((n) => ({
      id: n.id,
      user_id: n.authorId,
      content: n.content,
      created_at: n.createdAt.toISOString(),
      user: n.authorId ? (accounts.get(n.authorId) ?? null) : null,
    })),
  };
}

export async function renderAdminReport(ctx: Ctx, report: ReportRow): Promise<Json> {
  return (await renderAdminReports(ctx, [report]))[0];
}

/** `grouped_reports` items: one per reported status, with its reporters and reports. */
export async function renderGroupedReports(ctx: Ctx, groups: ReportGroup[]): Promise<Json[]> {
  const reports = [...new Map(groups.flatMap((g) => g.reports).map((r) => [r.id, r])).values()];
  if (reports.length === 0) return [];
  const people = reports.flatMap((r) => [r.reporter, r.target, ...r.notes.flatMap((n) => (n.author ? [n.author] : []))]);
  const accounts = await renderAdminAccounts(ctx, people);
  const statuses = await reportedStatuses(ctx, reports, accounts);
  const rendered = new Map(reports.map((r) => [r.id, renderOne(r, accounts, statuses)]));
  return groups.map((g) => {
    const status = statuses.get(g.statusId) ?? null;
    return {
      date: g.date.toISOString(),
      account: status?.account ?? accounts.get(g.reports[0].targetId),
      status,
      actors: g.actors.map((a) => accounts.get(a.id)),
      reports: g.reports.map((r) => rendered.get(r.id)),
    };
  });
}
