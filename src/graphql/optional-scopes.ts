import type { Ctx } from "../domain/context.ts";

/**
 * The guard of a field that anonymous callers may read too (as the REST route with optional sign-in): a
 * signed-in caller needs the scopes, an anonymous one passes.
 */
export const optional = (...scopes: string[]) => ({ authScopes: (_p: unknown, _a: unknown, ctx: Ctx) => (ctx.viewer.account ? { scopes } : true) });
