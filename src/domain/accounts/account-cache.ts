// A per-process cache of account rows by id, for the accounts a page of statuses shows: authors,
// mentioned accounts and the authors of replied-to statuses (statuses/status-data.ts). A timeline
// page names some 25 accounts; reading their ~70 columns as JSON, then decoding them, was about a
// quarter of the page's statement and of its decoding (docs/performance.md, "Eighth round"). With the
// cache, the statement reads only the rows it lacks; their follower and following counts have a cache
// of their own (count-cache.ts), which follow writes drop.
//
// Why it is safe (a suspension, a profile edit or a role change must show on the very next page):
// every write to an account row is announced after its commit (src/db/row-writes.ts, a query
// extension on the Prisma client that no write site can forget, and `announceRowWrites` for raw SQL),
// which drops the entry here at once and, over the bus, in every other process (the wiring, shared with
// the token cache: ../row-caches.ts). A read that began before an invalidation stores nothing (the
// generation check of src/kernel/generational-lru.ts), and every entry lives at most TTL_MS, which
// bounds what nothing announces (writes by other programs). Deleting an account nulls `moved_to_id`
// of the accounts that moved to it without a write of theirs: an entry answers to its `movedToId`'s
// key too. Rows are shared, not copied: the readers only read them.
import type { Settings } from "../../config/env.ts";
import { dropRowWrites, type RowWrites } from "../../db/row-writes.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { GenerationalLru } from "../../kernel/generational-lru.ts";
import type { Bus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";
import { perServer } from "../per-server.ts";

const DEFAULT_ENTRIES = 5_000;
const TTL_MS = 60_000;

/** row-writes.ts's key for an account */
const keyOf = (id: string) => `a:${id}`;

export class AccountCache {
  private lru: GenerationalLru<Account>;

  constructor(maxEntries = DEFAULT_ENTRIES, now: () => number = Date.now) {
    this.lru = new GenerationalLru<Account>(maxEntries, TTL_MS, now);
  }

  get size(): number {
    return this.lru.size;
  }

  get(id: string): Account | undefined {
    return this.lru.get(keyOf(id));
  }

  /** The generation to hand to `store` once the read begun now has its rows. */
  begin(): number {
    return this.lru.begin();
  }

  store(since: number, account: Account): void {
    this.lru.store(since, keyOf(account.id), account, account.movedToId ? [keyOf(account.movedToId)] : []);
  }

  /** Drops what account writes change (tokens, apps and follows are none of its rows). */
  invalidate(writes: RowWrites): void {
    dropRowWrites(this.lru, ["a"], writes);
  }

  off(): void {
    this.lru.off();
  }

  /** Its invalidations may have been missed (true) or arrive again (false): see GenerationalLru.suspend. */
  suspend(suspended: boolean): void {
    this.lru.suspend(suspended);
  }
}

const caches = perServer(new AccountCache(0));

/** The account cache of this server; off (stores nothing) where followRowWrites (row-caches.ts) did not set one up. */
export function accountCache(ctx: Pick<Ctx, "bus">): AccountCache {
  return caches.of(ctx);
}

/** Sets up the account cache of the server on `bus` (row-caches.ts wires its invalidations); undone by `off()`. */
export function installAccountCache(bus: Bus, settings: Pick<Settings, "accountCacheEntries">): AccountCache {
  return caches.install(bus, new AccountCache(settings.accountCacheEntries ?? DEFAULT_ENTRIES)); // ACCOUNT_CACHE_ENTRIES
}
