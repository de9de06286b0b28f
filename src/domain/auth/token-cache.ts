// A per-process cache of what a bearer token stands for: the token row, its app and its account row,
// keyed by the token's digest. Every authenticated request starts by reading them (authenticate.ts
// `findToken`, one statement); a client's repeated requests then need none.
//
// Why it is safe (a revoked token, a suspended account or a changed role must count on the very next
// request):
// - what is cached is only the rows: expiry and deactivation are checked on every use, as before;
// - every write to an account, a token or an app is announced (src/db/row-writes.ts, a query extension
//   on the Prisma client: no write site can forget it) after its commit; this process drops the
//   entries at once, and the bus (`viewers_changed`; with REDIS_URL across processes) tells the others;
// - a read that began before an invalidation does not store what it read (the generation check in
//   `store`), so a row read just before a write's commit is not kept;
// - every entry lives at most TTL_MS, which bounds what nothing announces (writes by other programs:
//   psql, or the CLI without Redis).
// last-activity.ts writes an account's `lastActiveAt` at most every ten minutes: that write drops the
// account's entries like any other, and the next request reads the row again (with the new time, so no
// write follows). Its conditional update that changes no row announces nothing.
import type { Settings } from "../../config/env.ts";
import type { Account, OAuthApp, OAuthToken } from "../../generated/prisma/client.ts";
import { onRowWrites, type RowWrites } from "../../db/row-writes.ts";
import type { Bus } from "../../realtime/bus.ts";
import type { Ctx, Services } from "../context.ts";

export type CachedToken = OAuthToken & { account: Account | null; app: OAuthApp };

interface Entry {
  token: CachedToken;
  keys: string[];
  expires: number;
}

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

export class TokenCache {
  private entries = new Map<string, Entry>();
  /** invalidation key → digests of the entries it drops */
  private byKey = new Map<string, Set<string>>();
  private generation = 0;
  /** the generation each key was last invalidated at (bounded: see `invalidate`) */
  private invalidatedAt = new Map<string, number>();
  /** reads begun before this generation store nothing */
  private floor = 0;

  constructor(
    public maxEntries = DEFAULT_ENTRIES,
    private now: () => number = Date.now,
  ) {}

  get size() {
    return this.entries.size;
  }

  /** The token rows for a digest, refreshed as most recently used; undefined when absent or expired. */
  get(digest: string): CachedToken | undefined {
    const e = this.entries.get(digest);
    if (!e) return undefined;
    this.entries.delete(digest);
    if (e.expires <= this.now()) return void this.unindex(digest, e);
    this.entries.set(digest, e);
    return copy(e.token);
  }

  /** The generation to hand to `store` once the read begun now has its rows. */
  begin(): number {
    return this.generation;
  }

  /** Stores what a read begun at `since` found, unless one of its rows was written meanwhile. */
  store(since: number, digest: string, token: CachedToken): void {
    if (this.maxEntries <= 0 || since < this.floor) return;
    const keys = keysOf(token);
    if (keys.some((k) => (this.invalidatedAt.get(k) ?? -1) > since)) return;
    const old = this.entries.get(digest);
    if (old) this.unindex(digest, old);
    this.entries.set(digest, { token: copy(token), keys, expires: this.now() + TTL_MS });
    for (const k of keys) {
      let set = this.byKey.get(k);
      if (!set) this.byKey.set(k, (set = new Set()));
      set.add(digest);
    }
    // least recently used first: Map keeps insertion order and `get` re-inserts
    while (this.entries.size > this.maxEntries) {
      const [first, e] = this.entries.entries().next().value!;
      this.entries.delete(first);
      this.unindex(first, e);
    }
  }

  invalidate(writes: RowWrites): void {
    if ("all" in writes) return this.clear();
    const generation = ++this.generation;
    for (const k of writes.keys) {
      this.invalidatedAt.set(k, generation);
      for (const digest of this.byKey.get(k) ?? []) {
        const e = this.entries.get(digest);
        this.entries.delete(digest);
        if (e) this.unindex(digest, e);
      }
    }
    // bounded: forgetting the keys makes every read in flight store nothing instead
    if (this.invalidatedAt.size > 10_000) {
      this.invalidatedAt.clear();
      this.floor = generation;
    }
  }

  clear(): void {
    this.entries.clear();
    this.byKey.clear();
    this.invalidatedAt.clear();
    this.floor = ++this.generation;
  }

  private unindex(digest: string, e: Entry) {
    for (const k of e.keys) {
      const set = this.byKey.get(k);
      set?.delete(digest);
      if (set?.size === 0) this.byKey.delete(k);
    }
  }
}

/** One cache per bus, i.e. per server (tests run several servers in one process). */
const caches = new WeakMap<Bus, TokenCache>();
const OFF = new TokenCache(0);

/** This server's token cache; off (stores nothing) where `followViewerWrites` did not set one up. */
export function tokenCache(ctx: Pick<Ctx, "bus">): TokenCache {
  return (ctx.bus && caches.get(ctx.bus)) || OFF;
}

/**
 * Sets up the token cache of a server (or the CLI, which only announces): the database's writes to
 * accounts, tokens and apps drop entries here and, over the bus, in every process. Returns the
 * function that stops following.
 */
export function followViewerWrites(services: Pick<Services, "bus" | "db"> & { settings: Pick<Settings, "tokenCacheEntries"> }): () => void {
  const { bus, db } = services;
  const cache = new TokenCache(services.settings.tokenCacheEntries ?? DEFAULT_ENTRIES); // TOKEN_CACHE_ENTRIES
  caches.set(bus, cache);
  // announced after the commit: drop here at once (the client's next request reads its own write), then tell the others
  const stopWrites = onRowWrites(db, (writes) => {
    cache.invalidate(writes);
    bus.publish("viewers_changed", writes);
  });
  const events = bus.subscribe("viewers_changed");
  (async () => {
    for await (const writes of events) cache.invalidate(writes);
  })().catch((error) => {
    // without its events the cache could serve a revoked token: stop caching in this process
    console.error("token cache: invalidation stream failed, caching off:", error);
    cache.clear();
    cache.maxEntries = 0;
  });
  return () => {
    stopWrites();
    cache.clear();
    cache.maxEntries = 0;
    void events.return?.(undefined);
  };
}
