// A per-process cache of accounts' follower, following and status counts by account id, for every account a
// page shows with its counts (statuses/status-data.ts: the authors; account-counts.ts
// `loadAccountCounts`: account lists, GraphQL's `accountCounts` loader). Counting them was three
// `count(*)` per author on every page, more for popular accounts (thousands of follow rows each):
// with the cache a page counts only the accounts it lacks (docs/performance.md, "Count cache").
//
// Why it is safe (a follow, an unfollow, an accepted request, a block or a new post must show on the
// very next page): every write to a follow is announced after its commit with both of its ends
// (`f:<follower id>`, `f:<following id>`: src/db/row-writes.ts, the Prisma query extension, and
// `announceRowWrites` for raw SQL), and one it cannot name drops every count (`{ all: "f" }`, as does
// deleting accounts, whose follows the database deletes); a counted status stored, deleted or moved
// out of the counted visibilities is announced by its author (`announceCountWrites`: statusStored,
// removeStatus, the prune, the admin's visibility change); the wiring (../row-caches.ts) drops them here at once and,
// over the bus, in every other process. A read that began before an invalidation stores nothing (the
// generation check of src/kernel/generational-lru.ts), and every entry lives at most TTL_MS, which
// bounds what nothing announces (writes by other programs). Its size is ACCOUNT_CACHE_ENTRIES, the
// account cache's: the counts go with the rows (`0` turns both off).
import type { Settings } from "../../config/env.ts";
import { dropRowWrites, type RowWrites } from "../../db/row-writes.ts";
import { GenerationalLru } from "../../kernel/generational-lru.ts";
import type { Bus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";
import { perServer } from "../per-server.ts";

const DEFAULT_ENTRIES = 5_000;
const TTL_MS = 60_000;

export interface CachedCounts {
  followers: number;
  following: number;
  statuses: number;
}

/** row-writes.ts's key for the counts of an account (the follows from and to it, its statuses) */
const keyOf = (id: string) => `f:${id}`;

export class CountCache {
  private lru: GenerationalLru<CachedCounts>;

  constructor(maxEntries = DEFAULT_ENTRIES, now: () => number = Date.now) {
    this.lru = new GenerationalLru<CachedCounts>(maxEntries, TTL_MS, now);
  }

  get size(): number {
    return this.lru.size;
  }

  /** A copy: callers may change what they get. */
  get(id: string): CachedCounts | undefined {
    const hit = this.lru.get(keyOf(id));
    return hit && { followers: hit.followers, following: hit.following, statuses: hit.statuses };
  }

  /** The generation to hand to `store` once the read begun now has its counts. */
  begin(): number {
    return this.lru.begin();
  }

  store(since: number, id: string, counts: CachedCounts): void {
    this.lru.store(since, keyOf(id), { followers: counts.followers, following: counts.following, statuses: counts.statuses });
  }

  /** Drops what follow and counted status writes change (accounts, tokens and apps are none of its rows). */
  invalidate(writes: RowWrites): void {
    dropRowWrites(this.lru, ["f"], writes);
  }

  off(): void {
    this.lru.off();
  }

  /** Its invalidations may have been missed (true) or arrive again (false): see GenerationalLru.suspend. */
  suspend(suspended: boolean): void {
    this.lru.suspend(suspended);
  }
}

const caches = perServer(new CountCache(0));

/** The count cache of this server; off (stores nothing) where followRowWrites (row-caches.ts) did not set one up. */
export function countCache(ctx: Pick<Ctx, "bus">): CountCache {
  return caches.of(ctx);
}

/** Sets up the count cache of the server on `bus` (row-caches.ts wires its invalidations); undone by `off()`. */
export function installCountCache(bus: Bus, settings: Pick<Settings, "accountCacheEntries">): CountCache {
  return caches.install(bus, new CountCache(settings.accountCacheEntries ?? DEFAULT_ENTRIES)); // ACCOUNT_CACHE_ENTRIES
}
