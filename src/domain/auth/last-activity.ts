// An account's last activity (`accounts.last_active_at`), which the active-user counts of NodeInfo and
// `/api/v1/instance` read. Signing in and authenticated API use record it, but at most once per
// ACTIVITY_RESOLUTION_MS per account: the token lookup already brings the account row, so a request
// within the window costs nothing, and the conditional UPDATE keeps processes racing to one write.
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

export const ACTIVITY_RESOLUTION_MS = 10 * 60 * 1000;

export async function noteActivity(ctx: Pick<Ctx, "db" | "clock">, account: Pick<Account, "id" | "lastActiveAt">): Promise<void> {
  const now = ctx.clock();
  const stale = new Date(now.getTime() - ACTIVITY_RESOLUTION_MS);
  if (account.lastActiveAt && account.lastActiveAt > stale) return;
  await ctx.db.account.updateMany({ where: { id: account.id, OR: [{ lastActiveAt: null }, { lastActiveAt: { lt: stale } }] }, data: { lastActiveAt: now } });
}
