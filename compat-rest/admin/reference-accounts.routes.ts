// The reference admin API's accounts and reports. Each action runs the family's operation for it
// (approve, activation, tags, deletion, report states), with the family's privileges.
import { z } from "zod";
import { accountAction, listAdminAccounts, listAdminAccountsInput, SENSITIVE_TAG, SILENCE_TAG } from "../../src/domain/accounts/admin-reference.ops.ts";
import { assignReport, listReferenceReports, setReportResolved, showReferenceReport, updateReportDetails } from "../../src/domain/reports/admin-reference.ops.ts";
import { activateUsers, approveUsers, deleteUsers, rejectUsers, untagUsers } from "../../src/domain/accounts/admin-users.ops.ts";
import { getUser, showUser } from "../../src/domain/accounts/admin-users.read.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { loadFound } from "../../src/domain/loaders.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderAdminAccount, renderAdminAccounts, renderReferenceReports } from "../../src/views/reference-admin.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { ReferenceAdminAccountSchema, ReferenceAdminReportSchema } from "../../src/views/schemas/reference-admin.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const id = z.object({ id: z.string() });
const tags = ["Admin (reference): accounts"];
const reportTags = ["Admin (reference): reports"];

/** The reported statuses as staff see them now (deleted ones are left out). */
async function reportedStatuses(ctx: Ctx, ids: string[]) {
  if (ids.length === 0) return [];
  const found = await loadFound(ctx.loaders.status, ids);
  return renderStatuses(ctx, found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)));
}

const renderReport = async (ctx: Ctx, row: Parameters<typeof renderReferenceReports>[1][number]) => (await renderReferenceReports(ctx, [row], reportedStatuses))[0];

export const referenceAccountRoutes = [
  route({
    method: "GET",
    path: ["/api/v1/admin/accounts", "/api/v2/admin/accounts"],
    view: listOf(ReferenceAdminAccountSchema),
    summary: "Accounts, newest first: v1 flags (local, remote, active, pending, disabled, silenced, suspended, sensitized, staff) or v2 origin/status/permissions; by_domain, username, display_name, email",
    tags,
    operation: listAdminAccounts,
    query: listAdminAccountsInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listAdminAccounts(ctx, query);
      return { ...page, items: await renderAdminAccounts(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/admin/accounts/:id",
    view: ReferenceAdminAccountSchema,
    summary: "One account as staff see it",
    tags,
    operation: showUser,
    params: id,
    handler: async (ctx, { params }) => renderAdminAccount(ctx, await showUser(ctx, { nickname_or_id: params.id })),
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/accounts/:id/approve",
    view: ReferenceAdminAccountSchema,
    summary: "Approve a pending sign-up (the family's approve)",
    tags,
    operation: approveUsers,
    params: id,
    async handler(ctx, { params }) {
      const [user] = await approveUsers(ctx, { nicknames: [(await getUser(ctx, params.id)).nickname] });
      return renderAdminAccount(ctx, user!);
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/accounts/:id/reject",
    view: ReferenceAdminAccountSchema,
    summary: "Reject a pending sign-up: the account is deleted; 403 when it is not pending",
    tags,
    operation: rejectUsers,
    params: id,
    async handler(ctx, { params }) {
      const [user] = await rejectUsers(ctx, { nicknames: [(await getUser(ctx, params.id)).nickname] });
      return renderAdminAccount(ctx, user!);
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/accounts/:id/action",
    view: EmptySchema,
    summary: "Act on an account: type none (warn), disable or suspend (the family's deactivation), silence or sensitive (its moderation tags); report_id resolves that report; text is logged",
    tags,
    operation: accountAction,
    params: id,
    body: accountAction.input.omit({ id: true }),
    handler: async (ctx, { params, body }) => (await accountAction(ctx, { ...body, id: params.id }), {}),
  }),
  ...(["enable", "unsuspend"] as const).map((action) =>
    route({
      method: "POST",
      path: `/api/v1/admin/accounts/:id/${action}`,
      view: ReferenceAdminAccountSchema,
      summary: `${action === "enable" ? "Re-enable" : "Unsuspend"} an account (the family's activation)`,
      tags,
      operation: activateUsers,
      params: id,
      async handler(ctx, { params }) {
        const [user] = await activateUsers(ctx, { nicknames: [(await getUser(ctx, params.id)).nickname] });
        return renderAdminAccount(ctx, user!);
      },
    }),
  ),
  ...([
    ["unsilence", SILENCE_TAG],
    ["unsensitive", SENSITIVE_TAG],
  ] as const).map(([action, tag]) =>
    route({
      method: "POST",
      path: `/api/v1/admin/accounts/:id/${action}`,
      view: ReferenceAdminAccountSchema,
      summary: `Lift ${action === "unsilence" ? "a silence" : "forced sensitivity"} (removes the family's \`${tag}\` tag)`,
      tags,
      operation: untagUsers,
      params: id,
      async handler(ctx, { params }) {
        const [user] = await untagUsers(ctx, { nicknames: [(await getUser(ctx, params.id)).nickname], tags: [tag] });
        return renderAdminAccount(ctx, user!);
      },
    }),
  ),
  route({
    method: "DELETE",
    path: "/api/v1/admin/accounts/:id",
    view: ReferenceAdminAccountSchema,
    summary: "Delete an account's data (the family's user deletion)",
    tags,
    operation: deleteUsers,
    params: id,
    async handler(ctx, { params }) {
      const [user] = await deleteUsers(ctx, { nicknames: [(await getUser(ctx, params.id)).nickname] });
      return renderAdminAccount(ctx, user!);
    },
  }),

  // ---- reports
  route({
    method: "GET",
    path: "/api/v1/admin/reports",
    view: listOf(ReferenceAdminReportSchema),
    summary: "Reports, newest first: open ones, or resolved=true for handled ones; account_id (reporter), target_account_id",
    tags: reportTags,
    operation: listReferenceReports,
    query: listReferenceReports.input,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listReferenceReports(ctx, query);
      return { ...page, items: await renderReferenceReports(ctx, page.items, reportedStatuses) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/admin/reports/:id",
    view: ReferenceAdminReportSchema,
    summary: "One report",
    tags: reportTags,
    operation: showReferenceReport,
    params: id,
    handler: async (ctx, { params }) => renderReport(ctx, await showReferenceReport(ctx, params)),
  }),
  route({
    method: "PUT",
    path: "/api/v1/admin/reports/:id",
    view: ReferenceAdminReportSchema,
    summary: "Change a report's category (spam, legal, violation, other) and the rules it names",
    tags: reportTags,
    operation: updateReportDetails,
    params: id,
    body: updateReportDetails.input.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderReport(ctx, await updateReportDetails(ctx, { ...body, id: params.id })),
  }),
  ...(["assign_to_self", "unassign"] as const).map((action) =>
    route({
      method: "POST",
      path: `/api/v1/admin/reports/:id/${action}`,
      view: ReferenceAdminReportSchema,
      summary: action === "assign_to_self" ? "Take a report" : "Leave a report to nobody",
      tags: reportTags,
      operation: assignReport,
      params: id,
      handler: async (ctx, { params }) => renderReport(ctx, await assignReport(ctx, { id: params.id, assign: action === "assign_to_self" })),
    }),
  ),
  ...(["resolve", "reopen"] as const).map((action) =>
    route({
      method: "POST",
      path: `/api/v1/admin/reports/:id/${action}`,
      view: ReferenceAdminReportSchema,
      summary: action === "resolve" ? "Resolve a report (the family's state `resolved`)" : "Reopen a report (state `open`)",
      tags: reportTags,
      operation: setReportResolved,
      params: id,
      handler: async (ctx, { params }) => renderReport(ctx, await setReportResolved(ctx, { id: params.id, resolved: action === "resolve" })),
    }),
  ),
];
