// Failures of what the server stands on, not of the request: the database unreachable (restart,
// failover, network) or the server too busy to finish a transaction in time answer 503 with
// Retry-After, a full disk 507 — all in the family's `{error}` shape, logged once per kind and minute
// rather than with a stack per request. Anything else is left to the caller (a 500). See
// docs/security.md ("Faults").
import type { Response } from "express";
import { ROLLED_BACK_UNDER_CALLBACK } from "../db/closed-transactions.ts";

/**
 * Error codes of a database that cannot serve us now: sockets; PostgreSQL's shutting down or starting up
 * (57P01 admin shutdown, e.g. pg_terminate_backend; 57P02 crash; 57P03 cannot connect now), not in a state
 * to (55000, e.g. a standby or a database refusing connections), out of connections (53300); Prisma's.
 * PostgreSQL's whole connection-exception class 08 is matched by its prefix (DATABASE_DOWN_CLASS).
 */
const DATABASE_DOWN_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN",
  "57P01", "57P02", "57P03", "55000", "53300",
  "P1001", "P1002", "P1008", "P1017", "P2024",
]);
const DATABASE_DOWN_CLASS = /^08[0-9A-Z]{3}$/;
/**
 * A statement PostgreSQL cancelled at the statement timeout (57014) or a lock not had within the lock
 * timeout (55P03; src/db/pg-pool.ts): the server is too busy to finish now, nothing was stored.
 */
const TOO_SLOW_CODES = new Set(["57014", "55P03"]);
const DATABASE_DOWN_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "DatabaseUnavailable"]);
const DATABASE_DOWN_MESSAGE = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|Server has closed the connection|Client has encountered a connection error|the database system is (shutting down|starting up)|terminating connection due to administrator command/i;
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);
/**
 * Prisma's "Transaction API error" (P2028) of a transaction that could not get a connection within
 * `maxWait` or did not finish within `timeout` (src/db/client.ts). Either way it was rolled back and
 * nothing was stored, so the honest answer is "busy, try again", not an internal error (seen in the soak
 * under load). Its other forms (a transaction used after it closed) are bugs and stay 500s.
 */
const TRANSACTION_TIMEOUT_CODE = "P2028";
const TRANSACTION_TIMEOUT_MESSAGE = /Unable to start a transaction in the given time|on an expired transaction/;
/**
 * The same expiry met by a statement of a call already under way when Prisma rolled back (a create with
 * nested rows, a read-back): src/db/closed-transactions.ts refuses it with this message, as P1018 ("transaction
 * already closed") from a model call, P2010 from a raw one. Not any P1018, and never what such a statement
 * would have met had it run (an FK violation): only what can be traced to the rollback.
 */
const ROLLED_BACK_CODES = new Set<string | undefined>(["P1018", "P2010"]);

export type Fault = { status: 503 | 507; body: { error: string }; retryAfter?: number; kind: "database unavailable" | "overloaded" | "disk full" };

/**
 * Every error of the `cause` chain (Prisma and the pg adapter wrap the socket's error; a model call that
 * failed inside an interactive transaction is a P2039 whose PostgreSQL error is `meta.driverAdapterError`).
 */
function* chain(error: unknown, seen = new Set<unknown>()): Generator<any> {
  const current: any = error;
  if (!current || typeof current !== "object" || seen.has(current)) return;
  seen.add(current);
  yield current;
  if (current instanceof AggregateError) for (const e of current.errors) yield* chain(e, seen);
  for (const next of [current.cause, current.originalError, current.meta?.driverAdapterError]) yield* chain(next, seen);
}

/** The 503 or 507 answer for an infrastructure failure, or undefined when `error` is something else. */
export function faultOf(error: unknown): Fault | undefined {
  for (const e of chain(error)) {
    // adapter-pg keeps PostgreSQL's SQLSTATE as `originalCode` of the error it rethrows
    const code = typeof e.code === "string" ? e.code : typeof e.originalCode === "string" ? e.originalCode : undefined;
    if (code && DISK_FULL_CODES.has(code)) return { status: 507, body: { error: "Insufficient storage: the server's disk is full, nothing was stored" }, kind: "disk full" };
    if ((code && (DATABASE_DOWN_CODES.has(code) || DATABASE_DOWN_CLASS.test(code))) || DATABASE_DOWN_KINDS.has(e.kind) || (typeof e.message === "string" && DATABASE_DOWN_MESSAGE.test(e.message))) {
      return { status: 503, body: { error: "Service unavailable: the database cannot be reached, try again shortly" }, retryAfter: 5, kind: "database unavailable" };
    }
    const message = typeof e.message === "string" ? e.message : "";
    const expired = (code !== undefined && TOO_SLOW_CODES.has(code)) || (code === TRANSACTION_TIMEOUT_CODE && TRANSACTION_TIMEOUT_MESSAGE.test(message)) || (ROLLED_BACK_CODES.has(code) && message.includes(ROLLED_BACK_UNDER_CALLBACK));
    if (expired) {
      return { status: 503, body: { error: "Service unavailable: the server is too busy to store this now, nothing was stored; try again shortly" }, retryAfter: 5, kind: "overloaded" };
    }
  }
  return undefined;
}

const lastLogged = new Map<Fault["kind"], number>();

/** Answers a fault (and logs it at most once a minute per kind); false when `error` is not one. */
export function sendFault(res: Response, error: unknown): boolean {
  const fault = faultOf(error);
  if (!fault) return false;
  const now = Date.now();
  if ((lastLogged.get(fault.kind) ?? 0) < now - 60_000) {
    lastLogged.set(fault.kind, now);
    console.error(`${fault.kind}: ${(error as Error)?.message ?? error}`);
  }
  if (res.headersSent) return true;
  if (fault.retryAfter) res.set("Retry-After", String(fault.retryAfter));
  res.status(fault.status).type("application/json").json(fault.body);
  return true;
}
