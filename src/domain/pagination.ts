// Keyset paging over time-ordered string ids, as the reference API pages every list:
// max_id (older than), since_id (newer than, newest first), min_id (just after, oldest first).
import { z } from "zod";
import { Prisma } from "../generated/prisma/client.ts";

export const pageInput = z.object({
  max_id: z.string().optional(),
  since_id: z.string().optional(),
  min_id: z.string().optional(),
  limit: z.coerce.number().int().optional(),
});
export type PageInput = z.output<typeof pageInput>;

export interface Page<T> {
  items: T[];
  /** cursors of the first and last item (the Link header's min_id / max_id) */
  first?: string;
  last?: string;
}

/** Prisma `where`, `orderBy` and `take` for a cursor column; call `finish` on the rows. */
export function keyset(page: PageInput, opts: { defaultLimit?: number; maxLimit?: number } = {}) {
  const take = Math.min(Math.max(page.limit ?? opts.defaultLimit ?? 20, 1), opts.maxLimit ?? 40);
  const bound: { lt?: string; gt?: string } = {};
  if (page.max_id) bound.lt = page.max_id;
  if (page.min_id) bound.gt = page.min_id;
  else if (page.since_id) bound.gt = page.since_id;
  const ascending = !!page.min_id; // min_id pages forward from the cursor, then shows newest first
  return {
    cursor: Object.keys(bound).length ? bound : undefined,
    order: (ascending ? "asc" : "desc") as "asc" | "desc",
    take,
    finish<T>(rows: T[], cursorOf: (row: T) => string): Page<T> {
      const items = ascending ? [...rows].reverse() : rows;
      return { items, first: items.length ? cursorOf(items[0]) : undefined, last: items.length ? cursorOf(items[items.length - 1]) : undefined };
    },
  };
}

/**
 * A page size for a hand-written page statement, written into its text rather than bound: PostgreSQL
 * estimates a generic plan's `LIMIT $n` as a tenth of the rows, so it keeps planning the named statement
 * again for every request (≈ 1 ms more PostgreSQL CPU per home page than the generic plan it settles on
 * with the number written; docs/performance.md, "Eighth round"). keyset() clamps `take` to 1…40 (or its
 * route's maximum), so a statement gets at most that many texts.
 */
export function limitSql(take: number): Prisma.Sql {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`bad page size ${take}`);
  return Prisma.raw(String(take));
}
