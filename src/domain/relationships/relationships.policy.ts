// Who may run the relationships area's operations: every one acts for a signed-in account.
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";

export function signedIn(ctx: Ctx): void {
  requireAccount(ctx);
}
