// Which errors are faults of what the server stands on (503/507) rather than bugs (500): Prisma's
// transaction timeouts (and the statements refused after one) are "busy, try again"; its other
// transaction errors stay bugs.
import { describe, expect, test } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.ts";
import { ROLLED_BACK_UNDER_CALLBACK } from "../../src/db/closed-transactions.ts";
import { faultOf } from "../../src/http/faults.ts";

const prismaError = (code: string, message: string) => new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7.10.0" });

describe("faultOf", () => {
  test("a transaction that could not start or finish in time: 503 overloaded, with Retry-After", () => {
    for (const message of [
      "Transaction API error: Unable to start a transaction in the given time.",
      "Transaction API error: A commit cannot be executed on an expired transaction. The timeout for this transaction was 10000 ms, however 10090 ms passed since the start of the transaction.",
    ]) {
      expect(faultOf(prismaError("P2028", message))).toMatchObject({ status: 503, retryAfter: 5, kind: "overloaded", body: { error: expect.stringMatching(/too busy.*nothing was stored/) } });
    }
  });

  test("a statement refused after Prisma rolled back under a running call (src/db/closed-transactions.ts): 503 overloaded", () => {
    // as Prisma words it for a model call (P1018, the adapter's message) and for a raw one (P2010)
    expect(faultOf(prismaError("P1018", `\nInvalid \`prisma.status.create()\` invocation:\n\n\nTransaction already closed: ${ROLLED_BACK_UNDER_CALLBACK}`))).toMatchObject({ status: 503, kind: "overloaded" });
    expect(faultOf(prismaError("P2010", `Raw query failed. Code: \`N/A\`. Message: \`Transaction already closed: ${ROLLED_BACK_UNDER_CALLBACK}\``))).toMatchObject({ status: 503, kind: "overloaded" });
  });

  test("what follows a rollback but cannot be traced to it stays a 500: a statement after a commit, an FK violation", () => {
    expect(faultOf(prismaError("P1018", "Transaction already closed: a statement was sent after its transaction was committed; it was not sent"))).toBeUndefined();
    expect(faultOf(prismaError("P2003", "Foreign key constraint violated on the constraint: `status_tags_status_id_fkey`"))).toBeUndefined();
  });

  test("other transaction errors and unique violations are bugs, not faults", () => {
    expect(faultOf(prismaError("P2028", "Transaction API error: Transaction already closed: A query cannot be executed on a closed transaction."))).toBeUndefined();
    expect(faultOf(prismaError("P2002", "Unique constraint failed on the fields: (`uri`)"))).toBeUndefined();
  });

  test("the database away and the disk full keep their answers", () => {
    expect(faultOf(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toMatchObject({ status: 503, kind: "database unavailable" });
    expect(faultOf(new Error("wrapped", { cause: Object.assign(new Error("no space"), { code: "ENOSPC" }) }))).toMatchObject({ status: 507, kind: "disk full" });
  });

  test("every 'database unavailable' class answers 503: refused (55000), shutting down (57P01–57P03), connection exceptions (08xxx), as adapter-pg rethrows them", () => {
    for (const code of ["55000", "57P01", "57P02", "57P03", "08000", "08006", "08P01"]) {
      const driverError = new Error("wrapped by Prisma", { cause: { kind: "postgres", originalCode: code, originalMessage: "from PostgreSQL" } });
      expect(faultOf(driverError), code).toMatchObject({ status: 503, retryAfter: 5, kind: "database unavailable" });
    }
  });

  test("a statement cancelled at the statement timeout (57014) or a lock not had in time (55P03): 503 overloaded", () => {
    for (const code of ["57014", "55P03"]) expect(faultOf(Object.assign(new Error("canceling statement"), { code })), code).toMatchObject({ status: 503, kind: "overloaded" });
  });

  test("a model call inside a transaction (P2039) carries PostgreSQL's code in meta.driverAdapterError", () => {
    // the shape a post's status.create raised when the lock timeout ended its wait (a 500 before)
    const driverAdapterError = new Error("canceling statement due to lock timeout", { cause: { kind: "postgres", originalCode: "55P03" } });
    const prismaError = Object.assign(new Error("Invalid `prisma.status.create()` invocation"), { code: "P2039", meta: { modelName: "Status", driverAdapterError } });
    expect(faultOf(prismaError)).toMatchObject({ status: 503, retryAfter: 5, kind: "overloaded" });
  });
});
