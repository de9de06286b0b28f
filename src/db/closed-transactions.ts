// Statements of an interactive transaction (`prisma.$transaction(async (tx) => …)`) that arrive after
// Prisma has closed it are refused here, with an error that says why.
//
// Why: Prisma checks that the transaction is open when a `tx.…` call starts, not before each statement of
// the call. One call can send several (a status created with its tags: INSERT the status, INSERT its
// status_tags, SELECT it back), and when the transaction expires (`timeout`, src/db/client.ts) or the client
// disconnects while the call runs, Prisma sends ROLLBACK and gives the connection back to the pool
// (adapter-pg's rollback() releases it) — and the rest of the call's statements then go to that
// connection all the same: outside any transaction (autocommit: an FK violation on status_tags, an empty
// read-back that makes `create` return null), or, once another request has taken the connection, inside
// that request's transaction. Refusing them keeps them out of the database and makes the request fail with an error
// src/http/faults.ts answers as 503 "too busy, nothing was stored" (test/faults/overload.integration.test.ts).
//
// The transaction counts as closed from the moment Prisma sends its COMMIT or ROLLBACK (adapter-pg: a
// statement, queued on the connection behind the one still running) or calls commit()/rollback() (PGlite's
// adapter sends no statement), so nothing can slip in between.
import { DriverAdapterError, type Transaction } from "@prisma/driver-adapter-utils";

/**
 * What a statement refused after Prisma's ROLLBACK says (faults.ts matches it). Prisma rolls back under a
 * running callback only when the transaction expired or the client is disconnecting — either way nothing
 * of it was stored. (A rollback after the callback failed leaves it nothing more to send that anyone awaits.)
 */
export const ROLLED_BACK_UNDER_CALLBACK = "the transaction was rolled back while its callback was still running (it expired, or the client disconnected); this statement was not sent";

/** `tx` (a driver adapter's transaction) refusing statements once Prisma has closed it. */
export function refusingWhenClosed<T extends Transaction>(tx: T): T {
  let closed: "committed" | "rolled back" | undefined;
  const refused = () =>
    new DriverAdapterError({
      kind: "TransactionAlreadyClosed", // Prisma's P1018, with `cause` as its message
      cause: closed === "rolled back" ? `Transaction already closed: ${ROLLED_BACK_UNDER_CALLBACK}` : "Transaction already closed: a statement was sent after its transaction was committed; it was not sent",
    });
  const query = tx.queryRaw.bind(tx);
  const execute = tx.executeRaw.bind(tx);
  const commit = tx.commit.bind(tx);
  const rollback = tx.rollback.bind(tx);
  tx.queryRaw = (statement) => (closed ? Promise.reject(refused()) : query(statement));
  tx.executeRaw = (statement) => {
    if (closed) return Promise.reject(refused());
    // Prisma's own closing statements (not ROLLBACK TO SAVEPOINT: a nested transaction goes on)
    if (statement.sql === "COMMIT") closed = "committed";
    if (statement.sql === "ROLLBACK") closed = "rolled back";
    return execute(statement);
  };
  tx.commit = () => ((closed ??= "committed"), commit());
  // also after a COMMIT that failed: then the transaction was rolled back
  tx.rollback = () => ((closed = "rolled back"), rollback());
  return tx;
}
