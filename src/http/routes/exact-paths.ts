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

export class ExactPaths {
  private table = new Map<string, Handler[]>();
  /** every route declared so far, in order, as Express would match it */
  private declared: { method: string; matches: (path: string) => boolean }[] = [];

  /** Declares a route (call in the order the routes are registered on the router). */
  add(method: string, path: string, handlers: Handler[]): void {
    const m = method.toUpperCase();
    const shadowed = this.declared.some((d) => d.method === m && d.matches(path));
    if (isStatic(path) && !shadowed && !this.table.has(`${m} ${path}`)) this.table.set(`${m} ${path}`, handlers);
    const matcher = match(path.replace(/\/+$/, "") || "/", { sensitive: false, trailing: true, end: true });
    this.declared.push({ method: m, matches: (p) => matcher(p) !== false });
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
