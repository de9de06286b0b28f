// Where ctl's commands go: the running server over tRPC (found through <DATA_DIR>/server.json, which the
// server writes with a per-start secret), or, with no server running, the database itself. Both run the
// same operations (src/trpc/ctl-ops.ts); results cross JSON either way, so both print alike.
import fs from "node:fs";
import path from "node:path";
import { createTRPCClient, httpLink } from "@trpc/client";
import type { Settings } from "../config/env.ts";
import type { TaskView } from "../domain/tasks/tasks.ops.ts";
import type { AppRouter } from "../trpc/router.ts";
import type { CtlOpName } from "../trpc/ctl-ops.ts";

export interface Backend {
  /** "server at <url>" or "database <kind>" */
  via: string;
  /** true when a server runs the work (long tasks are its jobs) */
  remote: boolean;
  call<T = any>(name: CtlOpName, input?: unknown): Promise<T>;
  /** runs a task in this process (no server), reporting progress */
  runTask(id: string, onProgress: (task: TaskView) => void): Promise<TaskView>;
  close(): Promise<void>;
}

const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null));

export async function openBackend(settings: Settings, opts: { offline?: boolean } = {}): Promise<Backend> {
  return (!opts.offline && (await remoteBackend(settings))) || (await localBackend(settings));
}

async function remoteBackend(settings: Settings): Promise<Backend | null> {
  const file = path.join(settings.dataDir, "server.json");
  if (!fs.existsSync(file)) return null;
  const { url, ctlSecret } = JSON.parse(fs.readFileSync(file, "utf8"));
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, headers: { "x-ctl-secret": ctlSecret } })] });
  try {
    await client.ctl.ping.query();
  } catch (error: any) {
    if (error?.data?.code === "UNAUTHORIZED") throw new Error(`the server at ${url} refused ctl credentials`);
    return null; // a stale file from a server that is gone
  }
  return {
    via: `server at ${url}`,
    remote: true,
    call: (name, input) => client.ctl.run.mutate({ name, input: input ?? {} }) as Promise<any>,
    runTask: () => Promise.reject(new Error("the server runs tasks")),
    close: async () => {},
  };
}

async function localBackend(settings: Settings): Promise<Backend> {
  const { openDatabase } = await import("../db/client.ts");
  const { createJobQueue, jobsPrefix } = await import("../jobs/index.ts");
  const { createBus } = await import("../realtime/bus.ts");
  const { channelPrefix } = await import("../realtime/redis-bus.ts");
  const { loadRuntimeConfig } = await import("../config/runtime.ts");
  const { createMailer } = await import("../mail/mailer.ts");
  const { systemCtx } = await import("../domain/context.ts");
  const { ctlOps } = await import("../trpc/ctl-ops.ts");
  const { runTask } = await import("../domain/tasks/tasks.ops.ts");
  const { followRowWrites } = await import("../domain/row-caches.ts");
  const { prepareDataDir, holdDataDir } = await import("../kernel/data-dir.ts");
  const { checkMigrationsPresent, databaseStartupFailure, probePostgres } = await import("../db/startup-errors.ts");
  prepareDataDir(settings.dataDir);
  // the embedded database is one process's: while a server holds it, ctl goes through that server or refuses
  const { isPostgres } = await import("../db/pglite-open.ts");
  const releaseDataDir = isPostgres(settings.databaseUrl) ? () => {} : holdDataDir(settings.dataDir, "ctl");
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    checkMigrationsPresent();
    await probePostgres(settings.databaseUrl);
    database = await openDatabase(settings.databaseUrl).catch((error) => {
      throw databaseStartupFailure(error, settings.databaseUrl);
    });
    await database.migrate().catch(async (error) => {
      await database.close().catch(() => {});
      throw databaseStartupFailure(error, settings.databaseUrl);
    });
  } catch (error) {
    releaseDataDir();
    throw error;
  }
  const jobs = createJobQueue({ prisma: database.prisma, redisUrl: settings.redisUrl, redis: { prefix: jobsPrefix(settings) } }); // enqueue only, never started
  const config = await loadRuntimeConfig(database.prisma, settings);
  // with Redis, what ctl publishes reaches the running servers as their own events do
  const bus = createBus(settings.redisUrl ? { url: settings.redisUrl, prefix: channelPrefix(settings) } : undefined);
  const services = { db: database.prisma, database, settings, config, jobs, mailer: createMailer(settings, config), bus, clock: () => new Date() };
  // ctl's writes to accounts and tokens (suspensions, roles, revocations) reach the servers' row caches (with Redis)
  const stopFollowingRowWrites = followRowWrites(services);
  return {
    via: `database ${database.kind}`,
    remote: false,
    call: async (name, input) => viaJson(await ctlOps[name](systemCtx(services), input ?? {})) as any,
    runTask: async (id, onProgress) => viaJson(await runTask(services, id, onProgress)),
    close: async () => {
      await jobs.stop();
      stopFollowingRowWrites();
      await bus.close();
      await database.close();
      releaseDataDir();
    },
  };
}
