// The bookkeeping shared by the per-process caches (statuses/status-cache.ts, auth/token-cache.ts): a
// bounded map of entries that expire, dropped by invalidation keys, which never keeps what a read found
// if a write it may have missed was announced while the read ran.
//
// - Least recently used first: a Map keeps insertion order, `get` re-inserts, `store` evicts from the
//   front past `maxEntries` (0 stores nothing: a cache that is off).
// - Every entry lives at most `ttlMs`, which bounds what no invalidation announces.
// - Generations: every invalidation bumps `generation` and remembers, per key, the generation it was
//   dropped at. A read calls `begin()` before it queries and hands that number to `store`; if one of the
//   entry's keys was invalidated since, the rows it read may predate the write, so nothing is stored.
// - An entry answers to its own key and to the `tags` it was stored with (a token's digest answers to
//   writes of its token, app and accounts); `invalidate` drops the entries stored under a key and those
//   tagged with it.
// - Once a burst of load is over, the entries are dropped just before the idle compaction
//   (src/kernel/idle-memory.ts `onMemoryRelease`), so a quiet process does not keep a burst's entries for
//   their TTL (the status cache alone: ~2.9 KB an entry, up to 5,000); they are read again when needed.
// The caches keep what is theirs: their keys and tags, their events, and whether values are copied.
import { onMemoryRelease } from "./idle-memory.ts";

interface Entry<V> {
  value: V;
  tags: readonly string[];
  expires: number;
}

/** how many invalidated keys are remembered before they are forgotten (and the floor raised instead) */
const MAX_REMEMBERED = 10_000;
const NO_TAGS: readonly string[] = [];

export class GenerationalLru<V> {
  private entries = new Map<string, Entry<V>>();
  /** tag → keys of the entries stored with it (entries' own keys need no index) */
  private byTag = new Map<string, Set<string>>();
  /** bumped by every invalidation; `invalidatedAt` remembers the generation a key was last dropped at */
  private generation = 0;
  private invalidatedAt = new Map<string, number>();
  /** reads begun before this generation store nothing (set when `invalidatedAt` is forgotten or all is dropped) */
  private floor = 0;
  /** while the invalidations may not arrive (`suspend(true)`), nothing is stored */
  private suspended = false;

  constructor(
    public maxEntries: number,
    private ttlMs: number,
    private now: () => number = Date.now,
  ) {
    if (maxEntries > 0) trimWhenIdle(this);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, refreshed as most recently used; undefined when absent or expired. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expires <= this.now()) return void this.unindex(key, e);
    this.entries.set(key, e);
    return e.value;
  }

  /** The generation to hand to `store` once the read begun now has its rows. */
  begin(): number {
    return this.generation;
  }

  /**
   * Stores what a read begun at `since` found, unless `key` or one of `tags` was invalidated meanwhile;
   * `until` (epoch ms) ends the entry's life earlier than the TTL would.
   */
  store(since: number, key: string, value: V, tags: readonly string[] = NO_TAGS, until = Infinity): void {
    if (this.maxEntries <= 0 || this.suspended || since < this.floor) return;
    if (this.droppedSince(since, key) || tags.some((t) => this.droppedSince(since, t))) return;
    this.drop(key);
    this.entries.set(key, { value, tags, expires: Math.min(this.now() + this.ttlMs, until) });
    for (const t of tags) {
      let keys = this.byTag.get(t);
      if (!keys) this.byTag.set(t, (keys = new Set()));
      keys.add(key);
    }
    while (this.entries.size > this.maxEntries) this.drop(this.entries.keys().next().value!);
  }

  /** Whether an entry is stored with this tag (it may have expired, unread since). */
  hasTag(tag: string): boolean {
    return this.byTag.has(tag);
  }

  /** Drops the entries stored under these keys or tagged with them; reads in flight will not store them. */
  invalidate(keys: Iterable<string | null | undefined>): void {
    const generation = ++this.generation;
    for (const k of keys) {
      if (!k) continue;
      this.invalidatedAt.set(k, generation);
      this.drop(k);
      for (const key of this.byTag.get(k) ?? []) this.drop(key);
    }
    // bounded: forgetting the keys makes every read in flight store nothing instead
    if (this.invalidatedAt.size > MAX_REMEMBERED) {
      this.invalidatedAt.clear();
      this.floor = generation;
    }
  }

  /** Drops every entry; unlike `clear`, reads in flight may still store theirs (nothing was invalidated). */
  trim(): void {
    this.entries.clear();
    this.byTag.clear();
  }

  /** Drops everything; reads begun before store nothing. */
  clear(): void {
    this.entries.clear();
    this.byTag.clear();
    this.invalidatedAt.clear();
    this.floor = ++this.generation;
  }

  /**
   * The invalidations may have been missed (the bus's connection dropped: `true`) or arrive again (`false`):
   * either way everything is dropped, and while suspended nothing is stored.
   */
  suspend(suspended: boolean): void {
    this.clear();
    this.suspended = suspended;
  }

  /** Drops everything and stores nothing from now on (a cache whose invalidations stopped arriving). */
  off(): void {
    this.clear();
    this.maxEntries = 0;
  }

  private droppedSince(since: number, key: string): boolean {
    return (this.invalidatedAt.get(key) ?? -1) > since;
  }

  private drop(key: string) {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.unindex(key, e);
  }

  private unindex(key: string, e: Entry<V>) {
    for (const t of e.tags) {
      const keys = this.byTag.get(t);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(t);
    }
  }
}

/** A WeakRef: a cache that is gone (a test's server) is not kept alive by the registration, which then ends. */
function trimWhenIdle(cache: GenerationalLru<unknown>) {
  const ref = new WeakRef(cache);
  const off = onMemoryRelease(() => {
    const live = ref.deref();
    if (live) live.trim();
    else off();
  });
}
