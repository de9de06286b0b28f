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

  it("a path with parameters goes to the first declared pattern that matches it, with its parameters decoded", () => {
    const t = new ExactPaths();
    t.add("get", "/api/v1/things/:id", [handler("by id")]);
    t.add("get", "/api/v1/things/:other", [handler("never: the first takes it")]);
    t.add("get", "/api/v1/things/:id/more", [handler("more")]);
    t.add("get", "/api/v1/Plain", [handler("plain")]);
    t.add("get", "/api/v1/:word", [handler("a word")]);
    const hit = t.lookupPattern("GET", "/api/v1/things/a%20b");
    expect([(hit?.handlers[0] as any).label, hit?.params]).toEqual(["by id", { id: "a b" }]);
    expect((t.lookupPattern("GET", "/API/V1/THINGS/7/MORE")?.handlers[0] as any).label).toBe("more");
    expect(t.lookupPattern("GET", "/api/v1/plain"), "a parameterless route matches it: Express decides").toBeUndefined();
    expect((t.lookupPattern("GET", "/api/v1/other")?.handlers[0] as any).label).toBe("a word");
    expect(t.lookupPattern("GET", "/api/v1/things/%E0%A4%A"), "undecodable: Express answers 400").toBeUndefined();
    expect(t.lookupPattern("POST", "/api/v1/things/7"), "another method").toBeUndefined();
  });

  it("paths with parameters: for every route of the server, the route and parameters Express itself chooses", async () => {
    // two routers with every declared route in order, each answering which route took the request and its
    // parameters: Express alone, and the table in front of Express
    const apps = [false, true].map((withTable) => {
      const router = express.Router();
      const t = new ExactPaths();
      if (withTable) router.use(t.middleware());
      for (const r of allRoutes) {
        const def = resolveRoute(r, "ext", "own");
        const method = def.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
        for (const path of def.paths) {
          const hs = [(req: express.Request, res: express.Response) => void res.json({ route: `${def.method} ${path}`, params: { ...req.params } })];
          router[method](path, ...hs);
          t.add(def.method, path, hs);
        }
      }
      const app = express();
      app.use(router);
      app.use((err: Error & { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(err.status ?? 500).json({ error: err.message }));
      return { app, table: t };
    });
    const requests = new Set<string>();
    for (const r of allRoutes) {
      const def = resolveRoute(r, "ext", "own");
      for (const path of def.paths) {
        // a parameterless path in another case or with a slash: a pattern may match it too, and Express takes
        // whichever was declared first (verify_credentials before accounts/:id)
        if (!path.includes(":")) {
          for (const p of [path.toUpperCase(), `${path}/`]) requests.add(`${def.method} ${p}`);
          continue;
        }
        const sample = path.replace(/:(\w+)/g, (_m, name: string) => `${name}1`);
        for (const p of [sample, sample.toUpperCase(), `${sample}/`, path.replace(/:(\w+)/g, "a%20b%C3%A9"), path.replace(/:(\w+)/g, "bad%E0%A4%A")])
          requests.add(`${def.method} ${p}`);
      }
    }
    expect(apps[1]!.table.lookupPattern("GET", "/api/v1/statuses/123/context")?.params).toEqual({ id: "123" });
    expect(apps[1]!.table.lookupPattern("GET", "/API/V1/ACCOUNTS/VERIFY_CREDENTIALS"), "a parameterless route matches it too").toBeUndefined();
    const servers = apps.map(({ app }) => app.listen(0));
    const bases = servers.map((s) => `http://127.0.0.1:${(s.address() as { port: number }).port}`);
    try {
      const differ: string[] = [];
      for (const request of requests) {
        const [method, p] = request.split(" ") as [string, string];
        const [plain, tabled] = await Promise.all(bases.map(async (base) => {
          const r = await fetch(`${base}${p}`, { method });
          return `${r.status} ${await r.text()}`;
        }));
        if (plain !== tabled) differ.push(`${request}: Express ${plain} | table ${tabled}`);
      }
      expect(requests.size).toBeGreaterThan(700);
      expect(differ).toEqual([]);
    } finally {
      for (const s of servers) s.close();
    }
  }, 60_000);
});
