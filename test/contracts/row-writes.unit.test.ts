// The row caches (src/domain/row-caches.ts) hear of every model write to accounts, tokens, apps and
// follows through the Prisma extension (src/db/row-writes.ts); raw SQL passes it by. So every raw
// statement that writes those tables must announce itself (`announceRowWrites`) in the same function:
// one that does not would let a suspended account or a revoked token be served from the cache, or a
// follower count stay wrong for a minute. An INSERT into follows too: a new follow changes two counts.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : sources(p);
    return e.name.endsWith(".ts") ? [p] : [];
  });
}

// and the rows only some accounts' pages depend on (blocks and mutes, domain blocks, thread mutes, filters, lists:
// src/http/routes/page-cache.ts), whose new rows change those pages as a new follow changes counts
const RAW_WRITE = /\b(UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+"?(accounts|oauth_tokens|oauth_apps|follows|user_relationships|domain_blocks|thread_mutes|filters|lists)\b/gi;
const NEW_ROWS_MATTER = new Set(["follows", "user_relationships", "domain_blocks", "thread_mutes", "filters", "lists"]);

test("every raw SQL write to accounts, oauth_tokens, oauth_apps, follows and the viewer-state tables in src/ announces itself (announceRowWrites)", () => {
  const problems: string[] = [];
  let writes = 0;
  for (const file of sources(path.join(root, "src"))) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(RAW_WRITE)) {
      // a new row cannot be cached yet: inserts without ON CONFLICT need no announcement
      const statementEnd = text.indexOf("`", m.index);
      if (/^INSERT/i.test(m[1]!) && !NEW_ROWS_MATTER.has(m[2]!.toLowerCase()) && !/ON\s+CONFLICT/i.test(text.slice(m.index, statementEnd))) continue;
      writes++;
      // the announcement follows within the function: before the next top-level declaration
      const rest = text.slice(m.index);
      const end = rest.search(/\n(export |async function |function |const [A-Za-z]+ = )/);
      if (!/announceRowWrites\(/.test(end < 0 ? rest : rest.slice(0, end))) {
        problems.push(`${path.relative(root, file)}:${text.slice(0, m.index).split("\n").length}: ${m[0]}`);
      }
    }
  }
  expect(writes).toBeGreaterThanOrEqual(3); // second-factor.ts (2), app-settings.ops.ts
  expect(problems).toEqual([]);
});
