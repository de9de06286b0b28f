// Admin API: a known instance and its delivery health.
import type { InstanceView } from "../../src/domain/instances/instances.ops.ts";

/** An instance's delivery health, as the list and the single view render it. */
export function renderInstance(i: InstanceView) {
  const at = (d: Date | null) => d?.toISOString() ?? null;
  return {
    domain: i.domain,
    software_name: i.softwareName,
    software_version: i.softwareVersion,
    last_success_at: at(i.lastSuccessAt),
    last_failure_at: at(i.lastFailureAt),
    unreachable_since: at(i.unreachableSince),
    failure_count: i.failureCount,
    reachable: i.unreachableSince === null,
    delivery_suspended: i.deliverySuspended,
    // what this server knows of it (extension): accounts and statuses (reblogs excluded)
    users_count: i.users,
    statuses_count: i.statuses,
  };
}
