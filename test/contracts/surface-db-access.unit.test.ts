// Issue 20: surfaces read no database. REST (compat-rest/), GraphQL (src/graphql/), tRPC (src/trpc/) and
// the realtime bus (src/realtime/) get their data from domain operations, domain reads and the
// per-request loaders (src/domain/loaders.ts), never from the database client: a rule about what is
// read, and how many statements a list costs, then lives in src/domain only, for every surface.
// This scans their sources for the client's use and names file and line of each.
//
// Allowed: `import type` of the generated Prisma types (rows are the domain's currency: views take
// `Account`, `Status`, ...). Not allowed: a value import of the generated client (`Prisma.sql`, enums
// are fine through the domain), anything from src/db/, `.db.` / `ctx.db` / `services.db`, a destructured
// `db`, `db.$...`, raw SQL, and Pothos-Prisma relation fields (the plugin would query by itself).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SURFACES = ["compat-rest", "src/graphql", "src/trpc", "src/realtime"];

/** Reviewed uses that stay, with why: `file: matched text`. */
const REVIEWED: Record<string, string> = {
  "src/graphql/builder.ts: ctx.db": "Pothos's Prisma plugin is handed the client at set-up; no field uses t.relation & co. (checked here), so it never queries",
};

/**
 * TEMPORARY, whole files: remove each entry once its branch has landed (the test fails on an entry
 * that no longer matches anything, to say so).
 */
const TEMPORARY: Record<string, string> = {
};

interface Rule {
  name: string;
  pattern: RegExp;
}

/** Per line (comments skipped). */
const LINE_RULES: Rule[] = [
  { name: "the database client (`.db.`, `ctx.db`, `services.db`)", pattern: /\.db\s*\??\.|\b(?:ctx|services|context)\.db\b/ },
  { name: "a destructured `db`", pattern: /\{[^{}]*(?<!\.)\bdb\b(?!\s*:)[^{}]*\}\s*(?::[^=]*)?=(?!>)|\(\s*\{[^{}]*(?<!\.)\bdb\b(?!\s*:)[^{}]*\}/ },
  { name: "the client's own methods (`db.$...`)", pattern: /\bdb\s*\.\s*\$\w+/ },
  { name: "raw SQL", pattern: /\$(?:queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)\b|\bPrisma\.(?:sql|raw|join|empty)\b/ },
  { name: "a client constructor", pattern: /\bnew\s+(?:PrismaClient|PrismaPg|PrismaPGlite|PGlite)\b/ },
  { name: "a Pothos-Prisma relation field (the plugin queries by itself)", pattern: /\bt\.(?:relation|relatedConnection|relationCount)\s*\(/ },
];

const IMPORT = /(?:import|export)\s+(type\s+)?([\w\s{},*$]+?)\s+from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Imports: nothing from src/db/ or the Prisma runtime; the generated client for its types only. */
function importViolation(typeOnly: boolean, names: string, from: string): string | null {
  if (/(?:^|\/)db\/[^/]+$/.test(from) || from.startsWith("@prisma/") || from === "@electric-sql/pglite" || from === "pglite-prisma-adapter") return `an import of the database layer (${from})`;
  if (/generated\/prisma\//.test(from) && !typeOnly) {
    const specifiers = names.replace(/^\{|\}$/g, "").split(",").map((s) => s.trim()).filter(Boolean);
    const values = names.trim().startsWith("{") ? specifiers.filter((s) => !s.startsWith("type ")) : [names.trim()];
    if (values.length) return `a value import of the Prisma client (${values.join(", ")}; \`import type\` is fine)`;
  }
  return null;
}

interface Violation {
  line: number;
  rule: string;
  text: string;
}

function violations(source: string): Violation[] {
  const out: Violation[] = [];
  const lines = source.split("\n");
  const lineOf = (index: number) => source.slice(0, index).split("\n").length;
  for (const m of source.matchAll(IMPORT)) {
    const why = m[4] ? importViolation(false, "*", m[4]) : importViolation(!!m[1], m[2], m[3]);
    if (why) out.push({ line: lineOf(m.index!), rule: why, text: m[0].replace(/\s+/g, " ") });
  }
  let inBlockComment = false;
  lines.forEach((raw, i) => {
    const text = raw.trim();
    if (inBlockComment || text.startsWith("/*")) {
      inBlockComment = !text.includes("*/");
      return;
    }
    if (text.startsWith("//") || text.startsWith("*")) return;
    for (const rule of LINE_RULES) {
      const m = text.match(rule.pattern);
      if (m) out.push({ line: i + 1, rule: rule.name, text: m[0] });
    }
  });
  return out.sort((a, b) => a.line - b.line);
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(?:ts|tsx|mts)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

describe("the scanner", () => {
  test("finds each way of reaching the database", () => {
    const planted = [
      'import { Prisma } from "../generated/prisma/client.ts";',
      'import { type Account, Status } from "../../src/generated/prisma/client.ts";',
      'import { sql } from "../../src/db/sql.ts";',
      'import type { Db } from "../db/client.ts";',
      "const rows = await ctx.db.account.findMany({});",
      "const n = await services.db.status.count();",
      "await load(ctx.db, ids);",
      "const { db, clock } = ctx;",
      "async function f({ db }: Services) {}",
      "await db.$queryRaw`SELECT 1`;",
      "const q = Prisma.sql`SELECT 1`;",
      "const client = new PrismaClient();",
      "account: t.relation('account'),",
    ];
    expect(planted.filter((line) => violations(line).length === 0)).toEqual([]);
  });

  test("leaves alone what is not the client", () => {
    const fine = [
      'import type { Account, Status } from "../generated/prisma/client.ts";',
      'import { type Account, type Status } from "../generated/prisma/client.ts";',
      'import { getRefFromModel } from "@pothos/plugin-prisma";',
      'db: t.stringList({ nullable: true, resolve: (c) => c.db ?? null }),',
      '"db.vacuum": (ctx, input) => vacuumDatabase(ctx, input),',
      "// ctx.db.account.findMany() in a comment",
      "const account = await ctx.loaders.account.load(id);",
    ];
    expect(fine.flatMap((line) => violations(line).map((v) => `${line} → ${v.rule}`))).toEqual([]);
  });
});

describe("surfaces get their data from the domain", () => {
  const files = SURFACES.flatMap(sourceFiles);
  const found = files.flatMap((file) => violations(fs.readFileSync(path.join(ROOT, file), "utf8")).map((v) => ({ file, ...v })));

  test("no surface uses the database client", () => {
    const offending = found
      .filter((v) => !(v.file in TEMPORARY) && !(`${v.file}: ${v.text}` in REVIEWED))
      .map((v) => `${v.file}:${v.line}: ${v.rule}: ${v.text}`);
    expect(
      offending,
      "surfaces read through src/domain (an operation, a *.read.ts function, or a loader in src/domain/loaders.ts), not the database client:\n" + offending.join("\n"),
    ).toEqual([]);
  });

  test("every allowance is still needed", () => {
    const stale = [
      ...Object.keys(REVIEWED).filter((key) => !found.some((v) => `${v.file}: ${v.text}` === key)),
      ...Object.keys(TEMPORARY).filter((file) => !found.some((v) => v.file === file)),
    ];
    expect(stale, "remove these allowances from test/contracts/surface-db-access.unit.test.ts: nothing matches them any more").toEqual([]);
  });
});
