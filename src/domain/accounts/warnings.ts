// Telling an account of a moderator's action (the reference API's AccountWarning): the warning is
// recorded, a local account gets a `moderation_warning` notification, and an e-mail when the moderator
// asks for one (`send_email_notification`). A mail failure is logged, not raised: the action stands.
import { newId } from "../../db/ids.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { warningMail } from "../../mail/templates.ts";
import { mailSettings } from "./registration.ops.ts";
import type { Ctx } from "../context.ts";
import { notify } from "../notifications/notify.ts";

export const WARNING_ACTIONS = ["none", "disable", "sensitive", "silence", "suspend"] as const;

export async function warnAccount(
  ctx: Ctx,
  account: Pick<Account, "id" | "nickname" | "local" | "email">,
  input: { action: (typeof WARNING_ACTIONS)[number]; text: string; reportId?: string | null; statusIds: string[]; sendEmail: boolean },
) {
  const warning = await ctx.db.accountWarning.create({
    data: {
      id: newId(ctx.clock().getTime()),
      accountId: account.id,
      actorId: ctx.viewer.account?.id ?? null,
      action: input.action,
      text: input.text,
      statusIds: input.statusIds,
      reportId: input.reportId ?? null,
      createdAt: ctx.clock(),
    },
  });
  if (!account.local) return warning;
  await notify(ctx, [{ accountId: account.id, type: "moderation_warning", fromAccountId: account.id, accountWarningId: warning.id }]);
  if (input.sendEmail && account.email) {
    try {
      await ctx.mailer.send(warningMail(mailSettings(ctx), { id: account.id, nickname: account.nickname, email: account.email }, warning));
    } catch (error) {
      console.error(`warning mail to @${account.nickname} failed:`, error);
    }
  }
  return warning;
}
