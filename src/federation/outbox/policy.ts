// Fedify's delivery options that are ours to choose: what a failure does to the instance's health
// record, and the circuit breaker that holds deliveries to a host that keeps failing.
//   - 404 and 410 (Fedify's default permanent failures) are not retried: a gone actor stays gone.
//   - 5 failures within 30 minutes open a host's circuit: its deliveries are held (re-queued, not
//     sent) and one probe goes out every 30 minutes; a success closes it again. Held deliveries are
//     dropped after 3 days, and hosts unreachable for 7 days get no new deliveries (health.ts).
import { SendActivityError, type FederationOptions } from "@fedify/fedify";
import type { Services } from "../../domain/context.ts";
import { currentDeliveryHost, markDeliveryFailed, markInstanceReachable, noteDeliveryFailure } from "./health.ts";

export function deliveryPolicy(services: Services): Pick<FederationOptions<Services>, "onOutboxError" | "circuitBreaker"> {
  return {
    async onOutboxError(error) {
      noteDeliveryFailure();
      const host = error instanceof SendActivityError ? error.inbox.host : currentDeliveryHost();
      if (!host) return;
      // a host that answers (4xx) is reachable, if unwilling; no answer or 5xx counts towards unreachable
      const reachable = error instanceof SendActivityError && error.statusCode >= 400 && error.statusCode < 500;
      await markDeliveryFailed(services.db, host, reachable);
    },
    circuitBreaker: {
      failureThreshold: 5,
      failureWindow: { minutes: 30 },
      recoveryDelay: { minutes: 30 },
      heldActivityTtl: { days: 3 },
      async onStateChange(host, _previous, next) {
        if (next === "closed") await markInstanceReachable(services.db, host);
      },
    },
  };
}
