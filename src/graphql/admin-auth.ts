// The admin fields' guards, as the REST routes declare them: staff holding the privilege (or admins
// only) with one of the route's OAuth scopes. The admin token satisfies every auth scope (builder.ts).
import type { Privilege } from "../config/runtime.ts";
import { requirePrivilege, requireRole, requireScopes } from "../domain/auth/policy.ts";
import type { Ctx } from "../domain/context.ts";

export const privileged = (privilege: Privilege, ...scopes: string[]) => ({ authScopes: { $all: { privilege, scopes } } }) as const;

export const adminOnly = (...scopes: string[]) => ({ authScopes: { $all: { admin: true, scopes } } }) as const;

/** The same guard for a subscription, checked when it starts (field auth runs per event only). */
export function guardSubscription(ctx: Ctx, privilege: Privilege | "admin", ...scopes: string[]) {
  if (privilege === "admin") requireRole(ctx.viewer, "admin");
  else requirePrivilege(ctx, privilege);
  requireScopes(ctx.viewer, scopes);
}
