// One place that turns a database URL into a Prisma client:
//   postgresql://…        → PostgreSQL through @prisma/adapter-pg
//   pglite:<dir>           → embedded PGlite persisted in <dir> (memory:// for throwaway databases)
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "../generated/prisma/client.ts";
import { refusingWhenClosed } from "./closed-transactions.ts";
import { applyMigrations } from "./migrate.ts";
import { announcingWrites } from "./row-writes.ts";
import { isPostgres, openPglite } from "./pglite-open.ts";
import { pglitePreparing, pgliteSql, preparingClient } from "./pglite-sql.ts";
import { poolSql, registerSql } from "./sql.ts";
import { openPool, type PoolTimeouts } from "./pg-pool.ts";
import { statementNameGenerator } from "./statement-names.ts";
import { retryingUpserts } from "./upsert-retry.ts";

/** The client the app uses. */
export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** Applies committed migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** connection pool figures for the healthcheck */
  poolStats(): { size: number; active: number; idle: number };
  /** calls `listener` for every SQL statement until the returned function is called (tests count N+1s) */
  onQuery(listener: (sql: string) => void): () => void;
  close(): Promise<void>;
}

/** A migration-capable adapter factory with its own connections (used by the migration runner). */
export async function adapterFactory(url: string): Promise<{ factory: SqlMigrationAwareDriverAdapterFactory; close: () => Promise<void> }> {
  if (isPostgres(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return { factory: wholeScripts(new PrismaPg({ connectionString: url })), close: async () => {} };
  }
  const pglite = await openPglite(url);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  return { factory: new PrismaPGlite(pglite), close: () => pglite.close() };
}

/**
 * adapter-pg runs a migration script by splitting it on every ";", which breaks function bodies and
 * comments; PostgreSQL runs a multi-statement script itself (and atomically), so send it whole.
 */
function wholeScripts(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  type Patchable = { executeScript(script: string): Promise<void>; client: { query(sql: string): Promise<unknown> }; onError(e: unknown): never };
  const patch = <T>(adapter: T): T => {
    const a = adapter as unknown as Patchable;
    a.executeScript = async (script) => {
      try {
        await a.client.query(script);
      } catch (error) {
        a.onError(error);
      }
    };
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  const shadow = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => patch(await connect());
  factory.connectToShadowDb = async () => patch(await shadow());
  return factory;
}

/**
 * The client, and `onQuery` fed by the driver adapter itself: every statement the client sends passes
 * through the adapter's queryRaw/executeRaw (also inside transactions). Prisma's own query log would do
 * the same, but formats an event for every statement whether anyone listens or not (about 0.15 ms of CPU
 * per statement, measured: docs/performance.md, "Federation"); this costs one empty check when nobody does.
 */
function newClient(adapter: SqlDriverAdapterFactory) {
  const listeners = new Set<(sql: string) => void>();
  // Prisma's defaults (2 s to get a connection, 5 s to finish) made transactional writes the first to fail
  // under load: every other query waits up to 5 s for a pooled connection (connectionTimeoutMillis), and
  // our transactions hold only SQL, so only a starved event loop makes them slow. A transaction now waits
  // as long as any query for its connection and has 10 s to finish; past that it is rolled back, the
  // statements its callback still sends are refused (closed-transactions.ts), and the request answers 503
  // (src/http/faults.ts). Measured in the soak (docs/performance.md, "Soak").
  // upserts retried on a unique violation (upsert-retry.ts), under the announcements, which wrap $transaction
  const prisma = announcingWrites(retryingUpserts(new PrismaClient({ adapter: observed(adapter, listeners), transactionOptions: { maxWait: 5_000, timeout: 10_000 } })));
  const onQuery = (listener: (sql: string) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return { prisma, onQuery, tell: (sql: string) => tellAll(listeners, sql) };
}

function tellAll(listeners: Set<(sql: string) => void>, sql: string) {
  // transaction control is left out (adapter-pg sends COMMIT through executeRaw, PGlite's adapter does not)
  if (listeners.size && !/^(COMMIT|ROLLBACK)\b/.test(sql)) for (const l of listeners) l(sql);
}

type Queryable = { queryRaw(q: { sql: string }): Promise<unknown>; executeRaw(q: { sql: string }): Promise<unknown> };

function observed(factory: SqlDriverAdapterFactory, listeners: Set<(sql: string) => void>): SqlDriverAdapterFactory {
  const tell = (sql: string) => tellAll(listeners, sql);
  const watch = <T extends Queryable>(q: T): T => {
    const query = q.queryRaw.bind(q);
    const execute = q.executeRaw.bind(q);
    q.queryRaw = (statement) => (tell(statement.sql), query(statement));
    q.executeRaw = (statement) => (tell(statement.sql), execute(statement));
    return q;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = watch(await connect());
    const begin = adapter.startTransaction.bind(adapter);
    // and a transaction refuses the statements that reach it after Prisma closed it (closed-transactions.ts)
    adapter.startTransaction = async (isolationLevel) => refusingWhenClosed(watch(await begin(isolationLevel)));
    return adapter;
  };
  return factory;
}

export async function openDatabase(url: string, timeouts: PoolTimeouts = {}): Promise<Database> {
  if (isPostgres(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const pool = await openPool(url, timeouts);
    const names = statementNameGenerator();
    const { prisma, onQuery, tell } = newClient(new PrismaPg(pool, { statementNameGenerator: names }));
    registerSql(prisma, await poolSql(pool, tell, names));
    return {
      prisma,
      onQuery,
      kind: "postgres",
      // separate connections: the engine's advisory lock must not stay on a pooled connection
      migrate: async () => {
        const { factory } = await adapterFactory(url);
        return applyMigrations(factory);
      },
      poolStats: () => ({ size: pool.options.max ?? 10, active: pool.totalCount - pool.idleCount, idle: pool.idleCount }),
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const pglite = await openPglite(url);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  // one set of named statements for Prisma's adapter and the fast path: a text has one name on the one connection
  const preparing = await pglitePreparing(pglite, statementNameGenerator());
  const factory = new PrismaPGlite(preparingClient(pglite, preparing));
  const { prisma, onQuery, tell } = newClient(factory);
  registerSql(prisma, pgliteSql(preparing, tell));
  return {
    prisma,
    onQuery,
    kind: "pglite",
    migrate: () => applyMigrations(factory),
    poolStats: () => ({ size: 1, active: 0, idle: 1 }),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
