// Route coverage (issue 18, criterion 3): every route of the family's two servers, with our namespace
// word in place of `pleroma` and our family word in place of `akkoma`, is declared in compat-rest/ or listed with a reason in
// docs/route-exceptions.md; the exception list holds only routes the inventories name and we do not serve.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { allRoutes } from "../../src/routes.ts";
import { pathsOf } from "../../src/http/routes/route.ts";

const NS = "ext";
const FAMILY = "own";
const root = path.resolve(import.meta.dirname, "../..");
const INVENTORIES = ["pleroma-endpoints.tsv", "akkoma-endpoints.tsv"].map((f) => path.resolve(root, "../shared/notes", f));
const EXCEPTIONS = path.join(root, "docs/route-exceptions.md");

/** `METHOD /path` with the family words replaced by ours and parameter names erased. */
function key(method: string, raw: string): string {
  const p = raw
    .split("/")
    .map((segment) => (segment === "pleroma" ? NS : segment === "akkoma" ? FAMILY : segment))
    .join("/")
    .replace(/:[A-Za-z_][A-Za-z0-9_]*/g, ":_")
    .replace(/\*[A-Za-z_]*$/, "*")
    .replace(/(.)\/$/, "$1");
  return `${method.toUpperCase()} ${p}`;
}

interface InventoryRoute {
  key: string;
  line: string;
}

function inventory(): InventoryRoute[] {
  const out: InventoryRoute[] = [];
  for (const file of INVENTORIES) {
    const [, ...rows] = fs.readFileSync(file, "utf8").trim().split("\n");
    for (const line of rows) {
      const [, method, p] = line.split("\t");
      out.push({ key: key(method!, p!), line: `${path.basename(file)}: ${line}` });
    }
  }
  return out;
}

interface Exception {
  key: string;
  kind: string;
  reason: string;
}

function exceptions(): Exception[] {
  const rows = fs
    .readFileSync(EXCEPTIONS, "utf8")
    .split("\n")
    .filter((l) => /^\| [A-Z]+ \| \//.test(l));
  return rows.map((l) => {
    const [method, p, kind, reason] = l.split("|").slice(1, -1).map((c) => c.trim());
    return { key: key(method!, p!), kind: kind!, reason: reason! };
  });
}

const served = new Set(allRoutes.flatMap((r) => pathsOf(r, NS, FAMILY).map((p) => key(r.method, p))));

describe("route coverage against the family's inventories", () => {
  const routes = inventory();
  const excepted = exceptions();

  test("the inventories and the exception list are read", () => {
    expect(routes.length).toBeGreaterThan(600);
    expect(excepted.length).toBeGreaterThan(0);
  });

  test("every inventory route is served or excepted with a reason", () => {
    const known = new Set(excepted.map((e) => e.key));
    const missing = [...new Set(routes.filter((r) => !served.has(r.key) && !known.has(r.key)).map((r) => r.key))];
    expect(missing, `neither served nor in docs/route-exceptions.md:\n${missing.join("\n")}`).toEqual([]);
  });

  test("each exception has a kind and a reason, names an inventory route, is listed once, and is not served", () => {
    const kinds = new Set(["federation", "reference", "pages", "development", "not offered", "elsewhere", "backlog"]);
    const inInventory = new Set(routes.map((r) => r.key));
    const seen = new Set<string>();
    for (const e of excepted) {
      expect(kinds.has(e.kind), `${e.key}: unknown kind ${e.kind}`).toBe(true);
      expect(e.reason.length, `${e.key}: no reason`).toBeGreaterThan(5);
      expect(inInventory.has(e.key), `${e.key}: in no inventory`).toBe(true);
      expect(served.has(e.key), `${e.key}: served now, remove it from the exceptions`).toBe(false);
      expect(seen.has(e.key), `${e.key}: listed twice`).toBe(false);
      seen.add(e.key);
    }
  });

  test("routes the issue names as missing are served", () => {
    for (const [method, p] of [
      ["GET", "/api/pleroma/frontend_configurations"],
      ["GET", "/api/v1/timelines/direct"],
      ["GET", "/api/v1/pleroma/apps"],
      ["GET", "/manifest.json"],
      ["GET", "/api/v1/pleroma/settings/:app"],
      ["PATCH", "/api/v1/pleroma/settings/:app"],
      ["GET", "/api/v1/pleroma/federation_status"],
      ["GET", "/api/v1/pleroma/bookmark_folders"],
      ["POST", "/api/v1/pleroma/bookmark_folders"],
      ["PATCH", "/api/v1/pleroma/bookmark_folders/:id"],
      ["DELETE", "/api/v1/pleroma/bookmark_folders/:id"],
      ["POST", "/api/v1/pleroma/scrobble"],
      ["GET", "/api/v1/pleroma/accounts/:id/scrobbles"],
      ["GET", "/api/v1/pleroma/birthdays"],
      ["GET", "/api/v1/pleroma/statuses/:id/quotes"],
      ["GET", "/api/v1/pleroma/admin/rules"],
      ["POST", "/api/v1/pleroma/admin/rules"],
      ["PATCH", "/api/v1/pleroma/admin/rules/:id"],
      ["DELETE", "/api/v1/pleroma/admin/rules/:id"],
    ] as const)
      expect(served.has(key(method, p)), `${method} ${p}`).toBe(true);
  });
});
