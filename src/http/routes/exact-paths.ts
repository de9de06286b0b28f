// A direct way to the REST routes. Express's router tries its layers one after the other: a request for
// /api/v1/timelines/home tested some 380 paths before its own, deferring itself through setImmediate every 100
// layers, about 0.2 ms of CPU per request (docs/performance.md, "Ninth round"), as much as a whole kept page
// costs (fourteenth round). This table answers the same choice with one Map lookup by method and exact path for
// the routes without parameters (316 of the 566 declared paths), and, for the others, by trying only the patterns
// of that method whose literal beginning the path has, in the order they were declared; everything else falls
// back to Express.
//
// Same behaviour as Express, by construction:
// - a path is in the table only if no route declared before it (Express's first match wins) matches it
//   as Express would match it (path-to-regexp, case-insensitive, optional trailing slash);
// - only the exact method and the exact path as declared are looked up: HEAD, another case, a trailing
//   slash, … go through Express's own walk, which finds the same route;
// - a path with parameters is taken by the first declared pattern that matches it as Express's would (the same
//   matcher and options, parameters decoded as Express decodes them), unless a parameterless route also matches
//   it (in any case, with a trailing slash): then, and when a parameter cannot be decoded, Express decides;
// - the route's handlers run in order as Express runs them (`next()` to the following one, `next(err)`
//   and a rejected promise to the error handlers).
import type express from "express";
import { match } from "path-to-regexp";

type Handler = (req: express.Request, res: express.Response, next: (err?: unknown) => void) => unknown;

const isStatic = (path: string) => !/[:*{}()]/.test(path);
/** a parameterless path as Express's matching sees it: lower case, without `trailing` (a declared route's trailing
 *  slashes, which its pattern drops; the one optional slash of a path it matches) */
const staticKey = (path: string, trailing: RegExp) => path.replace(trailing, "").toLowerCase() || "/";

export class ExactPaths {
  private table = new Map<string, Handler[]>();
  /** the parameterless routes declared so far, by method and path as Express compares them (lower case, no trailing slash) */
  private declaredStatic = new Set<string>();
  /** the routes with parameters declared so far, in order; their matchers are compiled when first needed */
  private declaredPatterns: Pattern[] = [];

  /** Declares a route (call in the order the routes are registered on the router). */
  add(method: string, path: string, handlers: Handler[]): void {
    const m = method.toUpperCase();
    if (!isStatic(path)) {
      // the literal text before its first parameter or group: a path it matches starts with it (in any case)
      this.declaredPatterns.push({ method: m, path, prefix: path.split(/[:*{}()[\]+?!\\]/)[0]!.toLowerCase(), handlers });
      return;
    }
    if (!this.table.has(`${m} ${path}`) && !this.shadowed(m, path)) this.table.set(`${m} ${path}`, handlers);
    this.declaredStatic.add(`${m} ${staticKey(path, /\/+$/)}`);
  }

  /**
   * Whether a route declared earlier matches `path` as Express would (path-to-regexp: case-insensitive, one
   * optional trailing slash). An earlier parameterless route does when the two are equal but for case and
   * that slash: one Set lookup. Only the routes with parameters need their matchers (compiled once, at the
   * first check: start-up compiled one per route and tried each against every later path before, ~0.1 s).
   */
  private shadowed(method: string, path: string): boolean {
    if (this.declaredStatic.has(`${method} ${staticKey(path, /\/$/)}`)) return true;
    const lower = path.toLowerCase();
    return this.declaredPatterns.some((d) => d.method === method && lower.startsWith(d.prefix) && matcherOf(d)(path) !== false);
  }

  /** The handlers of the route declared at exactly this method and path, when the table has it. */
  lookup(method: string, path: string): Handler[] | undefined {
    return this.table.get(`${method} ${path}`);
  }

  get size(): number {
    return this.table.size;
  }

  /**
   * The first declared route with parameters that takes this path, with its decoded parameters; undefined when
   * none does, when a parameterless route matches it too, or when a parameter does not decode (Express decides).
   */
  lookupPattern(method: string, path: string): { handlers: Handler[]; params: Record<string, string> } | undefined {
    if (this.declaredStatic.has(`${method} ${staticKey(path, /\/$/)}`)) return undefined;
    const lower = path.toLowerCase();
    for (const d of this.declaredPatterns) {
      if (d.method !== method || !lower.startsWith(d.prefix)) continue;
      let found: ReturnType<Matcher>;
      try {
        found = matcherOf(d)(path);
      } catch {
        return undefined; // a malformed %-escape: Express answers it (400)
      }
      if (found) return { handlers: d.handlers, params: found.params as Record<string, string> };
    }
    return undefined;
  }

  /** Middleware to put in front of the routes: runs the route found by either lookup, else passes. */
  middleware(): express.RequestHandler {
    return (req, res, next) => {
      const handlers = this.lookup(req.method, req.path);
      if (handlers) {
        req.params = {};
        return run(handlers, req, res, next);
      }
      const found = this.lookupPattern(req.method, req.path);
      if (!found) return next();
      req.params = found.params;
      run(found.handlers, req, res, next);
    };
  }
}

type Matcher = (path: string) => false | { params: Partial<Record<string, string | string[]>> };

interface Pattern {
  method: string;
  path: string;
  /** the literal text before its first parameter, lower case: a path it matches starts with it */
  prefix: string;
  handlers: Handler[];
  match?: Matcher;
}

/** Express's matcher for a route path (router 2: path-to-regexp, case-insensitive, optional trailing slash, decodeURIComponent). */
function matcherOf(d: Pattern): Matcher {
  return (d.match ??= match(d.path.replace(/\/+$/, "") || "/", { sensitive: false, trailing: true, end: true }));
}

/** Express's Route.dispatch for one route: each handler's `next` calls the following one. */
function run(handlers: Handler[], req: express.Request, res: express.Response, done: (err?: unknown) => void) {
  let i = 0;
  const next = (err?: unknown): void => {
    // a route's handlers passing on (none of ours does): leave this router, as Express would after its last match
    if (err === "route" || err === "router") return done("router");
    if (err) return done(err);
    const handler = handlers[i++];
    if (!handler) return done("router");
    try {
      const result = handler(req, res, next);
      if (result instanceof Promise) result.catch((error) => next(error ?? new Error("Rejected promise")));
    } catch (error) {
      next(error);
    }
  };
  next();
}
