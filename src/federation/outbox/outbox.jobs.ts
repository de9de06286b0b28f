// The outbox job: one per federated action (queued by `federate`), run outside any request.
import { FEDERATE_JOB, type FederationIntent } from "../../domain/federation/outbox.ts";
import type { JobDefinition } from "../../jobs/registry.ts";
import { inFederation } from "../federation.ts";
import { deliverIntent } from "./deliver.ts";

export const outboxJobs: JobDefinition[] = [
  {
    name: FEDERATE_JOB,
    handler: (services) => (intent: FederationIntent) => inFederation(services, (fctx) => deliverIntent(services, fctx, intent)),
  },
];
