// The PostgreSQL connection pool and what keeps it healthy through network faults. A network that
// silently drops packets (a half-open connection: no RST, no FIN) leaves a statement waiting for an
// answer that never comes; without a bound the pool's connections are taken one by one, every request
// then waits for a free one and fails, and nothing ever gives them back (seen: 503s until a restart).
// So:
// - a statement the server is still running is cancelled by PostgreSQL after `statementTimeoutMs`, and a
//   lock waited for longer than `lockTimeoutMs` fails (both answer 503: src/http/faults.ts);
// - a connection that has a statement outstanding and has heard nothing for that long plus a margin is
//   destroyed here: its statements fail (503) and the pool replaces it. The database would have
//   answered by then (a result or the timeout's error), so the silence means the connection is dead;
// - TCP keepalive finds dead idle connections where the network allows, idle connections are closed
//   after a while, and a new connection that cannot be made within 5 s fails (503) instead of waiting.
// PostgreSQL's own TCP keepalive (its tcp_keepalives_* settings) ends its side of such connections.
import type net from "node:net";
import type { Pool, PoolClient } from "pg";

export interface PoolTimeouts {
  /** PostgreSQL's statement_timeout for the pool's connections (0: none) */
  statementTimeoutMs?: number;
  /** PostgreSQL's lock_timeout (0: none) */
  lockTimeoutMs?: number;
}

/** How long past the statement timeout a silent connection is still given before it is destroyed. */
export const SILENCE_MARGIN_MS = 5_000;
export const CONNECT_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 10_000;
const KEEPALIVE_DELAY_MS = 10_000;

export async function openPool(url: string, timeouts: PoolTimeouts = {}): Promise<Pool> {
  const pg = (await import("pg")).default;
  const { statementTimeoutMs = 0, lockTimeoutMs = 0 } = timeouts;
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(new URL(url).searchParams.get("connection_limit") ?? 10),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    ...(lockTimeoutMs ? { lock_timeout: lockTimeoutMs } : {}),
  });
  // an idle connection the server drops (restart, failover) must not crash the process; the pool replaces it
  pool.on("error", (error) => console.error(`database connection lost: ${error.message}`));
  if (statementTimeoutMs) pool.on("connect", (client) => destroyWhenSilent(client, statementTimeoutMs + SILENCE_MARGIN_MS));
  return pool;
}

/** Destroys `client`'s socket when a statement is outstanding and nothing was read or written for `ms`. */
function destroyWhenSilent(client: PoolClient, ms: number) {
  const internals = client as unknown as { connection: { stream: net.Socket }; _getActiveQuery(): unknown; _queryQueue: unknown[] };
  const socket = internals.connection.stream;
  // the socket's idle timer restarts on every read and write; it fires once per silence
  socket.setTimeout(ms);
  socket.on("timeout", () => {
    if (!internals._getActiveQuery() && internals._queryQueue.length === 0) return; // idle in the pool: fine
    const error = Object.assign(new Error(`Connection terminated: no answer from the database for ${ms} ms`), { code: "ETIMEDOUT" });
    socket.destroy(error);
  });
}
