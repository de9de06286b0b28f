// A per-process cache of what a bearer token stands for: the token row, its app and its account row,
// keyed by the token's digest. Every authenticated request starts by reading them (authenticate.ts
// `findToken`, one statement); a client's repeated requests then need none.
//
// Why it is safe (a revoked token, a suspended account or a changed role must count on the very next
// request):
// - what is cached is only the rows: expiry and deactivation are checked on every use, as before;
// - every write to an account, a token or an app is announced (src/db/row-writes.ts, a query extension
//   on the Prisma client: no write site can forget it) after its commit; this process drops the
//   entries at once, and the bus (`viewers_changed`; with REDIS_URL across processes) tells the others
//   (the wiring: ../row-caches.ts);
// - a read that began before an invalidation does not store what it read (the generation check of
//   src/kernel/generational-lru.ts, which keeps the entries), so a row read just before a write's
//   commit is not kept;
// - every entry lives at most TTL_MS, which bounds what nothing announces (writes by other programs:
//   psql, or the CLI without Redis).
// last-activity.ts writes an account's `lastActiveAt` at most every ten minutes: that write drops the
// account's entries like any other, and the next request reads the row again (with the new time, so no
// write follows). Its conditional update that changes no row announces nothing.
import type { Settings } from "../../config/env.ts";
import type { Account, OAuthApp, OAuthToken } from "../../generated/prisma/client.ts";
import { dropRowWrites, type RowWrites } from "../../db/row-writes.ts";
import { GenerationalLru } from "../../kernel/generational-lru.ts";
import type { Bus } from "../../realtime/bus.ts";
import type { Ctx } from "../context.ts";
import { perServer } from "../per-server.ts";

export type CachedToken = OAuthToken & { account: Account | null; app: OAuthApp };

const DEFAULT_ENTRIES = 10_000;
const TTL_MS = 60_000;

/**
 * The invalidation keys an entry answers to (row-writes.ts): its token, its app, its account, and the
 * accounts whose deletion changes its rows without a write of their own (the database nulls the
 * account's `moved_to_id` and the app's `owner_id`).
 */
const keysOf = (t: CachedToken) => [
  `t:${t.id}`,
  `p:${t.appId}`,
  ...[t.accountId, t.account?.movedToId, t.app.ownerId].filter((id): id is string => !!id).map((id) => `a:${id}`),
];

/** A copy per request (stored and handed out): nothing a request does to its viewer reaches the next one. */
const copy = (t: CachedToken): CachedToken => ({ ...t, scopes: [...t.scopes], account: t.account && { ...t.account }, app: { ...t.app } });

/** Keyed by the token's digest, tagged with its rows' keys (`keysOf`); a copy goes in and a copy comes out. */
export class TokenCache {
  private lru: GenerationalLru<CachedToken>;

  constructor(maxEntries = DEFAULT_ENTRIES, now: () => number = Date.now) {
    this.lru = new GenerationalLru(maxEntries, TTL_MS, now);
  }

  get size() {
    return this.lru.size;
  }

  /** The token rows for a digest, refreshed as most recently used; undefined when absent or expired. */
  get(digest: string): CachedToken | undefined {
    const token = this.lru.get(digest);
    return token && copy(token);
  }

  /** The generation to hand to `store` once the read begun now has its rows. */
  begin(): number {
    return this.lru.begin();
  }

  /** Stores what a read begun at `since` found, unless one of its rows was written meanwhile. */
  store(since: number, digest: string, token: CachedToken): void {
    this.lru.store(since, digest, copy(token), keysOf(token));
  }

  /** Drops what writes of accounts, tokens and apps change; follows are none of its rows. */
  invalidate(writes: RowWrites): void {
    dropRowWrites(this.lru, ["a", "t", "p"], writes);
  }

  clear(): void {
    this.lru.clear();
  }

  /** Drops everything and stores nothing from now on. */
  off(): void {
    this.lru.off();
  }

  /** Its invalidations may have been missed (true) or arrive again (false): see GenerationalLru.suspend. */
  suspend(suspended: boolean): void {
    this.lru.suspend(suspended);
  }
}

const caches = perServer(new TokenCache(0));

/** This server's token cache; off (stores nothing) where followRowWrites (row-caches.ts) did not set one up. */
export function tokenCache(ctx: Pick<Ctx, "bus">): TokenCache {
  return caches.of(ctx);
}

/** Sets up the token cache of the server on `bus` (row-caches.ts wires its invalidations); undone by `off()`. */
export function installTokenCache(bus: Bus, settings: Pick<Settings, "tokenCacheEntries">): TokenCache {
  return caches.install(bus, new TokenCache(settings.tokenCacheEntries ?? DEFAULT_ENTRIES)); // TOKEN_CACHE_ENTRIES
}
