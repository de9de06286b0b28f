// Who may run an operation, declared once on the operation (src/domain/operation.ts) and read by every
// surface: the REST route derives its `auth` from it (src/http/routes/route.ts `authOf`), the GraphQL field its
// auth scopes (src/graphql/access.ts `accessOf`). The operation itself enforces the part that is about the
// account (role, privilege) whichever surface calls it; OAuth scopes belong to tokens, so the surfaces
// check those (a CLI or federation caller holds no token).
import type { Privilege } from "../../config/runtime.ts";
import type { Ctx } from "../context.ts";
import { requirePrivilege, requireRole } from "./policy.ts";

export interface AccessRule {
  /** alternatives: any one covers the call; "any" = any valid credentials (explicit, never implied) */
  scopes: readonly string[] | "any";
  /** anonymous (or insufficiently scoped) requests still run, as anonymous */
  optional?: boolean;
  role?: "admin" | "staff";
  /** staff holding this privilege of the admin API (checked before scopes, as the family does) */
  privilege?: Privilege;
  /** an app-only token (client_credentials grant, no user) is enough */
  appToken?: boolean;
}

/** "public": anyone, signed in or not. */
export type Access = "public" | AccessRule;

/** What a surface may add to an operation's access: switches about how its requests arrive, never who may run it. */
export type SurfaceAccess = Pick<AccessRule, "optional" | "appToken">;

/**
 * The account part of an access rule, enforced by the operation when it is called: the role, then the
 * privilege (the family's order). A system context (`systemCtx`: CLI, jobs, federation) and the admin
 * token pass, as they pass `requireRole`/`requirePrivilege` today.
 */
export function enforceAccess(ctx: Ctx, access: Access | undefined): void {
  if (!access || access === "public") return;
  if (access.role) requireRole(ctx.viewer, access.role);
  if (access.privilege) requirePrivilege(ctx, access.privilege);
}
