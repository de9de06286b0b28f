// The one Pothos schema builder. Resolvers call src/domain operations with the request's Ctx.
import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import { hasPrivilege, isAdmin, isStaff } from "../domain/auth/policy.ts";
import type { Privilege } from "../config/runtime.ts";
import { hasScope } from "../domain/auth/scopes.ts";
import type { Ctx } from "../domain/context.ts";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Ctx;
  /** `scopes`: signed in and holding any one of these OAuth scopes (cookie sessions hold all) */
  /** `privilege`: staff holding that admin-API privilege (the role's runtime privilege list) */
  AuthScopes: { signedIn: boolean; staff: boolean; admin: boolean; scopes: readonly string[]; privilege: Privilege };
  Scalars: { DateTime: { Input: Date; Output: Date }; File: { Input: File; Output: never } };
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, PrismaPlugin, DataloaderPlugin, RelayPlugin],
  scopeAuth: {
    authScopes: async (ctx) => ({
      signedIn: !!ctx.viewer.account,
      staff: isStaff(ctx.viewer),
      admin: isAdmin(ctx.viewer),
      // the admin token skips scope checks, as the family's servers do (operations still need an account where they act as one)
      scopes: (anyOf: readonly string[]) => ctx.viewer.via === "admin_token" || (!!ctx.viewer.account && hasScope(ctx.viewer.scopes, anyOf)),
      privilege: (privilege: Privilege) => hasPrivilege(ctx, privilege),
    }),
  },
  prisma: { client: (ctx) => ctx.db, dmmf: getDatamodel(), filterConnectionTotalCount: true },
  relay: {},
});

builder.scalarType("DateTime", {
  serialize: (d) => d.toISOString(),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new TypeError("invalid DateTime");
    return d;
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
