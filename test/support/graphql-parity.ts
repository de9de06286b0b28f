// The GraphQL-parity contract shared by the admin and the client tests: a set of REST routes (read from
// the route table itself) each names its GraphQL counterpart or sits in an exception list with a reason.
// For each pair the checks are that the field exists, that it is guarded as the route is (the same
// privilege or admin role, the same OAuth scopes, optional sign-in where the route's is optional), and
// that its resolver calls a domain operation the route's handler calls too.
import type { GraphQLField } from "graphql";
import { describe, expect, test } from "vitest";
import { authOf, pathsOf, type RouteDef } from "../../src/http/routes/route.ts";
import { schema } from "../../src/graphql/schema.ts";

export interface ParityTable {
  /** what the routes are, for the test names ("admin", "client") */
  name: string;
  routes: RouteDef[];
  /** at least this many routes: the selection must not silently become empty */
  atLeast: number;
  /** `METHOD path` (first path, namespace `ext`) → `Query.field`, `Mutation.field` */
  counterparts: Record<string, string>;
  /** routes with no GraphQL counterpart, each with the reason */
  exceptions: Record<string, string>;
  /** fields guarded differently from their route, and why */
  guardExceptions?: Record<string, string>;
  /** pairs reaching the same operation through different helpers, and why */
  callExceptions?: Record<string, string>;
  /** routes built by a helper that closes over the operation (`action("pin", …, pinStatus)`): the operation it is given */
  restHelperOperation?: Record<string, string>;
}

export const keyOf = (r: RouteDef) => `${r.method} ${pathsOf(r, "ext")[0]}`;

export function field(name: string): GraphQLField<unknown, unknown> | undefined {
  const [type, fieldName] = name.split(".");
  const t = type === "Query" ? schema.getQueryType() : type === "Subscription" ? schema.getSubscriptionType() : schema.getMutationType();
  return t?.getFields()[fieldName!];
}

interface Guard {
  admin?: boolean;
  privilege?: string;
  scopes: string[];
  /** anonymous callers are served too (as anonymous) */
  optional?: boolean;
}

export function routeGuard(r: RouteDef): Guard | null {
  const auth = authOf(r);
  if (auth === "public") return null;
  const scopes = auth.scopes === "any" ? [] : [...auth.scopes];
  if (auth.privilege) return { privilege: auth.privilege, scopes };
  if (auth.role) return { admin: auth.role === "admin", scopes };
  return auth.optional ? { scopes, optional: true } : { scopes };
}

type ScopeMap = { $all?: ScopeMap; scopes?: string[]; admin?: boolean; staff?: boolean; privilege?: string; signedIn?: boolean };

function guardOf(auth: ScopeMap): Guard {
  const all = auth.$all ?? auth;
  const scopes = [...(all.scopes ?? [])];
  if (all.privilege) return { privilege: String(all.privilege), scopes };
  if (all.admin !== undefined || all.staff !== undefined) return { admin: all.admin === true, scopes };
  return { scopes };
}

/** The field's guard; a function guard is asked about an anonymous and a signed-in caller. */
export function fieldGuard(f: GraphQLField<unknown, unknown>): Guard | null {
  const auth = (f.extensions?.pothosOptions as { authScopes?: ScopeMap | ((...a: unknown[]) => ScopeMap | boolean) } | undefined)?.authScopes;
  if (!auth) return null;
  if (typeof auth !== "function") return guardOf(auth);
  const asks = (account: unknown) => auth(undefined, {}, { viewer: { account, scopes: [] } });
  const anonymous = asks(null);
  const signedIn = asks({ id: "1" });
  if (typeof signedIn === "boolean") return signedIn ? null : { scopes: [] };
  return anonymous === true ? { ...guardOf(signedIn), optional: true } : guardOf(signedIn);
}

/** Names called as `name(ctx` in a function's source: the domain operations it runs. */
function ctxCalls(fn: unknown): Set<string> {
  const source = typeof fn === "function" ? fn.toString() : "";
  // generic helper parameters (`op`) say nothing: those fields name their operation in `extensions.domainOperation`
  return new Set([...source.matchAll(/([A-Za-z_$][\w$]*)\)?\(\s*ctx\b/g)].map((m) => m[1]!).filter((n) => !/^render|^ctx$|^op$|^handler$|^call$|^async$/.test(n)));
}

export const norm = (g: Guard | null) => (g ? JSON.stringify({ ...g, scopes: [...g.scopes].sort() }) : "null");

/** Registers the parity tests for one table. */
export function describeParity(t: ParityTable): void {
  const { routes, counterparts, exceptions } = t;
  const guardExceptions = t.guardExceptions ?? {};
  const callExceptions = t.callExceptions ?? {};
  const helperOps = t.restHelperOperation ?? {};

  describe(`GraphQL parity with the ${t.name} REST API`, () => {
    test(`the route table yields the ${t.name} operations`, () => {
      expect(routes.length).toBeGreaterThan(t.atLeast);
    });

    test(`every ${t.name} REST operation has a GraphQL counterpart or a justified exception`, () => {
      const missing = routes.map(keyOf).filter((k) => !counterparts[k] && !exceptions[k]);
      expect(missing, `${t.name} routes with no GraphQL counterpart:\n${missing.join("\n")}`).toEqual([]);
      for (const [k, reason] of Object.entries(exceptions)) expect(reason.length, k).toBeGreaterThan(20);
      const both = Object.keys(exceptions).filter((k) => counterparts[k]);
      expect(both, "routes both excepted and paired").toEqual([]);
    });

    test("the tables name only routes that exist and fields that exist", () => {
      const keys = new Set(routes.map(keyOf));
      const stale = [...Object.keys(counterparts), ...Object.keys(exceptions)].filter((k) => !keys.has(k));
      expect(stale, `entries naming no ${t.name} route`).toEqual([]);
      const absent = Object.entries(counterparts)
        .filter(([, f]) => !field(f))
        .map(([k, f]) => `${k} → ${f}`);
      expect(absent, "GraphQL fields missing from the schema").toEqual([]);
    });

    test("each counterpart is guarded as its route is: the same privilege or role, the same scopes, optional sign-in alike", () => {
      const differing: string[] = [];
      for (const r of routes) {
        const k = keyOf(r);
        const name = counterparts[k];
        if (!name || guardExceptions[k]) continue;
        const expected = norm(routeGuard(r));
        const actual = norm(fieldGuard(field(name)!));
        if (expected !== actual) differing.push(`${k} ${expected} ≠ ${name} ${actual}`);
      }
      expect(differing).toEqual([]);
    });

    test("each restHelperOperation entry is still read (its route or its field names no operation)", () => {
      const dead = Object.keys(helperOps).filter((k) => {
        const r = routes.find((x) => keyOf(x) === k);
        const f = counterparts[k] ? field(counterparts[k]!) : undefined;
        return !r || (r.operation && f?.extensions?.operation);
      });
      expect(dead).toEqual([]);
    });

    test("each counterpart's resolver calls a domain operation its route's handler calls", () => {
      const differing: string[] = [];
      for (const r of routes) {
        const k = keyOf(r);
        const name = counterparts[k];
        if (!name || callExceptions[k]) continue;
        const f = field(name)!;
        // both name their operation (the route's `operation`, the field's `accessOf(op)`): the same one, or not
        const named = f.extensions?.operation;
        if (r.operation && named) {
          if (named !== r.operation) differing.push(`${k} runs ${r.operation.name}; ${name} runs ${(named as { name: string }).name}`);
          continue;
        }
        const resolver = (f.extensions?.pothosOriginalResolve as unknown) ?? f.resolve;
        const rest = helperOps[k] ? new Set([helperOps[k]]) : ctxCalls(r.handler);
        const options = f.extensions?.pothosOptions as { resolve?: unknown } | undefined;
        // prisma fields wrap the declared resolver: read the declaration too
        const gql = new Set([...ctxCalls(resolver), ...ctxCalls(options?.resolve)]);
        const declared = f.extensions?.domainOperation;
        if (typeof declared === "string") gql.add(declared);
        if (![...rest].some((n) => gql.has(n))) differing.push(`${k} calls [${[...rest]}]; ${name} calls [${[...gql]}]`);
      }
      expect(differing).toEqual([]);
    });
  });
}
