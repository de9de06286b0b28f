// "The viewer's own row, or 404": another account's filter, list, folder… is as missing as an unknown
// one (the family's answer, so ids of other accounts' rows reveal nothing). One place for the
// sign-in check, the lookup scoped to the viewer and the not-found error.
import { requireAccount } from "./auth/policy.ts";
import type { Ctx } from "./context.ts";
import { NotFound } from "../kernel/errors.ts";

/** Runs `find` with the signed-in viewer's account id; no row is 404 with `message` (the family's "Record not found" unless told). */
export async function ownRow<T>(ctx: Ctx, find: (accountId: string) => Promise<T | null>, message = "Record not found"): Promise<T> {
  const row = await find(requireAccount(ctx).id);
  if (!row) throw NotFound(message);
  return row;
}
