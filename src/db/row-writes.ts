// Announces every write to the rows a request's viewer is made of: accounts, OAuth tokens and OAuth
// apps (the token cache, src/domain/auth/token-cache.ts, drops what they change).
//
// Why here, as a Prisma query extension, and not at the ~50 places that write those rows: a write site
// that forgot its announcement would let a revoked token or a suspended account keep working, and
// nothing would show it. Every model write of the app goes through this client, so none can be
// missed, whoever adds one later. What the extension cannot see, and how it is covered:
// - raw SQL writes ($executeRaw/$queryRaw, src/db/sql.ts): each one announces itself through
//   `announceRowWrites`; test/contracts/row-writes.test.ts fails on a raw write to these tables
//   that does not;
// - rows changed by the database itself: deleting an account or an app deletes its tokens (the
//   account's/app's own announcement covers them); deleting an account nulls `moved_to_id` of the
//   accounts that moved to it and `owner_id` of its apps (the cache drops entries by those too);
// - rows inserted through the driver (model-rows.ts insertModelRow): a new row is in no cache;
// - nested writes (`status.create({ data: { account: { update } } })`) would pass by: there are none,
//   and the model's own hook names its rows when the write is written on the model itself;
// - writes by other programs (psql, scripts): nothing announces them; the cache's short lifetime
//   bounds how long they go unseen.
// The announcement follows the commit: a write inside a transaction is announced when the
// transaction settles (AsyncLocalStorage finds it), since announcing earlier would let a read that
// starts between the write and the commit store the old row.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaClient } from "../generated/prisma/client.ts";

/** What changed: keys `a:<account id>`, `t:<token id>`, `p:<app id>`, or everything (a write whose rows cannot be named). */
export type RowWrites = { keys: string[] } | { all: true };

type Listener = (writes: RowWrites) => void;

const listeners = new WeakMap<object, Set<Listener>>();
/** a transaction's writes until it settles; `open` false once it has (work it started may still write) */
const pending = new AsyncLocalStorage<{ writes: RowWrites[]; open: boolean }>();

const WRITES = new Set(["update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);
const MODELS: Record<string, { prefix: string; byAccount?: boolean; byApp?: boolean }> = {
  Account: { prefix: "a" },
  OAuthToken: { prefix: "t", byAccount: true, byApp: true },
  OAuthApp: { prefix: "p" },
};

type Where = Record<string, unknown> | undefined;

/** The ids a `where` names (`id: x`, `id: {in: [...]}`), or null when it names rows some other way. */
function idsOf(where: Where, field: string): string[] | null {
  const v = where?.[field];
  if (typeof v === "string" || typeof v === "number") return [String(v)];
  if (v && typeof v === "object" && Array.isArray((v as { in?: unknown }).in)) return (v as { in: unknown[] }).in.map(String);
  return null;
}

function keysOf(model: string, where: Where, result: unknown): RowWrites {
  const m = MODELS[model];
  const ids = idsOf(where, "id");
  if (ids) return { keys: ids.map((id) => `${m.prefix}:${id}`) };
  if (m.byAccount) {
    const accounts = idsOf(where, "accountId");
    if (accounts) return { keys: accounts.map((id) => `a:${id}`) };
  }
  if (m.byApp) {
    const apps = idsOf(where, "appId");
    if (apps) return { keys: apps.map((id) => `p:${id}`) };
  }
  // a single-row write by another unique field (an account by apId or nickname): its result has the id
  const rows = Array.isArray(result) ? result : [result];
  if (rows.every((r) => r && typeof r === "object" && "id" in r)) return { keys: rows.map((r) => `${m.prefix}:${(r as { id: unknown }).id}`) };
  return { all: true };
}

function tell(client: object, writes: RowWrites) {
  if ("keys" in writes && writes.keys.length === 0) return;
  const transaction = pending.getStore();
  if (transaction?.open) return void transaction.writes.push(writes);
  for (const l of listeners.get(client) ?? []) l(writes);
}

/**
 * Announces writes done in raw SQL (which the extension does not see): `ids` of the `table`'s rows, or
 * all rows. Call it after the statement; inside a transaction it waits for the commit like the rest.
 */
export function announceRowWrites(db: object, table: "accounts" | "oauth_tokens" | "oauth_apps", ids: (string | number)[] | "all"): void {
  const prefix = { accounts: "a", oauth_tokens: "t", oauth_apps: "p" }[table];
  tell(db, ids === "all" ? { all: true } : { keys: ids.map((id) => `${prefix}:${id}`) });
}

/** Calls `listener` after every committed write to accounts, tokens and apps through `db`, until the returned function is called. */
export function onRowWrites(db: object, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** `prisma` with the announcements. Only query hooks: the client's types are unchanged, hence the cast. */
export function announcingWrites(prisma: PrismaClient): PrismaClient {
  let client: PrismaClient;
  const hook = async ({ model, operation, args, query }: { model: string; operation: string; args: unknown; query: (args: unknown) => Promise<unknown> }) => {
    if (!WRITES.has(operation)) return query(args);
    const result = await query(args);
    // nothing changed, nothing to drop (last-activity.ts's conditional update mostly changes nothing)
    if ((operation === "updateMany" || operation === "deleteMany") && (result as { count?: number })?.count === 0) return result;
    tell(client, keysOf(model, (args as { where?: Where })?.where, result));
    return result;
  };
  const extended = prisma.$extends({
    name: "row-writes",
    query: { account: { $allOperations: hook }, oAuthToken: { $allOperations: hook }, oAuthApp: { $allOperations: hook } },
  }) as unknown as PrismaClient;
  // a transaction's writes are announced once it has settled (committed, or rolled back: then harmlessly)
  const transaction = extended.$transaction.bind(extended) as (...args: unknown[]) => Promise<unknown>;
  const settled = async (run: () => Promise<unknown>) => {
    const transaction = { writes: [] as RowWrites[], open: true };
    try {
      return await pending.run(transaction, run);
    } finally {
      transaction.open = false;
      for (const w of transaction.writes) tell(client, w);
    }
  };
  Object.defineProperty(extended, "$transaction", { value: (...args: unknown[]) => settled(() => transaction(...args)), configurable: true, writable: true });
  client = extended;
  return client;
}
