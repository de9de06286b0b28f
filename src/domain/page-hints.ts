// What the last page of a list showed (a timeline's statuses and accounts, a notification page's accounts), by
// list, per database: the ids a page read in ONE statement asks the caches about before that statement runs,
// since its own rows are not known yet (status-data.ts loadPageWithStatusData, notifications.ops.ts). A guess,
// never trusted: what the caches hold of these ids is left out of the statement, what they lack (or the page
// did not show last time) the statement reads.
import type { Ctx } from "./context.ts";

const MAX_LISTS = 10_000;
const byDb = new WeakMap<object, Map<string, unknown>>();

function hints(ctx: Pick<Ctx, "db">): Map<string, unknown> {
  let map = byDb.get(ctx.db);
  if (!map) byDb.set(ctx.db, (map = new Map()));
  return map;
}

/** The ids the last page of list `key` showed, as `rememberPage` was given them. */
export function lastPage<T>(ctx: Pick<Ctx, "db">, key: string): T | undefined {
  return hints(ctx).get(key) as T | undefined;
}

export function rememberPage<T>(ctx: Pick<Ctx, "db">, key: string, shown: T): void {
  const map = hints(ctx);
  if (map.size >= MAX_LISTS && !map.has(key)) map.clear();
  map.set(key, shown);
}
