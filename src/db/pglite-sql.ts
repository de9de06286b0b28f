// Named prepared statements on PGlite, for Prisma's driver adapter and for sql.ts's fast path alike: a
// text that statement-names.ts names (seen three times, at most 300 texts) is parsed and planned once
// under its name, as pg's named statements do on PostgreSQL (docs/performance.md, "Tenth round").
//
// PGlite's `query` sends an unnamed Parse and a Describe of it before every Bind, so PostgreSQL-in-
// WebAssembly parsed and planned the page and status-data statements again on every request: on the home
// timeline that was most of the request's CPU. Here a named text is parsed once and its parameter types
// kept; later runs send only Bind, Describe (the portal's row description, which the result parser reads),
// Execute and Sync, in one call. Other texts go through `query` as before.
//
// What this takes from PGlite beyond `query`: `execProtocolStream`, `_checkReady` and the two locks its own `query` holds
// (`_runExclusiveTransaction`, so that a statement never runs inside another caller's open transaction,
// and `_runExclusiveQuery`), its parsers and serializers, `syncToFs`, and the protocol serializer and
// result parser it exports. All are in its type definitions; the version is pinned (package.json), and
// test/db/pglite-sql.integration.test.ts covers what this relies on.
import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import type { Sql } from "./sql.ts";

const TIMESTAMP = 1114;
const INT8 = 20;

export interface PglitePreparing {
  /** `query`'s answer, the statement prepared under its name when it is one that repeats; `tx`: inside that open transaction */
  run(text: string, params: readonly unknown[], options?: QueryOptions, tx?: Transaction): Promise<Results>;
}

export async function pglitePreparing(db: PGlite, nameOf: (query: { sql: string }) => string | undefined): Promise<PglitePreparing> {
  const { protocol, parse } = await import("@electric-sql/pglite");
  const { serialize } = protocol;
  /** text → its name and its parameters' type oids, once PostgreSQL has it prepared */
  const prepared = new Map<string, { name: string; types: number[] }>();
  /** texts PostgreSQL refused to run prepared (a cached plan whose row type changed): unnamed from then on */
  const unnamed = new Set<string>();

  /** the protocol messages, as one buffer, in one call to the backend */
  const send = (...messages: Uint8Array[]) => db.execProtocolStream(Buffer.concat(messages), { syncToFs: false });

  /** Runs `text` under `name`, parsing it first the first time (inside the query lock). */
  async function runNamed(text: string, name: string, params: readonly unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> {
    let statement = prepared.get(text);
    if (!statement) {
      try {
        const messages = await send(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
        statement = { name, types: parse.parseDescribeStatementResults(messages) };
      } catch (error) {
        // whatever the Parse left under the name goes, so that the next try parses it afresh
        await send(serialize.close({ type: "S", name }), serialize.sync()).catch(() => undefined);
        throw error;
      }
      prepared.set(text, statement);
    }
    const { types } = statement;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const s = options?.serializers?.[types[i]!] ?? db.serializers[types[i]!];
      return s ? s(v) : String(v);
    });
    // one call: the Sync after Execute ends the statement whether it succeeded or not
    const messages = await send(serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync());
    if (!inTransaction) await db.syncToFs();
    return parse.parseResults(messages, db.parsers, options)[0]!;
  }

  return {
    async run(text, params, options, tx) {
      const name = unnamed.has(text) ? undefined : nameOf({ sql: text });
      if (!name) return tx ? tx.query(text, params as unknown[], options) : db.query(text, params as unknown[], options);
      if (tx?.closed) throw new Error("Transaction is closed");
      if (!tx) await db._checkReady(); // as query does: waits for start-up, refuses once closed
      const named = () => db._runExclusiveQuery(() => runNamed(text, name, params, options, !!tx));
      try {
        return await (tx ? named() : db._runExclusiveTransaction(named));
      } catch (error) {
        // a table changed under a kept plan (a migration while running): PostgreSQL will not give it a new row type
        if (!/cached plan must not change result type/.test((error as Error).message)) throw error;
        unnamed.add(text);
        if (tx) throw error; // the transaction is aborted: its caller retries it, unnamed this time
        return db.query(text, params as unknown[], options);
      }
    },
  };
}

/**
 * `db` as Prisma's PGlite adapter sees it: its statements, in transactions too, go through `preparing`;
 * everything else is PGlite's own.
 */
export function preparingClient(db: PGlite, preparing: PglitePreparing): PGlite {
  const inTransaction = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get: (target, key) => (key === "query" ? (text: string, params: unknown[] = [], options?: QueryOptions) => preparing.run(text, params, options, target) : Reflect.get(target, key)),
    });
  return new Proxy(db, {
    get(target, key) {
      if (key === "query") return (text: string, params: unknown[] = [], options?: QueryOptions) => preparing.run(text, params, options);
      if (key === "transaction") return <T>(fn: (tx: Transaction) => Promise<T>) => target.transaction((tx) => fn(inTransaction(tx)));
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * sql.ts's fast path on PGlite: results read like its pool path's (timestamp(3) as a UTC Date, int8 as
 * bigint, json parsed), parameters sent alike (a Date as its UTC ISO text, a bigint as text).
 */
export function pgliteSql(preparing: PglitePreparing, tell: (sql: string) => void): Sql {
  const parsers = { [TIMESTAMP]: (value: string) => new Date(`${value.replace(" ", "T")}Z`), [INT8]: (value: string) => BigInt(value) };
  const run = (text: string, given: readonly unknown[] = []) => {
    tell(text);
    const params = given.map((v) => (v instanceof Date ? v.toISOString() : typeof v === "bigint" ? v.toString() : v));
    return preparing.run(text, params, { parsers });
  };
  return {
    query: async <T>(text: string, params?: readonly unknown[]) => (await run(text, params)).rows as T[],
    execute: async (text, params) => (await run(text, params)).affectedRows ?? 0,
  };
}
