// A sign-in waiting for its second factor: after a correct password for an account with MFA, the
// password grant answers `mfa_required` with an `mfa_token` (and the sign-in page asks for the code)
// instead of a token. Only the token's digest is stored; it lives five minutes and is used once.
import type { Account, MfaToken, OAuthApp } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { DomainError } from "../../kernel/errors.ts";
import { digest, newSecret } from "./secrets.ts";

export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
/**
 * Each challenge attempt takes this off the token's life, so one password buys a handful of
 * guesses at the code rather than thousands (there is no attempt counter to keep).
 */
const ATTEMPT_COST_MS = 60 * 1000;

export type MfaPurpose = "token" | "authorize";

/** The password grant's refusal when a second factor is needed; the token endpoint renders it. */
export class MfaRequired extends DomainError {
  constructor(readonly mfaToken: string) {
    super("forbidden", "mfa_required");
  }
}

/** The family's body: HTTP 403 `{error: "mfa_required", mfa_token, supported_challenge_types}`. */
export const mfaRequiredBody = (e: MfaRequired) => ({ error: "mfa_required", mfa_token: e.mfaToken, supported_challenge_types: "totp" });

export interface PendingSignIn {
  account: Account;
  app: OAuthApp;
  scopes: string[];
  purpose: MfaPurpose;
  redirectUri?: string;
  state?: string;
}

/** Stores the pending sign-in and returns the secret to hand to the client. */
export async function createMfaToken(ctx: Ctx, p: PendingSignIn): Promise<string> {
  const token = newSecret(32);
  const now = ctx.clock();
  // the account's stale tokens go as new ones come, so the table does not grow
  await ctx.db.mfaToken.deleteMany({ where: { accountId: p.account.id, expiresAt: { lte: now } } });
  await ctx.db.mfaToken.create({
    data: {
      tokenHash: digest(token),
      accountId: p.account.id,
      appId: p.app.id,
      scopes: p.scopes,
      purpose: p.purpose,
      redirectUri: p.redirectUri ?? null,
      state: p.state ?? null,
      expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_MS),
    },
  });
  return token;
}

export type LiveMfaToken = MfaToken & { account: Account; app: OAuthApp };

/** The live token of that purpose, or null (unknown, expired, or for the other flow). */
export async function findMfaToken(ctx: Ctx, token: string, purpose: MfaPurpose): Promise<LiveMfaToken | null> {
  const row = await ctx.db.mfaToken.findUnique({ where: { tokenHash: digest(token) }, include: { account: true, app: true } });
  if (!row || !row.app || row.purpose !== purpose || row.expiresAt <= ctx.clock()) return null;
  return row as LiveMfaToken;
}

/**
 * Starts one attempt at the challenge: the live token, charged one attempt, or null. Concurrent
 * attempts on one token race for the charge and all but one get null, so guesses cannot run in parallel.
 */
export async function chargeMfaAttempt(ctx: Ctx, token: string, purpose: MfaPurpose): Promise<LiveMfaToken | null> {
  const row = await findMfaToken(ctx, token, purpose);
  if (!row) return null;
  const charged = await ctx.db.mfaToken.updateMany({
    where: { tokenHash: row.tokenHash, expiresAt: row.expiresAt },
    data: { expiresAt: new Date(row.expiresAt.getTime() - ATTEMPT_COST_MS) },
  });
  return charged.count === 1 ? row : null;
}

/** Uses the token up after a passed challenge; false when someone else already did. */
export async function consumeMfaToken(ctx: Ctx, row: MfaToken): Promise<boolean> {
  const r = await ctx.db.mfaToken.deleteMany({ where: { tokenHash: row.tokenHash } });
  return r.count === 1;
}
