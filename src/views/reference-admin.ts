// The reference admin API's entities (Admin::Account, Admin::Report, Admin::DomainBlock, …) in the
// reference server's wire shapes. Lists render with a constant number of queries (renderAccounts batches).
import { createHash } from "node:crypto";
import type { Ctx } from "../../src/domain/context.ts";
import type { AdminReportRow } from "../../src/domain/reports/admin-reference.ops.ts";
import { SENSITIVE_TAG, SILENCE_TAG } from "../../src/domain/accounts/admin-reference.ops.ts";
import type {
  Account,
  CanonicalEmailBlock,
  EmailDomainBlock,
  InstanceDomainAllow,
  InstanceDomainBlock,
  IpBlock,
} from "../../src/generated/prisma/client.ts";
import { renderAccounts } from "./account.ts";
import { renderRule } from "./rule.ts";

/** The reference server's roles, mapped onto ours (ids are its default role ids). */
function role(a: Account) {
  if (a.isAdmin) return { id: "3", name: "Admin", color: "", permissions: "1", highlighted: true };
  if (a.isModerator) return { id: "2", name: "Moderator", color: "", permissions: "1308", highlighted: true };
  return { id: "-99", name: "", color: "", permissions: "65536", highlighted: false };
}


export async function renderAdminAccounts(ctx: Ctx, accounts: Account[]) {
  const rendered = await renderAccounts(ctx, accounts);
  return accounts.map((a, i) => ({
    id: a.id,
    username: a.local ? a.nickname : a.nickname.split("@")[0]!,
    domain: a.local ? null : (a.domain ?? null),
    created_at: a.createdAt.toISOString(),
    email: a.email ?? "",
    // sign-in addresses are not recorded
    ip: null,
    ips: [],
    locale: a.language ?? "",
    invite_request: a.registrationReason ?? null,
    role: role(a),
    confirmed: !a.confirmationPending,
    approved: !a.approvalPending,
    // the family's deactivation is both: it refuses sign-in and hides the account
    disabled: a.deactivated,
    suspended: a.deactivated,
    silenced: a.tags.includes(SILENCE_TAG),
    sensitized: a.tags.includes(SENSITIVE_TAG),
    account: rendered[i]!,
    created_by_application_id: undefined,
    invited_by_account_id: undefined,
  }));
}

export async function renderAdminAccount(ctx: Ctx, account: Account) {
  return (await renderAdminAccounts(ctx, [account]))[0]!;
}

export async function renderReferenceReports(ctx: Ctx, reports: AdminReportRow[], statuses: (ctx: Ctx, ids: string[]) => Promise<{ id: string }[]>) {
  const people = new Map<string, Account>();
  for (const r of reports) for (const a of [r.reporter, r.target, r.assignedAccount]) if (a) people.set(a.id, a);
  const list = [...people.values()];
  const admins = new Map((await renderAdminAccounts(ctx, list)).map((a, i) => [list[i]!.id, a]));
  // every report's statuses render in one batch (in the order `statuses` gives), so a page costs what one report does
  const rendered = await statuses(ctx, [...new Set(reports.flatMap((r) => r.statusIds))]);
  return Promise.all(
    reports.map(async (r) => {
      const handled = r.state !== "open";
      return {
        id: r.id,
        action_taken: handled,
        action_taken_at: handled ? r.updatedAt.toISOString() : null,
        category: r.category,
        comment: r.comment,
        forwarded: r.forward && !r.target.local,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
        account: admins.get(r.reporterId)!,
        target_account: admins.get(r.targetId)!,
        assigned_account: r.assignedAccountId ? (admins.get(r.assignedAccountId) ?? null) : null,
        // who closed it is not recorded
        action_taken_by_account: null,
        statuses: rendered.filter((st) => r.statusIds.includes(st.id)),
        rules: r.rules.map(renderRule),
      };
    }),
  );
}

export const renderDomainBlock = (b: InstanceDomainBlock) => ({
  id: b.id,
  domain: b.domain,
  digest: createHash("sha256").update(b.domain).digest("hex"),
  created_at: b.createdAt.toISOString(),
  severity: b.severity,
  reject_media: b.rejectMedia,
  reject_reports: b.rejectReports,
  private_comment: b.privateComment,
  public_comment: b.publicComment,
  obfuscate: b.obfuscate,
});

export const renderDomainAllow = (a: InstanceDomainAllow) => ({ id: a.id, domain: a.domain, created_at: a.createdAt.toISOString() });

export const renderEmailDomainBlock = (b: EmailDomainBlock & { history?: { day: string; accounts: string; uses: string }[] }) => ({
  id: b.id,
  domain: b.domain,
  created_at: b.createdAt.toISOString(),
  history: b.history ?? [],
});

export const renderCanonicalEmailBlock = (b: CanonicalEmailBlock) => ({ id: b.id, canonical_email_hash: b.canonicalEmailHash });

export const renderIpBlock = (b: IpBlock) => ({
  id: b.id,
  ip: b.ip,
  severity: b.severity,
  comment: b.comment,
  created_at: b.createdAt.toISOString(),
  expires_at: b.expiresAt?.toISOString() ?? null,
});

