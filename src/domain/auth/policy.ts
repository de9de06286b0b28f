// Authorization checks shared by operations and surfaces; the messages are the family's.
import type { Ctx, Viewer } from "../context.ts";
import { Forbidden } from "../../kernel/errors.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { hasScope } from "./scopes.ts";
import { ADMIN_PRIVILEGES, type Privilege } from "../../config/runtime.ts";

export function requireAccount(ctx: Ctx): Account {
  if (!ctx.viewer.account) throw Forbidden("Invalid credentials.");
  return ctx.viewer.account;
}

export function isAdmin(viewer: Viewer): boolean {
  return viewer.via === "admin_token" || !!viewer.account?.isAdmin;
}

export function isStaff(viewer: Viewer): boolean {
  return isAdmin(viewer) || !!viewer.account?.isModerator;
}

/** Scope check; the admin token skips scope checks as the family's servers do. */
export function requireScopes(viewer: Viewer, anyOf: readonly string[]) {
  if (viewer.via === "admin_token" || anyOf.length === 0) return;
  if (!hasScope(viewer.scopes, anyOf)) throw Forbidden(`Insufficient permissions: ${anyOf.join(" | ")}.`);
}

export function requireRole(viewer: Viewer, role: "admin" | "staff") {
  if (viewer.via === "admin_token") return;
  if (!viewer.account) throw Forbidden("Invalid credentials.");
  if (role === "admin" && !viewer.account.isAdmin) throw Forbidden("User is not an admin.");
  if (role === "staff" && !isStaff(viewer)) throw Forbidden("User is not a staff member.");
}

/** The family's privilege check: the role's privilege list (a runtime setting) must hold `privilege`. */
export function requirePrivilege(ctx: Ctx, privilege: Privilege) {
  if (ctx.viewer.via === "admin_token") return;
  const account = ctx.viewer.account;
  if (!account) throw Forbidden("Invalid credentials.");
  if (!account.isAdmin && !account.isModerator) throw Forbidden("User is not a staff member.");
  if (!hasPrivilege(ctx, privilege)) throw Forbidden("User isn't privileged.");
}

export function hasPrivilege(ctx: Ctx, privilege: Privilege): boolean {
  if (ctx.viewer.via === "admin_token") return true;
  const account = ctx.viewer.account;
  return (
    (!!account?.isAdmin && ctx.config.get("instance", "admin_privileges").includes(privilege)) ||
    (!!account?.isModerator && ctx.config.get("instance", "moderator_privileges").includes(privilege))
  );
}

/** The privileges a local account's roles give it (the family's `User.privileges`): none for remote or non-staff accounts. */
export function rolePrivileges(ctx: Pick<Ctx, "config">, account: Pick<Account, "local" | "isAdmin" | "isModerator">): Privilege[] {
  if (!account.local) return [];
  const granted = new Set<Privilege>([
    ...(account.isAdmin ? ctx.config.get("instance", "admin_privileges") : []),
    ...(account.isModerator ? ctx.config.get("instance", "moderator_privileges") : []),
  ]);
  return ADMIN_PRIVILEGES.filter((p) => granted.has(p));
}

export function requireAdmin(ctx: Ctx) {
  requireRole(ctx.viewer, "admin");
}
