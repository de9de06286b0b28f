// The start-of-subscription check of the admin subscriptions: the access of the operation their field guard
// derives from (`...accessOf(op)`). The admin token passes (enforceAccess, requireScopes).
import { enforceAccess } from "../domain/auth/access.ts";
import { requireScopes } from "../domain/auth/policy.ts";
import type { AnyOperation } from "../domain/operation.ts";
import type { Ctx } from "../domain/context.ts";

/**
 * A subscription's guard, checked when it starts (field auth runs per event only): the access of the
 * operation whose field guard it spreads (`...accessOf(op)`), so the two are one declaration.
 */
export function guardSubscription(ctx: Ctx, op: AnyOperation) {
  const access = op.access;
  if (!access) throw new Error(`operation ${op.name} declares no access`);
  if (access === "public") return;
  enforceAccess(ctx, access);
  if (access.scopes !== "any") requireScopes(ctx.viewer, [...access.scopes]);
}
