// How many REST routes and GraphQL fields take their guard from their operation's access declaration
// (src/http/routes/route.ts `authOf`, src/graphql/access.ts `accessOf`) and how many still declare it by hand.
import type { GraphQLSchema } from "graphql";
import type { RouteDef } from "../../src/http/routes/route.ts";

export interface AccessCount {
  routes: { derived: number; byHand: number };
  fields: { derived: number; byHand: number; open: number };
}

export function countAccess(routes: readonly RouteDef[], schema: GraphQLSchema): AccessCount {
  const derived = routes.filter((r) => r.operation?.access).length;
  const fields = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => Object.values(t?.getFields() ?? {}));
  const guarded = fields.filter((f) => (f.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes !== undefined || f.extensions?.operation);
  const fromOp = fields.filter((f) => f.extensions?.operation).length;
  return {
    routes: { derived, byHand: routes.length - derived },
    fields: { derived: fromOp, byHand: guarded.length - fromOp, open: fields.length - guarded.length },
  };
}
