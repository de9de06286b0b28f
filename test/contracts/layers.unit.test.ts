// The layers of the server (issue 20, criteria 5 and 6): no import cycles, no upward imports, surfaces
// independent of one another, a domain that knows nothing of HTTP or GraphQL, and docs/development.md's
// picture naming the same layers as LAYERS below (the one list of them).
//
// The import graph is read with the TypeScript parser we already depend on, not with madge or
// dependency-cruiser: the scan is about 60 lines, sees `import type` per specifier (a type-only import loads nothing,
// so it cannot make a load-order cycle), and needs no resolver set-up for our `.ts` specifiers.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Bottom to top: a file may import its own layer and the layers below it. Longest path prefix wins. */
const LAYERS = [
  { name: "kernel", paths: ["src/kernel/", "src/generated/", "src/project-root.ts"] },
  { name: "infrastructure", paths: ["src/config/", "src/db/", "src/net/", "src/mail/", "src/media/", "src/jobs/", "src/realtime/"] },
  { name: "domain", paths: ["src/domain/"] },
  { name: "views", paths: ["src/views/"] },
  { name: "http", paths: ["src/http/"] },
  // each surface is its own island: one surface never imports another
  { name: "surfaces", paths: ["compat-rest/", "src/graphql/", "src/trpc/", "src/federation/", "src/cli/"], islands: true },
  { name: "composition", paths: ["src/server.ts", "src/main.ts", "src/routes.ts", "src/jobs/all.ts"] },
] as const;

/** Packages of the transports: the domain (and what it stands on) never names them. */
const TRANSPORT_PACKAGES = /^(express|multer|cookie|qs|ws|graphql|graphql-yoga|graphql-ws|@pothos\/.*|@trpc\/.*|@fedify\/.*)$/;

/** Known exceptions, each with its reason; the test fails when one is no longer needed. `from -> to`, a `*` ends a prefix. */
const ALLOWED: Record<string, string> = {
  // the ctl CLI is the tRPC surface's client: it names the router's type and the list of remote operations
  "src/cli/* -> src/trpc/*": "the CLI is a tRPC client",
};

/** The same, for type-only imports only (they load nothing). */
const ALLOWED_TYPES: Record<string, string> = {
  // the context type names the services and the loaders it carries (Db, Bus, JobQueue, Loaders, …)
  "src/kernel/context.ts -> src/*": "the context type",
};

/** Import circles left as they are, each with its reason (sorted file lists, as the cycle test prints them). */
const KNOWN_CYCLES: string[][] = [];

type Layer = (typeof LAYERS)[number];
interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return rel === "src/generated" ? [] : sourceFiles(rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

/** Every import of every source file: relative ones resolved to repository paths, packages by name. */
function imports(files: string[]): Edge[] {
  const edges: Edge[] = [];
  for (const from of files) {
    const source = ts.createSourceFile(from, fs.readFileSync(path.join(root, from), "utf8"), ts.ScriptTarget.Latest);
    const add = (spec: string, typeOnly: boolean) =>
      edges.push({ from, typeOnly, to: spec.startsWith(".") ? path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) : spec });
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const c = node.importClause;
        const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
        const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named?.length && named.every((s) => s.isTypeOnly)));
        add(node.moduleSpecifier.text, typeOnly);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node.isTypeOnly);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        add(node.arguments[0].text, false); // import() loads at run time, but not at load time: no cycle, still a dependency
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        add(node.argument.literal.text, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

function placeOf(file: string): { layer: Layer; index: number; island: string } | null {
  let best: { layer: Layer; index: number; island: string } | null = null;
  let length = -1;
  LAYERS.forEach((layer, index) => {
    for (const p of layer.paths) {
      if ((file === p || file.startsWith(p)) && p.length > length) {
        length = p.length;
        best = { layer, index, island: p };
      }
    }
  });
  return best;
}

/** Strongly connected components of more than one file (Tarjan), each as a sorted list. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return found;
}

const files = [...sourceFiles("src"), ...sourceFiles("compat-rest")];
const edges = imports(files);
const local = edges.filter((e) => !/^[@a-z]/.test(e.to) || e.to.startsWith("src/") || e.to.startsWith("compat-rest/"));
const used = new Set<string>();

const matches = (pattern: string, file: string) => (pattern.endsWith("*") ? file.startsWith(pattern.slice(0, -1)) : file === pattern);

function allowed(e: Edge): boolean {
  const key = [...Object.keys(ALLOWED), ...(e.typeOnly ? Object.keys(ALLOWED_TYPES) : [])].find((k) => {
    const [from, to] = k.split(" -> ");
    return matches(from!, e.from) && matches(to!, e.to);
  });
  if (key) used.add(key);
  return !!key;
}

describe("layers", () => {
  test("every source file belongs to a layer", () => {
    expect(files.filter((f) => !placeOf(f))).toEqual([]);
  });

  test("no import cycles (type-only imports load nothing and are left out)", () => {
    const runtime = local.filter((e) => !e.typeOnly && files.includes(e.to));
    expect(cycles(runtime).map((c) => c.join(", "))).toEqual(KNOWN_CYCLES.map((c) => c.join(", ")));
  });

  test("imports go to the same layer or below, and no surface imports another", () => {
    const wrong: string[] = [];
    for (const e of local) {
      const from = placeOf(e.from);
      const to = placeOf(e.to);
      if (!from || !to) continue;
      const upward = to.index > from.index;
      const crossIsland = from.index === to.index && "islands" in from.layer && from.island !== to.island;
      if ((upward || crossIsland) && !allowed(e))
        wrong.push(`${e.from} (${from.layer.name}) -> ${e.to} (${to.layer.name})${e.typeOnly ? " [type]" : ""}`);
    }
    expect(wrong).toEqual([]);
  });

  test("the domain and what it stands on name no transport package", () => {
    const domainIndex = LAYERS.findIndex((l) => l.name === "domain");
    const wrong = edges
      .filter((e) => TRANSPORT_PACKAGES.test(e.to) && (placeOf(e.from)?.index ?? 99) <= domainIndex)
      .map((e) => `${e.from} -> ${e.to}`);
    expect(wrong).toEqual([]);
  });

  test("every exception is still needed", () => {
    expect([...Object.keys(ALLOWED), ...Object.keys(ALLOWED_TYPES)].filter((k) => !used.has(k))).toEqual([]);
  });

  test("docs/development.md pictures the same layers", () => {
    const doc = fs.readFileSync(path.join(root, "docs/development.md"), "utf8");
    const layout = doc.slice(doc.indexOf("## Layout"), doc.indexOf("\n## ", doc.indexOf("## Layout") + 1));
    const missing: string[] = [];
    for (const layer of LAYERS) {
      if (!layout.includes(layer.name)) missing.push(layer.name);
      for (const p of layer.paths) if (!layout.includes(p.replace(/\/$/, ""))) missing.push(p);
    }
    expect(missing).toEqual([]);
  });
});
