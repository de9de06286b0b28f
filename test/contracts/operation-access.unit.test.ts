// Authorization declared once (issue 20, criterion 4): a route that names its operation and a GraphQL field
// built with `accessOf(op)` are guarded exactly as the operation's `access` says, so the same operation has
// the same access on every surface. The counts show how far the conversion has come.
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

  test("how many routes and fields derive their access (printed)", () => {
    const count = countAccess(allRoutes, schema);
    console.log(`access derived from the operation — REST routes: ${count.routes.derived} derived / ${count.routes.byHand} by hand; GraphQL fields: ${count.fields.derived} derived / ${count.fields.byHand} by hand (${count.fields.open} unguarded)`);
    expect(count.routes.derived).toBeGreaterThan(100);
    expect(count.fields.derived).toBeGreaterThan(50);
  });
});
