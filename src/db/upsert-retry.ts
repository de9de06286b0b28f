// Upserts that two first uses at once do not turn into a 500. Prisma runs an `upsert` as one
// INSERT … ON CONFLICT DO UPDATE only in some cases (one unique key in `where`, the same values in
// `create`, no nested writes, and, measured, a non-empty `update`); otherwise it is a SELECT, then an
// INSERT or an UPDATE. Two requests creating the same row at once (bookmarking a status twice, blocking a
// domain twice) then both miss the SELECT, and the second INSERT fails on the unique index: P2002, a 500.
// The row exists by then, so running the upsert once more takes the update branch. Once is enough: only a
// delete of that very row could make the retry miss again.
//
// Inside a transaction a retry cannot help: PostgreSQL has aborted the transaction at the failed INSERT,
// and every later statement of it fails. So an upsert in a transaction is not retried (its P2002 goes up
// as it came), and the upserts that run in one are race-free by themselves: each has a non-empty `update`
// (one INSERT … ON CONFLICT), or is a createMany with skipDuplicates (ON CONFLICT DO NOTHING) where nothing
// is to be updated (conversations.ops.ts). Prisma tells a query extension that it runs in a transaction
// only through `__internalParams.transaction`, which its types leave out;
// test/db/upsert-retry.integration.test.ts fails if that stops being so.
import type { PrismaClient } from "../generated/prisma/client.ts";
import { isUniqueViolation } from "./model-rows.ts";

type UpsertParams = { args: unknown; query: (args: unknown) => Promise<unknown>; __internalParams?: { transaction?: unknown } };

/** `prisma` whose upserts outside transactions are retried once on a unique violation. The types are unchanged, hence the cast. */
export function retryingUpserts(prisma: PrismaClient): PrismaClient {
  return prisma.$extends({
    name: "upsert-retry",
    query: {
      $allModels: {
        async upsert(params) {
          const { args, query, __internalParams } = params as unknown as UpsertParams;
          try {
            return await query(args);
          } catch (error) {
            if (!isUniqueViolation(error) || __internalParams?.transaction) throw error;
            return query(args);
          }
        },
      },
    },
  }) as unknown as PrismaClient;
}
