// Delivery health of remote instances, as the admin API shows it. The federation adapter records it
// (src/federation/outbox/health.ts); this is the rule both agree on: an instance unreachable for longer
// than UNREACHABLE_AFTER_DAYS gets no new deliveries until it is seen again.
import type { Instance } from "../../generated/prisma/client.ts";

export const UNREACHABLE_AFTER_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment before which an `unreachable_since` means delivery has stopped. */
export const suspensionCutoff = (now: Date) => new Date(now.getTime() - UNREACHABLE_AFTER_DAYS * DAY_MS);

export interface InstanceHealth extends Instance {
  /** no new deliveries: unreachable for longer than UNREACHABLE_AFTER_DAYS */
  deliverySuspended: boolean;
}

export const instanceHealth = (row: Instance, now: Date): InstanceHealth => ({
  ...row,
  deliverySuspended: !!row.unreachableSince && row.unreachableSince < suspensionCutoff(now),
});
