// Per-request batch loaders: rendering a list costs a constant number of queries.
import DataLoader from "dataloader";
import type { Db } from "../db/client.ts";
import type { Account } from "../generated/prisma/client.ts";

export type Loaders = ReturnType<typeof createLoaders>;

function byId<T extends { id: K }, K>(keys: readonly K[], rows: T[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return keys.map((k) => map.get(k) ?? null);
}

export function createLoaders(db: Db) {
  return {
    account: new DataLoader<string, Account | null>(async (ids) => byId(ids, await db.account.findMany({ where: { id: { in: [...ids] } } }))),
  };
}
