// Delivery health per remote instance (the `instances` table), shown by the admin API: the last
// delivery that succeeded and the last that failed, consecutive failures, and since when the instance
// has been unreachable. Fedify retries each delivery with backoff and its circuit breaker holds
// deliveries to a host that keeps failing; on top of that, hosts unreachable for longer than
// UNREACHABLE_AFTER_DAYS get no new deliveries at all (recipients.ts) until they are seen again
// (a successful delivery, or an activity received from them: `markInstanceReachable`).
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "../../db/client.ts";
import { suspensionCutoff } from "../../domain/federation/instances.ts";

/** Hosts among `hosts` unreachable for longer than the limit. One statement. */
export async function unreachableHosts(db: Db, hosts: readonly string[], now = new Date()): Promise<Set<string>> {
  if (hosts.length === 0) return new Set();
  const rows = await db.instance.findMany({
    where: { domain: { in: [...new Set(hosts.map((h) => h.toLowerCase()))] }, unreachableSince: { lt: suspensionCutoff(now) } },
    select: { domain: true },
  });
  return new Set(rows.map((r) => r.domain));
}

/** A delivery to `host` succeeded (or the host spoke to us): it is reachable. */
export async function markInstanceReachable(db: Db, host: string, at = new Date()): Promise<void> {
  const domain = host.toLowerCase();
  await db.instance.upsert({
    where: { domain },
    create: { domain, lastSuccessAt: at },
    update: { lastSuccessAt: at, unreachableSince: null, failureCount: 0 },
  });
}

/** When this process last recorded, per database and host, that a host spoke to us. */
const heardFrom = new WeakMap<Db, Map<string, number>>();
const HEARD_EVERY_MS = 10 * 60 * 1000;

/**
 * A verified activity came from `host`: it is up, so a record of failures (and `unreachable_since`, which
 * stops deliveries after some days) is cleared, as Mastodon does for the sender of an inbox delivery.
 * At most once per host every ten minutes per process, and a statement that writes nothing unless the
 * host had failures: this runs for every activity received.
 */
export async function markHeardFrom(db: Db, host: string, at = new Date()): Promise<void> {
  const domain = host.toLowerCase();
  let seen = heardFrom.get(db);
  if (!seen) heardFrom.set(db, (seen = new Map()));
  const last = seen.get(domain);
  if (last !== undefined && at.getTime() - last < HEARD_EVERY_MS) return;
  seen.delete(domain);
  if (seen.size >= 10_000) seen.delete(seen.keys().next().value!);
  seen.set(domain, at.getTime());
  await db.instance.updateMany({
    where: { domain, OR: [{ unreachableSince: { not: null } }, { failureCount: { gt: 0 } }] },
    data: { unreachableSince: null, failureCount: 0 },
  });
}

/**
 * A delivery to `host` failed. `reachable` failures (the host answered 4xx, e.g. 401 or 404) count but
 * do not make the host unreachable; transport errors and 5xx set `unreachable_since` at the first one.
 */
export async function markDeliveryFailed(db: Db, host: string, reachable: boolean, at = new Date()): Promise<void> {
  const domain = host.toLowerCase();
  await db.$executeRaw`
    INSERT INTO instances (domain, last_failure_at, unreachable_since, failure_count, created_at, updated_at)
    VALUES (${domain}, ${at}, ${reachable ? null : at}, 1, ${at}, ${at})
    ON CONFLICT (domain) DO UPDATE SET
      last_failure_at = EXCLUDED.last_failure_at,
      failure_count = instances.failure_count + 1,
      unreachable_since = CASE WHEN ${reachable} THEN instances.unreachable_since ELSE COALESCE(instances.unreachable_since, EXCLUDED.last_failure_at) END,
      updated_at = EXCLUDED.updated_at`;
}

/** What one queued delivery did, recorded by the outbox error hook while the task runs. */
interface DeliveryOutcome {
  host: string;
  failed: boolean;
}
const outcome = new AsyncLocalStorage<DeliveryOutcome>();

/** Called from Fedify's `onOutboxError`: marks the running delivery as failed. */
export function noteDeliveryFailure(): void {
  const current = outcome.getStore();
  if (current) current.failed = true;
}

/** The host of the delivery running in this scope (transport errors do not name it). */
export const currentDeliveryHost = () => outcome.getStore()?.host;

/** Runs one queued delivery task to `host` and tells whether it reported a failure. */
export async function trackDelivery(host: string, run: () => Promise<void>): Promise<{ failed: boolean }> {
  const state: DeliveryOutcome = { host, failed: false };
  await outcome.run(state, run);
  return state;
}
