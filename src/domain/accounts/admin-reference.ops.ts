// Accounts through the reference admin API (`/api/v1/admin/accounts`, `/api/v2/admin/accounts`): its
// filters and keyset pages, and its moderation action mapped onto the family's operations — suspend and
// disable are the family's deactivation, silence and sensitive its moderation tags
// (`mrf_tag:force-unlisted`, `mrf_tag:media-force-nsfw`), a warning a moderation-log entry; every action
// is also recorded as the account's warning and told to it (account-warnings.ts).
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import { likeLiteral, storedHost } from "../../db/like.ts";
import { requirePrivilege } from "../auth/policy.ts";
import { NotFound } from "../../kernel/errors.ts";
import { text } from "../input-limits.ts";
import { bool } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput } from "../pagination.ts";
import { severSuspendedAccount } from "../relationships/severances.ts";
import { warnAccount } from "./warnings.ts";
import { updateReportStates } from "../reports/admin-reports.ops.ts";
import { deactivateUsers, tagUsers } from "./admin-users.ops.ts";
import { getUser } from "./admin-users.read.ts";
import { SENSITIVE_TAG, SILENCE_TAG } from "./moderation-tags.ts";

export { SENSITIVE_TAG, SILENCE_TAG };

export const ACCOUNT_ACTIONS = ["none", "sensitive", "disable", "silence", "suspend"] as const;

const flag = bool().optional();

export const listAdminAccountsInput = pageInput.extend({
  // v1
  local: flag,
  remote: flag,
  active: flag,
  pending: flag,
  disabled: flag,
  sensitized: flag,
  silenced: flag,
  suspended: flag,
  staff: flag,
  // v2
  origin: z.enum(["local", "remote"]).optional(),
  status: z.enum(["active", "pending", "disabled", "silenced", "suspended"]).optional(),
  permissions: z.enum(["staff"]).optional(),
  // both
  by_domain: z.string().optional(),
  username: z.string().optional(),
  display_name: z.string().optional(),
  email: z.string().optional(),
  /** sign-in addresses are not recorded: a search by IP finds nobody */
  ip: z.string().optional(),
});

function accountsWhere(input: z.output<typeof listAdminAccountsInput>): Prisma.AccountWhereInput {
  const and: Prisma.AccountWhereInput[] = [];
  const contains = (s: string) => ({ contains: likeLiteral(s), mode: "insensitive" as const });
  if (input.local || input.origin === "local") and.push({ local: true });
  if (input.remote || input.origin === "remote") and.push({ local: false });
  const status = input.status;
  if (input.active || status === "active") and.push({ deactivated: false, approvalPending: false });
  if (input.pending || status === "pending") and.push({ approvalPending: true });
  if (input.disabled || input.suspended || status === "disabled" || status === "suspended") and.push({ deactivated: true });
  if (input.silenced || status === "silenced") and.push({ tags: { has: SILENCE_TAG } });
  if (input.sensitized) and.push({ tags: { has: SENSITIVE_TAG } });
  if (input.staff || input.permissions === "staff") and.push({ OR: [{ isAdmin: true }, { isModerator: true }] });
  if (input.by_domain?.trim()) and.push({ domain: storedHost(input.by_domain) });
  if (input.username?.trim()) and.push({ nickname: contains(input.username.trim()) });
  if (input.display_name?.trim()) and.push({ displayName: contains(input.display_name.trim()) });
  if (input.email?.trim()) and.push({ email: contains(input.email.trim()) });
  if (input.ip?.trim()) and.push({ id: { in: [] } });
  // the instance's internal actors (relay, fetch) are nobody's to moderate
  and.push({ NOT: { nickname: { startsWith: "internal." } } });
  return { AND: and };
}

export const listAdminAccounts = operation({
  name: "admin.accounts.list",
  access: { scopes: ["admin:read:accounts"], privilege: "users_read" },
  input: listAdminAccountsInput,
  async run(ctx, input) {
    const k = keyset(input, { defaultLimit: 100, maxLimit: 200 });
    const where: Prisma.AccountWhereInput = { AND: [accountsWhere(input), ...(k.cursor ? [{ id: k.cursor }] : [])] };
    const rows = await ctx.db.account.findMany({ where, orderBy: { id: k.order }, take: k.take });
    return k.finish(rows, (r) => r.id);
  },
});

/**
 * The reference server's moderation action on an account. Each kind runs the family's operation for it
 * (which checks its own privilege too); a warning text, and `none`, leave a "warned" entry; a report
 * named is resolved with it.
 */
export const accountAction = operation({
  name: "admin.accounts.action",
  access: { scopes: ["admin:write:accounts"], privilege: "users_manage_activation_state" },
  input: z.object({
    id: z.string(),
    type: z.enum(ACCOUNT_ACTIONS).default("none"),
    report_id: z.string().optional().nullable(),
    warning_preset_id: z.string().optional().nullable(),
    text: text().optional().nullable(),
    /** the warning goes by e-mail too (the in-app `moderation_warning` notification is always sent) */
    send_email_notification: flag,
  }),
  async run(ctx, input) {
    const account = await getUser(ctx, input.id);
    const report = input.report_id ? await ctx.db.report.findUnique({ where: { id: input.report_id }, select: { id: true, statusIds: true } }) : null;
    if (input.report_id && !report) throw NotFound("Record not found");
    const nicknames = [account.nickname];
    // as the reference: a preset's text, then the moderator's own (an unknown preset is ignored)
    const preset = input.warning_preset_id ? await ctx.db.warningPreset.findUnique({ where: { id: input.warning_preset_id } }) : null;
    const warningText = [preset?.text, input.text].filter(Boolean).join("\n\n");
    // every privilege the family's operations below check is checked before anything is recorded, so a
    // refused action leaves no warning behind
    if (input.type === "silence" || input.type === "sensitive") requirePrivilege(ctx, "users_manage_tags");
    if (input.report_id) requirePrivilege(ctx, "reports_manage_reports");
    // told first: a disabled or suspended account is no longer notified
    await warnAccount(ctx, account, { action: input.type, text: warningText, reportId: report?.id, statusIds: report?.statusIds ?? [], sendEmail: input.send_email_notification === true });
    if (input.type === "disable" || input.type === "suspend") await deactivateUsers(ctx, { nicknames });
    // as in the reference, a remote account's suspension cuts its follows with local accounts (recorded for them)
    if (input.type === "suspend") await severSuspendedAccount(ctx, account);
    if (input.type === "silence") await tagUsers(ctx, { nicknames, tags: [SILENCE_TAG] });
    if (input.type === "sensitive") await tagUsers(ctx, { nicknames, tags: [SENSITIVE_TAG] });
    if (input.type === "none" || input.text) await logAction(ctx, { action: "warn", subjects: [account], text: input.text ?? "" });
    if (input.report_id) await updateReportStates(ctx, { reports: [{ id: input.report_id, state: "resolved" }] });
    return getUser(ctx, account.id);
  },
});
