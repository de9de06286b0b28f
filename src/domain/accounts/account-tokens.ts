// Single-use secrets sent by e-mail (address confirmation, password reset). The database keeps
// only their SHA-256; a token is good until it expires or is consumed, whichever comes first.
import { newId } from "../../db/ids.ts";
import type { Account, AccountToken, AccountTokenKind } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { digest, newSecret } from "../auth/secrets.ts";

const HOUR = 60 * 60 * 1000;

export const ACCOUNT_TOKEN_TTL_MS: Record<AccountTokenKind, number> = {
  confirm_email: 7 * 24 * HOUR,
  password_reset: 24 * HOUR,
};

/** Creates a token and returns the secret to put in the link (it is not stored). */
export async function issueAccountToken(ctx: Ctx, accountId: string, kind: AccountTokenKind): Promise<{ token: string; row: AccountToken }> {
  const token = newSecret(32);
  const now = ctx.clock();
  const row = await ctx.db.accountToken.create({
    data: { id: newId(now.getTime()), accountId, kind, tokenHash: digest(token), createdAt: now, expiresAt: new Date(now.getTime() + ACCOUNT_TOKEN_TTL_MS[kind]) },
  });
  return { token, row };
}

/** The unused, unexpired token of this kind with its account, or null. */
export async function findUsableAccountToken(ctx: Ctx, kind: AccountTokenKind, token: string): Promise<(AccountToken & { account: Account }) | null> {
  if (!token) return null;
  const row = await ctx.db.accountToken.findUnique({ where: { tokenHash: digest(token) }, include: { account: true } });
  if (!row || row.kind !== kind || row.usedAt || row.expiresAt <= ctx.clock()) return null;
  return row;
}

/**
 * The statement that consumes a token, for a batch transaction: it matches only while the token is
 * still unused and unexpired, so of two concurrent uses one fails (P2025) and its batch rolls back.
 */
export function consumeAccountToken(ctx: Ctx, row: Pick<AccountToken, "id">) {
  const now = ctx.clock();
  return ctx.db.accountToken.update({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
}

/** Prisma's "record to update not found": the conditional update above lost the race. */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}
