// Runs one of Fedify's queued tasks and, for a delivery to one inbox, records the outcome in the
// instance's health: failures are recorded by the outbox error hook (policy.ts) while the task runs;
// a task that reported none and was not held by the circuit breaker delivered.
import type { Services } from "../../domain/context.ts";
import { DbKvStore } from "../kv-store.ts";
import { markInstanceReachable, trackDelivery } from "./health.ts";

/** Where Fedify keeps circuit-breaker state (its default `kvPrefixes.circuitBreaker`). */
const CIRCUIT_PREFIX = ["_fedify", "circuit"] as const;

function deliveryHost(message: unknown): string | null {
  const m = message as { type?: string; inbox?: string } | null;
  if (m?.type !== "outbox" || typeof m.inbox !== "string") return null;
  try {
    return new URL(m.inbox).host;
  } catch {
    return null;
  }
}

export async function runFederationTask(services: Services, message: unknown, process: () => Promise<void>): Promise<void> {
  const host = deliveryHost(message);
  if (!host) return process();
  const { failed } = await trackDelivery(host, process);
  if (failed) return;
  const circuit = (await new DbKvStore(services.db).get([...CIRCUIT_PREFIX, host])) as { state?: string } | undefined;
  if (circuit?.state === "open" || circuit?.state === "half-open") return; // held, not sent
  await markInstanceReachable(services.db, host);
}
