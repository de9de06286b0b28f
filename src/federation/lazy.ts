// Fedify — its ActivityStreams vocabulary, JSON-LD processor and Temporal polyfill — costs about 50 MB
// of resident memory and a good part of start-up once imported. The server reaches it only through the
// three doors below (the ActivityPub middleware in mount.ts imports it itself), each importing the
// federation modules on first use, so a process that has not federated yet does not carry it
// (issue 17: idle memory). test/contracts/lazy-federation.unit.test.ts keeps every other static import
// path from the server's entry to Fedify closed.
import { importKeepingBuiltins } from "../kernel/native-builtins.ts";
import type { FederationPort } from "../domain/federation/port.ts";
import type { Services } from "../domain/context.ts";
import type { JobHandler } from "../jobs/queue.ts";
import type { JobDefinition } from "../jobs/registry.ts";
import { FEDERATE_JOB } from "../domain/federation/outbox.ts";
import { FEDERATION_TASK_JOB } from "./message-queue.ts";
import { REFRESH_ACCOUNT_JOB } from "./resolve.job-names.ts";

/** The FederationPort of resolve.ts, built on its first call. */
export function lazyFederationPort(services: Services): FederationPort {
  let port: Promise<FederationPort> | undefined;
  const real = () => (port ??= importKeepingBuiltins(() => import("./resolve.ts")).then((m) => m.createFederationPort(services)));
  return {
    resolveAccount: async (ctx, handleOrUrl) => (await real()).resolveAccount(ctx, handleOrUrl),
    resolveObject: async (ctx, url) => (await real()).resolveObject(ctx, url),
    fetchAncestors: async (ctx, status, opts) => (await real()).fetchAncestors(ctx, status, opts),
    refreshAccount: async (ctx, accountId) => (await real()).refreshAccount(ctx, accountId),
    scheduleRefresh: async (ctx, accountId) => (await real()).scheduleRefresh(ctx, accountId),
    subscribeTemplate: async (ctx, handle) => (await real()).subscribeTemplate(ctx, handle),
  };
}

/** A job whose handler lives in a federation module, imported when the first job of its name runs. */
function lazyJob(name: string, load: () => Promise<JobDefinition[]>): JobDefinition {
  return {
    name,
    handler: (services) => {
      let handler: Promise<JobHandler> | undefined;
      return async (payload, job) => {
        handler ??= load().then((defs) => defs.find((d) => d.name === name)!.handler(services));
        return (await handler)(payload, job);
      };
    },
  };
}

/** The federation adapter's jobs (outbox, Fedify's queued tasks, remote refreshes), loaded lazily. */
export const federationAdapterJobs: JobDefinition[] = [
  lazyJob(FEDERATE_JOB, async () => (await importKeepingBuiltins(() => import("./outbox/outbox.jobs.ts"))).outboxJobs),
  lazyJob(FEDERATION_TASK_JOB, async () => (await importKeepingBuiltins(() => import("./federation.jobs.ts"))).federationJobs),
  lazyJob(REFRESH_ACCOUNT_JOB, async () => (await importKeepingBuiltins(() => import("./resolve.jobs.ts"))).resolveJobs),
];
