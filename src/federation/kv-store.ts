// Fedify's KvStore on our database (the `federation_kv` table), so its caches, activity idempotence,
// per-server signature memory and circuit-breaker state are shared by every process and survive a
// restart, on PGlite and PostgreSQL alike. Keys are Fedify's string arrays stored as JSON text, so a
// prefix of the array is a prefix of the text.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { Db } from "../db/client.ts";
import { likeLiteral } from "../db/like.ts";
import { sqlFor, type Sql } from "../db/sql.ts";

const encode = (key: KvKey) => JSON.stringify(key);
/** Expired rows are swept at most this often (reads already ignore them). */
const SWEEP_MS = 10 * 60 * 1000;

/**
 * Read-through cache, in this process, of the prefixes whose values change rarely and whose staleness
 * Fedify tolerates: remote actors' public keys (a signature that fails with a cached key makes Fedify
 * fetch the key again, which sets the fresh one) and cached remote documents. Everything else (activity
 * idempotence, signature nonces, circuit-breaker state, our own markers) always reads the table, because
 * other processes change it. This process's own set/delete/cas update or drop the entry at once (every
 * DbKvStore on one database shares the cache); a change made by another process is seen after at most
 * CACHE_TTL_MS. Only hits are cached (a miss is a fetch for the caller anyway).
 */
const CACHED_PREFIXES = ['["_fedify","publicKey",', '["_fedify","remoteDocument",'];
const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 5_000;
type CacheEntry = { json: string; until: number };
const caches = new WeakMap<Db, Map<string, CacheEntry>>();
const cacheable = (k: string) => CACHED_PREFIXES.some((p) => k.startsWith(p));

function cacheOf(db: Db): Map<string, CacheEntry> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

function remember(cache: Map<string, CacheEntry>, k: string, value: unknown, expiresAt: Date | null) {
  if (value === undefined) return;
  cache.delete(k); // re-inserted last: the map's order is the eviction order
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  const until = Math.min(Date.now() + CACHE_TTL_MS, expiresAt?.getTime() ?? Infinity);
  // kept as text: every reader gets its own copy, as from the table
  cache.set(k, { json: JSON.stringify(value), until });
}

function expiry(options?: KvStoreSetOptions): Date | null {
  if (!options?.ttl) return null;
  return new Date(Date.now() + options.ttl.total("millisecond"));
}

/**
 * Fedify 2.3.6 (queued inbox, "global" idempotence) reads `["_fedify","activityIdempotence", id]` when it
 * accepts an activity, but the queued task records and checks `["_fedify","activityIdempotence", origin,
 * id]`: the first form is never written, so its read, one statement per received activity, always
 * misses. It is answered without the table until some set writes that form (another Fedify version,
 * another strategy): from then on, in this process, it is read like any key on that database. De-duplication is unchanged:
 * the queued task's check (the second form) is the one that ever found anything.
 */
const isAcceptIdempotenceKey = (key: KvKey) => key.length === 3 && key[0] === "_fedify" && key[1] === "activityIdempotence";
/** the databases (their clients) where this process has written that form */
const acceptIdempotenceWritten = new WeakSet<Db>();

export class DbKvStore implements KvStore {
  #lastSweep = 0;
  readonly #cache: Map<string, CacheEntry>;
  /** get/set/cas run several times per inbox activity: straight to the driver (src/db/sql.ts) */
  readonly #sql: Sql;
  constructor(private readonly db: Db) {
    this.#cache = cacheOf(db);
    this.#sql = sqlFor(db);
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    if (isAcceptIdempotenceKey(key) && !acceptIdempotenceWritten.has(this.db)) return undefined;
    const k = encode(key);
    const useCache = cacheable(k);
    if (useCache) {
      const hit = this.#cache.get(k);
      if (hit && hit.until > Date.now()) return JSON.parse(hit.json) as T;
      if (hit) this.#cache.delete(k);
    }
    const [row] = await this.#sql.query<{ value: unknown; expiresAt: Date | null }>(`SELECT value, expires_at AS "expiresAt" FROM federation_kv WHERE key = $1`, [k]);
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    if (useCache) remember(this.#cache, k, row.value, row.expiresAt);
    return row.value as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    if (isAcceptIdempotenceKey(key)) acceptIdempotenceWritten.add(this.db);
    const k = encode(key);
    const expiresAt = expiry(options);
    this.#cache.delete(k); // not served while the write is under way
    await this.#sql.execute(
      `INSERT INTO federation_kv (key, value, expires_at) VALUES ($1, $2::jsonb, $3)
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
      [k, JSON.stringify(value), expiresAt],
    );
    if (cacheable(k)) remember(this.#cache, k, value, expiresAt);
    await this.#sweep();
  }

  async delete(key: KvKey): Promise<void> {
    const k = encode(key);
    this.#cache.delete(k);
    await this.db.federationKv.deleteMany({ where: { key: k } });
    this.#cache.delete(k); // a read that raced the delete may have put it back
  }

  /** Compare-and-swap: `undefined` as expected value means "absent (or expired)". */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    if (isAcceptIdempotenceKey(key)) acceptIdempotenceWritten.add(this.db);
    const k = encode(key);
    this.#cache.delete(k);
    const expiresAt = expiry(options);
    const value = JSON.stringify(newValue);
    if (expectedValue === undefined) {
      // absent, or present but expired
      const n = await this.#sql.execute(
        `INSERT INTO federation_kv (key, value, expires_at) VALUES ($1, $2::jsonb, $3)
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
        WHERE federation_kv.expires_at IS NOT NULL AND federation_kv.expires_at <= (now() AT TIME ZONE 'UTC')`,
        [k, value, expiresAt],
      );
      return n > 0;
    }
    const n = await this.#sql.execute(
      `UPDATE federation_kv SET value = $1::jsonb, expires_at = $2
      WHERE key = $3 AND value = $4::jsonb
        AND (expires_at IS NULL OR expires_at > (now() AT TIME ZONE 'UTC'))`,
      [value, expiresAt, k, JSON.stringify(expectedValue)],
    );
    return n > 0;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const now = new Date();
    const where = prefix
      ? { OR: [{ key: encode(prefix) }, { key: { startsWith: likeLiteral(encode(prefix).slice(0, -1) + ",") } }] }
      : {};
    const rows = await this.db.federationKv.findMany({ where: { ...where, AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }] }, orderBy: { key: "asc" } });
    for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: row.value };
  }

  async #sweep() {
    if (Date.now() - this.#lastSweep < SWEEP_MS) return;
    this.#lastSweep = Date.now();
    await this.db.federationKv.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  }
}
