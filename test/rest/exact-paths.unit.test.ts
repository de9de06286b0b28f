// src/http/routes/exact-paths.ts: the lookup by exact path chooses the route Express would choose.
import express from "express";
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../src/routes.ts";
import { resolveRoute } from "../../src/http/routes/route.ts";
import { ExactPaths } from "../../src/http/routes/exact-paths.ts";

const handler = (name: string) => Object.assign((_req: unknown, res: express.Response) => void res.json({ name }), { label: name });

describe("exact paths", () => {
  it("keeps a parameterless path only when no route declared before it matches it", () => {
    const t = new ExactPaths();
    t.add("get", "/api/v1/things/:id", [handler("by id")]);
    t.add("get", "/api/v1/things/mine", [handler("mine, shadowed")]);
    t.add("get", "/api/v1/others/mine", [handler("mine")]);
    t.add("get", "/api/v1/others/:id", [handler("by id, later")]);
    t.add("post", "/api/v1/things/mine", [handler("post mine")]);
    t.add("get", "/api/v1/others/mine", [handler("declared twice: the first wins")]);
    expect(t.lookup("GET", "/api/v1/things/mine")).toBeUndefined();
    expect((t.lookup("GET", "/api/v1/others/mine")?.[0] as any).label).toBe("mine");
    expect((t.lookup("POST", "/api/v1/things/mine")?.[0] as any).label).toBe("post mine");
    expect(t.lookup("GET", "/api/v1/others/12")).toBeUndefined(); // parameters go through Express
    // another case or a trailing slash: Express's own walk (case-insensitive, trailing slash allowed) decides
    expect(t.lookup("GET", "/API/v1/others/mine")).toBeUndefined();
    expect(t.lookup("GET", "/api/v1/others/mine/")).toBeUndefined();
    expect(t.lookup("HEAD", "/api/v1/others/mine")).toBeUndefined();
  });

  it("a trailing slash or another case in an earlier pattern shadows as Express matches", () => {
    const t = new ExactPaths();
    t.add("get", "/api/v1/Things/:id/", [handler("by id")]);
    t.add("get", "/api/v1/things/mine", [handler("mine")]);
    expect(t.lookup("GET", "/api/v1/things/mine")).toBeUndefined();
  });

  it("an earlier parameterless path shadows one that differs from it only in case or a trailing slash", () => {
    const t = new ExactPaths();
    t.add("get", "/API/v1/Plain/", [handler("first")]);
    t.add("get", "/api/v1/plain", [handler("same but for case and slash")]);
    t.add("get", "/api/v1/plain/", [handler("with the slash")]);
    t.add("get", "/api/v1/plain//", [handler("two slashes: not matched by the first")]);
    t.add("post", "/api/v1/plain", [handler("another method")]);
    expect((t.lookup("GET", "/API/v1/Plain/")?.[0] as any).label).toBe("first");
    expect(t.lookup("GET", "/api/v1/plain")).toBeUndefined();
    expect(t.lookup("GET", "/api/v1/plain/")).toBeUndefined();
    expect((t.lookup("GET", "/api/v1/plain//")?.[0] as any).label).toBe("two slashes: not matched by the first");
    expect((t.lookup("POST", "/api/v1/plain")?.[0] as any).label).toBe("another method");
  });

  it("in a router, runs the route's handlers in order, errors and rejections to the error handler", async () => {
    const router = express.Router();
    const t = new ExactPaths();
    router.use(t.middleware());
    const steps: string[] = [];
    const first: express.RequestHandler = (_req, _res, next) => void (steps.push("first"), next());
    const answer: express.RequestHandler = (req, res) => void (steps.push("answer"), res.json({ params: req.params }));
    const fails: express.RequestHandler = async () => {
      throw new Error("boom");
    };
    for (const [path, hs] of [["/a", [first, answer]], ["/b", [first, fails]]] as const) {
      router.get(path, ...hs);
      t.add("get", path, [...hs]);
    }
    const app = express();
    app.use(router);
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).json({ error: err.message }));
    const server = app.listen(0);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      expect(await (await fetch(`${base}/a`)).json()).toEqual({ params: {} });
      expect(steps).toEqual(["first", "answer"]);
      const b = await fetch(`${base}/b`);
      expect(b.status).toBe(500);
      expect(await b.json()).toEqual({ error: "boom" });
      expect(t.size).toBe(2);
    } finally {
      server.close();
    }
  });

  it("the server's own routes: most parameterless paths are in the table, and none an earlier route would take", () => {
    const t = new ExactPaths();
    const declared: { method: string; path: string }[] = [];
    for (const r of allRoutes) {
      const def = resolveRoute(r, "ext", "own");
      for (const path of def.paths) {
        t.add(def.method, path, [handler(`${def.method} ${path}`)]);
        declared.push({ method: def.method.toUpperCase(), path });
      }
    }
    for (const p of ["/api/v1/timelines/home", "/api/v1/timelines/public", "/api/v1/notifications", "/api/v1/accounts/verify_credentials", "/api/v2/search", "/api/v1/statuses"]) {
      const method = p === "/api/v1/statuses" ? "POST" : "GET";
      expect((t.lookup(method, p)?.[0] as any)?.label, p).toBe(`${method} ${p}`);
    }
    expect(t.size).toBeGreaterThan(250);
  });
});
