// Outgoing side of the instance's server rules: nothing is delivered to a server the instance refuses
// (`mrf_simple.reject`, or not in `mrf_simple.accept` in allow-list mode), as the family's publisher skips
// them. Checked when each delivery task runs, so a rule added after an activity was queued (or while it
// waits for a retry) stops it too.
import type { Services } from "../domain/context.ts";
import { hostOf, rejectedBy } from "../domain/instance/rejected-domains.ts";

/** Whether a queued Fedify task is a delivery (`outbox` message) to a refused server. */
export function deliveryRefused(services: Pick<Services, "config" | "settings">, task: unknown): boolean {
  if (typeof task !== "object" || task === null) return false;
  const { type, inbox } = task as { type?: unknown; inbox?: unknown };
  return type === "outbox" && typeof inbox === "string" && rejectedBy(services, hostOf(inbox)) !== null;
}
