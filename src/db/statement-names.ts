// Names for the statements the app sends often, so that `pg` prepares each once per connection and
// PostgreSQL keeps its plan (docs/performance.md, "Named prepared statements"). adapter-pg sends every
// statement unnamed by default: PostgreSQL then parses and plans it again on every request, and for the
// big statements (a timeline page's ids, the status data of a page) planning costs as much as executing.
// A statement gets a name once its exact text has been seen HOT times, and at most MAX texts get one:
// each named statement stays prepared on each pooled connection for the connection's life (pg never
// deallocates), so the set must stay small and made of the texts that repeat, not of one-off texts
// (IN lists of every length, searches).
import { createHash } from "node:crypto";

const HOT = 3;
const MAX = 300;
/** texts counted but not (yet) hot; cleared when it grows past this, so one-off texts cannot accumulate */
const MAX_COUNTED = 5_000;
/** only plain data statements: transaction control and the rest stay unnamed */
const PREPARABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;

export function statementNameGenerator(): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  const counted = new Map<string, number>();
  return (query) => {
    const known = names.get(query.sql);
    if (known !== undefined) return known;
    // undefined is what adapter-pg passes when it has no generator: an unnamed statement
    const unnamed = undefined as unknown as string;
    if (names.size >= MAX || !PREPARABLE.test(query.sql)) return unnamed;
    const seen = (counted.get(query.sql) ?? 0) + 1;
    if (seen < HOT) {
      if (counted.size >= MAX_COUNTED) counted.clear();
      counted.set(query.sql, seen);
      return unnamed;
    }
    counted.delete(query.sql);
    const name = `s_${createHash("sha1").update(query.sql).digest("base64url")}`;
    names.set(query.sql, name);
    return name;
  };
}
