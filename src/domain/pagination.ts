// Keyset paging over time-ordered string ids, as the reference API pages every list:
// max_id (older than), since_id (newer than, newest first), min_id (just after, oldest first).
import { z } from "zod";

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
