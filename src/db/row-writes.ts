// Announces every write to the rows the per-process caches keep (src/domain/row-caches.ts): accounts,
// OAuth tokens and OAuth apps (a request's viewer: auth/token-cache.ts; the accounts a page shows:
// accounts/account-cache.ts) and follows (the follower and following counts: accounts/count-cache.ts).
//
// Why here, as a Prisma query extension, and not at the ~50 places that write those rows: a write site
// that forgot its announcement would let a revoked token or a suspended account keep working, and
// nothing would show it. Every model write of the app goes through this client, so none can be
// missed, whoever adds one later. What the extension cannot see, and how it is covered:
// - raw SQL writes ($executeRaw/$queryRaw, src/db/sql.ts): each one announces itself through
//   `announceRowWrites`; test/contracts/row-writes.unit.test.ts fails on a raw write to these tables
//   that does not;
// - rows changed by the database itself: deleting an account or an app deletes its tokens (the
//   account's/app's own announcement covers them); deleting an account nulls `moved_to_id` of the
//   accounts that moved to it and `owner_id` of its apps (the caches drop entries by those too), and
//   deletes its follows, whose other ends nothing names: deleting accounts drops every count;
// - rows inserted through the driver (model-rows.ts insertModelRow): a new row is in no cache (none
//   inserts follows, which change counts);
// - nested writes (`status.create({ data: { account: { update } } })`) would pass by: there are none,
//   and the model's own hook names its rows when the write is written on the model itself;
// - writes by other programs (psql, scripts): nothing announces them; the caches' short lifetime
//   bounds how long they go unseen.
// A follow is named by both of its ends (`f:<follower id>`, `f:<following id>`: the counts it changes),
// from the `where` when it pins both ends of every row, else from `data` (creates) or the rows returned;
// a follow write it cannot name drops every count, and only the counts (`{ all: "f" }`). Creates
// matter for follows alone (a new row is in no cache, but a new follow changes two counts), and a
// follow update that sets neither end nor the state (`apId`, `notify`) changes no count: it is silent.
// The announcement follows the commit: a write inside a transaction is announced when the
// transaction settles (AsyncLocalStorage finds it), since announcing earlier would let a read that
// starts between the write and the commit store the old row.
import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaClient } from "../generated/prisma/client.ts";
import type { GenerationalLru } from "../kernel/generational-lru.ts";

/**
 * Whose rows: `a` accounts, `t` tokens, `p` apps, `s` browser sessions (no cache keeps them: the live
 * connections authenticated by one are re-checked, src/domain/auth/credential-watch.ts), `f` an account's counts (its follows, by the accounts at their
 * ends, and its counted statuses), `v` what an account's pages hide or show for it alone (its blocks and mutes,
 * and those of others on it, its domain blocks, thread mutes, filters and lists: src/http/routes/page-cache.ts).
 */
export type RowKind = "a" | "t" | "p" | "s" | "f" | "v";

/**
 * What changed: keys `a:<account id>`, `t:<token id>`, `p:<app id>`, `s:<session id>`, `f:<account id>` (a follow from or
 * to the account, or a counted status of it), or every row of one kind (a write whose rows cannot be named).
 */
export type RowWrites = { keys: string[] } | { all: RowKind };

type Listener = (writes: RowWrites) => void;

/**
 * What a cache of rows of `kinds` drops for `writes`: the keys of those kinds, or everything when every row
 * of one of them changed. `{ all: true }` is what a process of the version before kinds were named sends
 * during a rolling deploy (it meant every row): every cache drops everything for it.
 */
export function dropRowWrites(lru: Pick<GenerationalLru<unknown>, "clear" | "invalidate">, kinds: readonly RowKind[], writes: RowWrites): void {
  if ("all" in writes) {
    if (kinds.includes(writes.all) || (writes.all as unknown) === true) lru.clear();
    return;
  }
  const keys = writes.keys.filter((k) => kinds.includes(k.slice(0, k.indexOf(":")) as RowKind));
  if (keys.length) lru.invalidate(keys);
}

const listeners = new WeakMap<object, Set<Listener>>();
/** a transaction's writes until it settles; `open` false once it has (work it started may still write) */
const pending = new AsyncLocalStorage<{ writes: RowWrites[]; open: boolean }>();

const WRITES = new Set(["update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);
/** a new follow changes counts; a new account, token or app is in no cache */
const CREATES = new Set(["create", "createMany", "createManyAndReturn"]);
const MODELS: Record<string, { prefix: RowKind; byAccount?: boolean; byApp?: boolean }> = {
  Account: { prefix: "a" },
  OAuthToken: { prefix: "t", byAccount: true, byApp: true },
  OAuthApp: { prefix: "p" },
  // deleted by account (sign-out everywhere, deactivation) they are `{ all: "s" }`: the account's own write names it
  Session: { prefix: "s" },
};
/**
 * A viewer's own state, by the fields naming the accounts whose pages a row changes (both ends of a block or
 * mute: a blocked account no longer sees the blocker's statuses either). Writes that name them neither in
 * `where` nor in their data or returned rows drop every page (`{ all: "v" }`).
 */
const VIEWER_STATE: Record<string, readonly string[]> = {
  UserRelationship: ["sourceId", "targetId"],
  DomainBlock: ["accountId"],
  ThreadMute: ["accountId"],
  Filter: ["accountId"],
  List: ["accountId"],
};

/** The values of `field` every row a `where` matches has: the field itself or inside a compound unique key. */
function pinnedValues(where: Where, field: string): string[] | null {
  const direct = idsOf(where, field);
  if (direct) return direct;
  for (const v of Object.values(where ?? {})) if (isObject(v) && (typeof v[field] === "string" || typeof v[field] === "number")) return [String(v[field])];
  return null;
}

function viewerStateWrites(fields: readonly string[], operation: string, args: { where?: Where; data?: unknown }, result: unknown): RowWrites[] {
  const fromWhere = fields.map((f) => pinnedValues(args.where, f));
  const fromRows = (value: unknown) => {
    const rows = Array.isArray(value) ? value : [value];
    return rows.every((r) => isObject(r) && fields.every((f) => r[f] != null)) ? rows.flatMap((r) => fields.map((f) => String((r as Record<string, unknown>)[f]))) : null;
  };
  const ids = fromWhere.every((v) => v !== null) ? (fromWhere as string[][]).flat() : ((CREATES.has(operation) ? fromRows(args.data) : null) ?? fromRows(result));
  return [ids ? { keys: [...new Set(ids)].map((id) => `v:${id}`) } : { all: "v" }];
}

/** what of a follow its counts depend on (account-counts.ts counts accepted follows by their ends) */
const COUNTED = ["followerId", "followingId", "follower", "following", "state"];

type Where = Record<string, unknown> | undefined;

/** The ids a `where` names (`id: x`, `id: {in: [...]}`), or null when it names rows some other way. */
function idsOf(where: Where, field: string): string[] | null {
  const v = where?.[field];
  if (typeof v === "string" || typeof v === "number") return [String(v)];
  if (v && typeof v === "object" && Array.isArray((v as { in?: unknown }).in)) return (v as { in: unknown[] }).in.map(String);
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object";

/**
 * The accounts at the ends of every follow a `where` can match, or null when some row's ends are not
 * pinned (`followerId: x` alone: whom x follows is unknown). Both ends, `followerId_followingId`, or
 * `OR` branches that each pin both (with the fields beside the `OR`, which every row also matches).
 */
function followEnds(where: Where): string[] | null {
  if (!where) return null;
  const pair = where.followerId_followingId;
  if (isObject(pair)) return [String(pair.followerId), String(pair.followingId)];
  const followers = idsOf(where, "followerId");
  const following = idsOf(where, "followingId");
  if (followers && following) return [...followers, ...following];
  const { OR: branches, ...rest } = where;
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const ends = branches.map((b) => (isObject(b) ? followEnds({ ...rest, ...b }) : null));
  return ends.every((e) => e !== null) ? (ends as string[][]).flat() : null;
}

/** The ends of follow rows (a create's `data`, or the rows a write returned), or null if one lacks them. */
function endsOfRows(value: unknown): string[] | null {
  const rows = Array.isArray(value) ? value : [value];
  if (!rows.every((r) => isObject(r) && r.followerId != null && r.followingId != null)) return null;
  return rows.flatMap((r) => [String(r.followerId), String(r.followingId)]);
}

function followWrites(operation: string, args: { where?: Where; data?: unknown; create?: unknown }, result: unknown): RowWrites[] {
  // an update of what no count depends on (the Follow activity's id, notify, show_reblogs)
  const data = args.data;
  if (operation.startsWith("update") && isObject(data) && !COUNTED.some((c) => c in data)) return [];
  const ends = followEnds(args.where) ?? (CREATES.has(operation) ? endsOfRows(data) : null) ?? endsOfRows(result);
  return [ends ? { keys: [...new Set(ends)].map((id) => `f:${id}`) } : { all: "f" }];
}

function keysOf(model: string, operation: string, args: { where?: Where; data?: unknown }, result: unknown): RowWrites[] {
  if (model === "Follow") return followWrites(operation, args, result);
  if (VIEWER_STATE[model]) return viewerStateWrites(VIEWER_STATE[model], operation, args, result);
  if (CREATES.has(operation)) return [];
  const where = args.where;
  const m = MODELS[model];
  // the database deletes a deleted account's follows: their other ends' counts change unnamed
  const cascade: RowWrites[] = model === "Account" && operation.startsWith("delete") ? [{ all: "f" }] : [];
  const ids = idsOf(where, "id");
  if (ids) return [{ keys: ids.map((id) => `${m.prefix}:${id}`) }, ...cascade];
  if (m.byAccount) {
    const accounts = idsOf(where, "accountId");
    if (accounts) return [{ keys: accounts.map((id) => `a:${id}`) }];
  }
  if (m.byApp) {
    const apps = idsOf(where, "appId");
    if (apps) return [{ keys: apps.map((id) => `p:${id}`) }];
  }
  // a single-row write by another unique field (an account by apId or nickname): its result has the id
  const rows = Array.isArray(result) ? result : [result];
  if (rows.every((r) => r && typeof r === "object" && "id" in r)) return [{ keys: rows.map((r) => `${m.prefix}:${(r as { id: unknown }).id}`) }, ...cascade];
  return [{ all: m.prefix }, ...cascade];
}

function tell(client: object, writes: RowWrites) {
  if ("keys" in writes && writes.keys.length === 0) return;
  const transaction = pending.getStore();
  if (transaction?.open) return void transaction.writes.push(writes);
  for (const l of listeners.get(client) ?? []) l(writes);
}

const TABLES = { accounts: "a", oauth_tokens: "t", oauth_apps: "p", follows: "f", user_relationships: "v", domain_blocks: "v", thread_mutes: "v", filters: "v", lists: "v" } as const;

/**
 * Announces writes done in raw SQL (which the extension does not see): `ids` of the `table`'s rows (for
 * `follows`, the accounts at both ends of the follows written; for the tables of what only some accounts' pages
 * depend on, `VIEWER_STATE`'s, those accounts), or all rows. Call it after the
 * statement; inside a transaction it waits for the commit like the rest.
 */
export function announceRowWrites(db: object, table: keyof typeof TABLES, ids: (string | number)[] | "all"): void {
  const prefix = TABLES[table];
  tell(db, ids === "all" ? { all: prefix } : { keys: ids.map((id) => `${prefix}:${id}`) });
}

/**
 * Announces that the status counts of these accounts changed (accounts/account-counts.ts counts their
 * public and unlisted statuses): statuses are no cached rows, so their writes are announced by the few
 * domain functions that add or remove a counted one (statusStored, removeStatus, the prune, the admin's
 * visibility change), not by the extension. Inside a transaction it waits for the commit like the rest.
 */
export function announceCountWrites(db: object, accountIds: readonly string[]): void {
  tell(db, { keys: [...new Set(accountIds)].map((id) => `f:${id}`) });
}

/** Calls `listener` after every committed write to accounts, tokens, apps, sessions and follows through `db`, until the returned function is called. */
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
    if (!WRITES.has(operation) && !CREATES.has(operation)) return query(args);
    const result = await query(args);
    // nothing changed, nothing to drop (last-activity.ts's conditional update mostly changes nothing)
    if ((operation === "updateMany" || operation === "deleteMany" || operation === "createMany") && (result as { count?: number })?.count === 0) return result;
    for (const w of keysOf(model, operation, (args ?? {}) as { where?: Where; data?: unknown }, result)) tell(client, w);
    return result;
  };
  const extended = prisma.$extends({
    name: "row-writes",
    query: {
      account: { $allOperations: hook },
      oAuthToken: { $allOperations: hook },
      oAuthApp: { $allOperations: hook },
      session: { $allOperations: hook },
      follow: { $allOperations: hook },
      userRelationship: { $allOperations: hook },
      domainBlock: { $allOperations: hook },
      threadMute: { $allOperations: hook },
      filter: { $allOperations: hook },
      list: { $allOperations: hook },
    },
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
