// Rewrites relative import specifiers after files were moved with `git mv` (scripts/dev/move-layers.sh).
// Usage: node scripts/dev/rewrite-imports.mjs old1=new1 old2=new2 ...   (repository-relative paths; a pair
// ending in "/" moves a whole folder)
// A specifier that resolves to an existing file from where its file is now is left alone, so running it
// again (or on files merged in later, written against the old paths) changes only what is broken. Otherwise
// it is resolved from where the file was, mapped through the moves and written relative to where it is.
// Repository paths in comments and docs (`src/http/routes/route.ts`) are replaced too.
import fs from "node:fs";
import path from "node:path";

const moves = process.argv.slice(2).map((pair) => pair.split("="));
/** `p` through the pairs, `[from, to]` or `[to, from]` (a folder pair maps everything under it) */
function mapPath(p, forward = true) {
  for (const pair of moves) {
    const [a, b] = forward ? pair : [pair[1], pair[0]];
    if (p === a) return b;
    if (a.endsWith("/") && p.startsWith(a)) return b + p.slice(a.length);
  }
  return p;
}
const SOURCE_DIRS = ["src", "compat-rest", "test", "scripts", "web-admin/src", "docs"];
const ROOT_FILES = ["vitest.config.ts", "prisma.config.ts", "README.md"];

function files(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || p === "src/generated" ? [] : files(p);
    return /\.(ts|tsx|mts|mjs|js|md)$/.test(e.name) ? [p] : [];
  });
}

const IMPORT = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)(["'])(\.\.?\/[^"'\n]+)\2/g;
const relative = (fromDir, target) => {
  const r = path.posix.relative(fromDir, target);
  return r.startsWith(".") ? r : `./${r}`;
};
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const literal = moves.map(([from, to]) => [new RegExp(`(?<![\\w./-])${escape(from)}${from.endsWith("/") ? "" : "(?![\\w-])"}`, "g"), to]);

let changed = 0;
for (const file of [...SOURCE_DIRS.flatMap(files), ...ROOT_FILES.filter((f) => fs.existsSync(f))]) {
  const before = fs.readFileSync(file, "utf8");
  const was = mapPath(file, false);
  let text = before.replace(IMPORT, (all, lead, quote, spec) => {
    if (fs.existsSync(path.posix.join(path.posix.dirname(file), spec))) return all;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(was), spec));
    const now = mapPath(target);
    // not ours to fix (tsc will say), unless it is generated code not generated yet (node scripts/generate.mjs)
    if (!fs.existsSync(now) && !now.startsWith("src/generated/")) return all;
    return `${lead}${quote}${relative(path.posix.dirname(file), now)}${quote}`;
  });
  for (const [pattern, to] of literal) text = text.replace(pattern, to);
  if (text !== before) {
    fs.writeFileSync(file, text);
    changed++;
  }
}
console.log(`rewrote imports and paths in ${changed} files`);
