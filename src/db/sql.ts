// Plain SQL straight to the PostgreSQL pool, for the few fixed statements that run several times per
// federation activity and per background job (the job queue, Fedify's KV store). Prisma's $queryRaw
// costs about twice the CPU of the statement itself through the bare driver (0.2 ms against 0.08 ms,
// docs/performance.md, "Federation"); on these paths that was a tenth of the inbox's CPU.
//
// Results read like $queryRaw's for the types these statements use: timestamp(3) columns (Prisma's
// UTC-without-zone convention) as Dates in UTC, jsonb parsed, int8 as bigint. Dates in parameters are
// sent as UTC ISO strings, which a timestamp column takes as the UTC wall time, as Prisma writes it.
// On PGlite the same fast path is pglite-sql.ts (named statements there too); clients opened otherwise go
// through Prisma's own raw calls.
import type { Pool, QueryResult } from "pg";
import type { Prisma, PrismaClient } from "../generated/prisma/client.ts";

export interface Sql {
  /** rows of a statement with `$1`… placeholders */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** the number of rows a statement changed */
  execute(text: string, params?: readonly unknown[]): Promise<number>;
}

const direct = new WeakMap<object, Sql>();

/** The fast path for `prisma`, registered when the database is opened (src/db/client.ts). */
export function registerSql(prisma: PrismaClient, sql: Sql): void {
  direct.set(prisma, sql);
}

export function sqlFor(prisma: PrismaClient): Sql {
  return (
    direct.get(prisma) ?? {
      query: <T>(text: string, params: readonly unknown[] = []) => prisma.$queryRawUnsafe<T[]>(text, ...params),
      execute: (text, params = []) => prisma.$executeRawUnsafe(text, ...params),
    }
  );
}

/**
 * The rows of a statement built with Prisma.sql, through the fast path when there is one. For the
 * statements every request of a hot read sends (a timeline page, its status data): each $queryRaw call
 * costs Prisma's runtime on top of the driver's. `db` may be a transaction client: it then has no fast
 * path, and the statement runs in the transaction through Prisma.
 */
export function rows<T>(db: PrismaClient | Prisma.TransactionClient, sql: Prisma.Sql): Promise<T[]> {
  const fast = direct.get(db);
  return fast ? fast.query<T>(sql.text, sql.values) : db.$queryRaw<T[]>(sql);
}

const TIMESTAMP = 1114;
const INT8 = 20;
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === TIMESTAMP) return (value: string) => new Date(`${value.replace(" ", "T")}Z`);
    if (oid === INT8) return (value: string) => BigInt(value);
    return defaultParser(oid, format);
  },
};
let defaultParser: (oid: number, format?: string) => (value: string) => unknown = () => (value) => value;

const param = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === "bigint" ? value.toString() : value);

/**
 * The fast path over a pg pool; `tell` sees every statement (the tests' statement counts). `nameOf`
 * (statement-names.ts, the same generator as Prisma's adapter, so one text has one name) names the texts
 * that repeat: PostgreSQL then plans them once per connection (the bigger fixed statements here, notify's
 * and loadRelationships', cost more to plan than to run).
 */
export async function poolSql(pool: Pool, tell: (sql: string) => void, nameOf?: (query: { sql: string }) => string | undefined): Promise<Sql> {
  const pg = (await import("pg")).default;
  defaultParser = pg.types.getTypeParser as typeof defaultParser;
  const run = (text: string, params: readonly unknown[] = []): Promise<QueryResult> => {
    tell(text);
    const name = nameOf?.({ sql: text });
    return pool.query({ text, values: params.map(param), types, ...(name ? { name } : {}) });
  };
  return {
    query: async <T>(text: string, params?: readonly unknown[]) => (await run(text, params)).rows as T[],
    execute: async (text, params) => (await run(text, params)).rowCount ?? 0,
  };
}
