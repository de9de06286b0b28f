// The wiring of the per-process caches of database rows (auth/token-cache.ts: what a bearer token stands
// for; accounts/account-cache.ts: account rows shown with statuses; accounts/count-cache.ts: their
// follower and following counts) to the writes of those rows, in one place so that every process
// publishes each write once and every cache hears all of them.
// src/db/row-writes.ts announces every write to accounts, tokens, apps and follows after its commit: this process
// drops the caches' entries at once (a client's next request reads its own write) and publishes the
// announcement on the bus (`viewers_changed`; with REDIS_URL across processes), whose events drop the
// entries in every other process. The CLI sets this up too: its writes (suspensions, roles, revocations)
// reach the running servers the same way.
import type { Settings } from "../config/env.ts";
import { onRowWrites, type RowWrites } from "../db/row-writes.ts";
import { installAccountCache } from "./accounts/account-cache.ts";
import { installCountCache } from "./accounts/count-cache.ts";
import { installTokenCache } from "./auth/token-cache.ts";
import type { Services } from "./context.ts";

export interface RowCache {
  invalidate(writes: RowWrites): void;
  /** while the bus's events may be missed (its connection to Redis dropped), keep nothing */
  suspend(suspended: boolean): void;
  off(): void;
}

/** Sets up this process's row caches and their invalidations; returns the function that stops them. */
export function followRowWrites(services: Pick<Services, "bus" | "db"> & { settings: Pick<Settings, "tokenCacheEntries" | "accountCacheEntries"> }, others: RowCache[] = []): () => void {
  const { bus, db, settings } = services;
  // `others`: what the server keeps beyond rows, built from them (its rendered pages: src/http/routes/page-cache.ts)
  const caches: RowCache[] = [installTokenCache(bus, settings), installAccountCache(bus, settings), installCountCache(bus, settings), ...others];
  const stopWrites = onRowWrites(db, (writes) => {
    for (const cache of caches) cache.invalidate(writes);
    bus.publish("viewers_changed", writes);
  });
  const events = bus.subscribe("viewers_changed");
  // events lost while Redis was away would have dropped entries: keep nothing until they arrive again
  const stopGaps = bus.onGap((down) => {
    for (const cache of caches) cache.suspend(down);
  });
  (async () => {
    for await (const writes of events) for (const cache of caches) cache.invalidate(writes);
  })().catch((error) => {
    // without their events the caches could serve a revoked token or a suspended account: stop caching here
    console.error("row caches: invalidation stream failed, caching off:", error);
    for (const cache of caches) cache.off();
  });
  return () => {
    stopWrites();
    stopGaps();
    for (const cache of caches) cache.off();
    void events.return?.(undefined);
  };
}
