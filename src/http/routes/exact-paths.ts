// A direct way to the REST routes whose path has no parameter (316 of the 566 declared paths). Express's
// router tries its layers one after the other: a request for /api/v1/timelines/home tested some 380
// paths before its own, deferring itself through setImmediate every 100 layers, about 0.2 ms of CPU
// per request (docs/performance.md, "Ninth round"). This table answers the same choice with one Map
// lookup by method and exact path, and falls back to Express for everything else.
//
// Same behaviour as Express, by construction:
// - a path is in the table only if no route declared before it (Express's first match wins) matches it
//   as Express would match it (path-to-regexp, case-insensitive, optional trailing slash);
// - only the exact method and the exact path as declared are looked up: HEAD, another case, a trailing
//   slash, … go through Express's own walk, which finds the same route;
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
  /** the routes with parameters declared so far, in order; their matchers are compiled when a later path is checked */
  private declaredPatterns: { method: string; path: string; prefix: string; matches?: (path: string) => boolean }[] = [];

  /** Declares a route (call in the order the routes are registered on the router). */
  add(method: string, path: string, handlers: Handler[]): void {
    const m = method.toUpperCase();
    if (!isStatic(path)) {
      // the literal text before its first parameter or group: a path it matches starts with it (in any case)
      this.declaredPatterns.push({ method: m, path, prefix: path.split(/[:*{}()[\]+?!\\]/)[0]!.toLowerCase() });
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
    return this.declaredPatterns.some((d) => {
      if (d.method !== method || !lower.startsWith(d.prefix)) return false;
      if (!d.matches) {
        const matcher = match(d.path.replace(/\/+$/, "") || "/", { sensitive: false, trailing: true, end: true });
        d.matches = (p) => matcher(p) !== false;
      }
      return d.matches(path);
    });
  }

  /** The handlers of the route declared at exactly this method and path, when the table has it. */
  lookup(method: string, path: string): Handler[] | undefined {
    return this.table.get(`${method} ${path}`);
  }

  get size(): number {
    return this.table.size;
  }

  /** Middleware to put in front of the routes: runs the route found in the table, else passes. */
  middleware(): express.RequestHandler {
    return (req, res, next) => {
      const handlers = this.lookup(req.method, req.path);
      if (!handlers) return next();
      req.params = {};
      run(handlers, req, res, next);
    };
  }
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
