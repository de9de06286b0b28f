// The reference API's Report entity, as the reporter sees it (POST /api/v1/reports).
import type { Account, Report } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { renderAccount } from "./account.ts";

export async function renderReport(ctx: Ctx, report: Report, target: Account) {
  const handled = report.state !== "open";
  return {
    id: report.id,
    action_taken: handled,
    action_taken_at: handled ? report.updatedAt.toISOString() : null,
    category: report.category,
    comment: report.comment,
    // a copy goes only to a remote account's server
    forwarded: report.forward && !target.local,
    created_at: report.createdAt.toISOString(),
    status_ids: report.statusIds,
    rule_ids: report.ruleIds.length ? report.ruleIds : null,
    target_account: await renderAccount(ctx, target),
  };
}
