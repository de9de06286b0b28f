// A field that runs one domain operation takes its guard from the operation's access declaration
// (src/domain/auth/access.ts), as the REST route does (src/http/routes/route.ts `authOf`): written once, the
// two surfaces cannot drift. `...accessOf(op)` spreads the Pothos auth scopes and records the operation
// on the field (`extensions.operation`), where the parity tests and scripts/dev/access-count.ts read it.
import type { Access, SurfaceAccess } from "../domain/auth/access.ts";
import type { Ctx } from "../domain/context.ts";
import type { AnyOperation } from "../domain/operation.ts";

/** The Pothos auth scopes of an access rule (see src/graphql/builder.ts for what each scope means). */
export function authScopesOf(access: Access) {
  if (access === "public") return undefined;
  // "any": any credentials; a list: one of its scopes (the admin token passes, builder.ts)
  const scopes = access.scopes === "any" ? { signedIn: true } : { scopes: access.scopes };
  if (access.privilege) return { $all: { privilege: access.privilege, ...scopes } };
  if (access.role) return { $all: { [access.role]: true, ...scopes } };
  // optional sign-in (src/graphql/optional-scopes.ts): a signed-in caller needs the scopes, an anonymous one passes
  if (access.optional) return (_parent: unknown, _args: unknown, ctx: Ctx) => (ctx.viewer.account ? scopes : true);
  return scopes;
}

/** Field options guarding it as `op` declares, with the operation recorded on the field. */
export function accessOf(op: AnyOperation, surface: SurfaceAccess = {}) {
  if (!op.access) throw new Error(`operation ${op.name} declares no access: the field must declare its guard itself`);
  const access = op.access === "public" ? op.access : { ...op.access, ...surface };
  const authScopes = authScopesOf(access);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the union of guard shapes is checked by Pothos at the field
  return { ...(authScopes ? { authScopes: authScopes as any } : {}), extensions: { operation: op } };
}
