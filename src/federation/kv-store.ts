// Fedify's KvStore on our database (the `federation_kv` table), so its caches, activity idempotence,
// per-server signature memory and circuit-breaker state are shared by every process and survive a
// restart, on PGlite and PostgreSQL alike. Keys are Fedify's string arrays stored as JSON text, so a
// prefix of the array is a prefix of the text.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { Db } from "../db/client.ts";
import { likeLiteral } from "../db/like.ts";

const encode = (key: KvKey) => JSON.stringify(key);
/** Expired rows are swept at most this often (reads already ignore them). */
const SWEEP_MS = 10 * 60 * 1000;

function expiry(options?: KvStoreSetOptions): Date | null {
  if (!options?.ttl) return null;
  return new Date(Date.now() + options.ttl.total("millisecond"));
}

export class DbKvStore implements KvStore {
  #lastSweep = 0;
  constructor(private readonly db: Db) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.db.federationKv.findUnique({ where: { key: encode(key) } });
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    return row.value as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const data = { value: value as object, expiresAt: expiry(options) };
    await this.db.federationKv.upsert({ where: { key: encode(key) }, create: { key: encode(key), ...data }, update: data });
    await this.#sweep();
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.federationKv.deleteMany({ where: { key: encode(key) } });
  }

  /** Compare-and-swap: `undefined` as expected value means "absent (or expired)". */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const k = encode(key);
    const expiresAt = expiry(options);
    const value = JSON.stringify(newValue);
    if (expectedValue === undefined) {
      // absent, or present but expired
      const n = await this.db.$executeRaw`
        INSERT INTO federation_kv (key, value, expires_at) VALUES (${k}, ${value}::jsonb, ${expiresAt})
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
        WHERE federation_kv.expires_at IS NOT NULL AND federation_kv.expires_at <= (now() AT TIME ZONE 'UTC')`;
      return n > 0;
    }
    const n = await this.db.$executeRaw`
      UPDATE federation_kv SET value = ${value}::jsonb, expires_at = ${expiresAt}
      WHERE key = ${k} AND value = ${JSON.stringify(expectedValue)}::jsonb
        AND (expires_at IS NULL OR expires_at > (now() AT TIME ZONE 'UTC'))`;
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
