// The Fedify federation of one server: built once per set of services (tests run several servers in
// one process), on our database (KvStore) and our job queue (MessageQueue). Fedify's own address
// checks are off because every request it makes goes through our guarded client (src/net/outbound.ts),
// which applies `http.allow_private_addresses`; Fedify keeps signatures, JSON-LD, WebFinger and retries.
import "./node-compat.ts";
import { createExponentialBackoffPolicy, createFederation, type Context, type Federation } from "@fedify/fedify";
import type { Services } from "../domain/context.ts";
import { userAgent } from "../net/guarded-fetch.ts";
import { withGuard } from "../net/outbound.ts";
import { registerActors } from "./actors.ts";
import { registerCollections } from "./collections.ts";
import { registerInbox } from "./inbox/index.ts";
import { DbKvStore } from "./kv-store.ts";
import { shareLoaders } from "./loaders.ts";
import { parseKeysOnce } from "./parsed-keys.ts";
import { JobMessageQueue } from "./message-queue.ts";
import { deliveryPolicy } from "./outbox/policy.ts";

export type FederationContext = Context<Services>;

const federations = new WeakMap<Services, Federation<Services>>();

export function federationFor(services: Services): Federation<Services> {
  let federation = federations.get(services);
  if (!federation) {
    federation = buildFederation(services);
    federations.set(services, federation);
  }
  return federation;
}

function buildFederation(services: Services): Federation<Services> {
  const kv = new DbKvStore(services.db);
  const federation = createFederation<Services>({
    kv,
    queue: new JobMessageQueue(services.jobs),
    manuallyStartQueue: true,
    origin: services.settings.baseUrl,
    allowPrivateAddress: true, // our guarded client decides (see above)
    userAgent: userAgent(services.settings),
    // RFC 9421 first; Fedify falls back to draft-cavage for peers that refuse it and remembers the answer per server
    firstKnock: "rfc9421",
    // deliveries are retried over about a day: 30 s doubling to a 6-hour ceiling (12 tries, ~20 h)
    outboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 12, initialDelay: { seconds: services.settings.federationRetryInitialSeconds ?? 30 }, maxDelay: { hours: 6 } }),
    // per-instance delivery health (see outbox/health.ts and docs/federation.md, "Delivery")
    ...deliveryPolicy(services),
    inboxRetryPolicy: createExponentialBackoffPolicy({ maxAttempts: 6, initialDelay: { seconds: 10 }, maxDelay: { hours: 1 } }),
  });
  shareLoaders(federation);
  parseKeysOnce();
  registerActors(federation);
  registerCollections(federation);
  registerInbox(federation);
  return federation;
}

/** A Fedify context for work outside a request (jobs, domain calls), at the server's public URL. */
export function federationContext(services: Services): FederationContext {
  return federationFor(services).createContext(new URL(services.settings.baseUrl), services);
}

/** Runs federation work with every outbound request going through the guarded client of `services`. */
export function inFederation<T>(services: Services, fn: (ctx: FederationContext) => Promise<T>): Promise<T> {
  return withGuard(services, () => fn(federationContext(services)));
}
