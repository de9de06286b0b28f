// Authorization declared once (issue 20, criterion 4): a route that names its operation and a GraphQL field
// built with `accessOf(op)` are guarded exactly as the operation's `access` says, so the same operation has
// the same access on every surface; a route or field that checks access without an operation is a listed exception.
import { describe, expect, test } from "vitest";
import { allRoutes } from "../../src/routes.ts";
import { assertRouteDeclared, authOf, route } from "../../src/http/routes/route.ts";
import type { AnyOperation } from "../../src/domain/operation.ts";
import { schema } from "../../src/graphql/schema.ts";
import { countAccess } from "../support/access-count.ts";
import { fieldGuard, keyOf, norm, routeGuard } from "../support/graphql-parity.ts";

const fields = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!].flatMap((t) =>
  Object.entries(t.getFields()).map(([name, f]) => ({ name: `${t.name}.${name}`, f, op: f.extensions?.operation as AnyOperation | undefined })),
);
const named = allRoutes.filter((r) => r.operation?.access);

describe("access declared on the operation", () => {
  test("each route naming an operation has the operation's access as its auth (plus only optional/appToken)", () => {
    expect(named.length).toBeGreaterThan(100);
    for (const r of named) {
      const access = r.operation!.access!;
      const auth = authOf(r);
      if (access === "public") expect(auth, keyOf(r)).toBe("public");
      else expect({ ...(auth as object), optional: undefined, appToken: undefined }, keyOf(r)).toEqual({ ...access, optional: undefined, appToken: undefined });
    }
  });

  test("a route may not restate what its operation declares", () => {
    const op = named[0]!.operation!;
    const restated = route({ method: "GET", path: "/x", summary: "x", operation: op, auth: { scopes: ["read"] }, handler: async () => null });
    expect(() => assertRouteDeclared(restated)).toThrow(/may add only optional\/appToken/);
    expect(() => assertRouteDeclared(route({ method: "GET", path: "/x", summary: "x", operation: op, auth: { optional: true }, handler: async () => null }))).not.toThrow();
  });

  test("the same operation has the same guard over REST and GraphQL", () => {
    const byOp = new Map<AnyOperation, string[]>();
    for (const r of named) byOp.set(r.operation!, [...(byOp.get(r.operation!) ?? []), `${keyOf(r)} ${norm(routeGuard(r))}`]);
    const differing: string[] = [];
    let pairs = 0;
    for (const { name, f, op } of fields) {
      if (!op) continue;
      const guard = norm(fieldGuard(f));
      for (const entry of byOp.get(op) ?? []) {
        pairs++;
        if (!entry.endsWith(` ${guard}`)) differing.push(`${entry} ≠ ${name} ${guard}`);
      }
    }
    expect(differing).toEqual([]);
    expect(pairs).toBeGreaterThan(60);
  });

  // Routes that check a scope, role or privilege without an operation to carry it: each with its reason.
  // (Routes declared "public" need no access: they check nothing. They are the OAuth and browser forms,
  // the public pages, discovery documents and the instance reads.)
  const ROUTES_BY_HAND: Record<string, string> = {
    "GET /api/v1/suggestions": "a stub answering [] (no suggestions engine): nothing to run, nothing read",
    "GET /api/v1/identity_proofs": "a stub answering [] (identity proofs are gone from the reference API): nothing run",
    "GET /api/v1/accounts/:id/identity_proofs": "a stub answering [] (identity proofs are gone from the reference API): nothing run",
    "GET /api/v1/admin/trends/links": "a stub answering [] (no preview cards are fetched, so no link trends): nothing run",
    "POST /api/v1/admin/trends/links/:id/approve": "a stub answering 404 (no link trends exist): nothing run",
    "POST /api/v1/admin/trends/links/:id/reject": "a stub answering 404 (no link trends exist): nothing run",
  };
  // Guarded GraphQL fields whose guard is not an operation's, each with its reason.
  const FIELDS_BY_HAND: Record<string, string> = {
    "Subscription.followRelationshipsUpdated": "follow events of the `user` stream: no operation reads follow updates; the stream's scope",
  };

  test("every route checking a scope, role or privilege takes it from its operation, or is a listed stub", () => {
    const byHand = allRoutes.filter((r) => !r.operation?.access && authOf(r) !== "public").map(keyOf);
    expect(byHand.sort()).toEqual(Object.keys(ROUTES_BY_HAND).sort());
  });

  test("every guarded GraphQL field takes its guard from its operation, or is listed", () => {
    const byHand = fields.filter(({ f, op }) => !op && (f.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes !== undefined).map((x) => x.name);
    expect(byHand.sort()).toEqual(Object.keys(FIELDS_BY_HAND).sort());
  });

  test("how many routes and fields derive their access (printed)", () => {
    const count = countAccess(allRoutes, schema);
    console.log(`access derived from the operation — REST routes: ${count.routes.derived} derived / ${count.routes.byHand} by hand; GraphQL fields: ${count.fields.derived} derived / ${count.fields.byHand} by hand (${count.fields.open} unguarded)`);
    expect(count.routes.derived).toBeGreaterThan(350);
    expect(count.fields.derived).toBeGreaterThan(300);
  });
});
