// The second factor itself: a TOTP code or a single-use backup code, checked for an account. Every
// sign-in path that takes a password (token grant, sign-in page, tRPC, Basic) goes through here.
import { randomBytes } from "node:crypto";
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Unauthorized } from "../../kernel/errors.ts";
import { digest } from "./secrets.ts";
import { matchTotp } from "./totp.ts";
import { attemptTarget, chargeAttempt } from "./password-throttle.ts";
import { announceRowWrites } from "../../db/row-writes.ts";

export type ChallengeType = "totp" | "recovery";

// the family's defaults: 5 codes of 16 hex characters
const BACKUP_CODE_COUNT = 5;
const BACKUP_CODE_BYTES = 8;

/** Fresh backup codes in clear (shown once) and their digests (stored). 64 random bits each, so a fast digest suffices. */
export function newBackupCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => randomBytes(BACKUP_CODE_BYTES).toString("hex"));
  return { codes, hashes: codes.map(hashBackupCode) };
}

/** People copy codes with spaces, dashes or capitals. */
const hashBackupCode = (code: string) => digest(code.replace(/[\s-]+/g, "").toLowerCase());

/** Removes the code from the account's list in one statement, so a code passes once even under races. */
async function consumeBackupCode(ctx: Ctx, accountId: string, code: string): Promise<boolean> {
  const hash = hashBackupCode(code);
  const removed = await ctx.db.$executeRaw`
    UPDATE accounts SET mfa_backup_codes = array_remove(mfa_backup_codes, ${hash})
    WHERE id = ${accountId} AND ${hash} = ANY(mfa_backup_codes)`;
  if (removed) announceRowWrites(ctx.db, "accounts", [accountId]); // raw SQL: the token cache must hear of it (row-writes.ts)
  return removed === 1;
}

/**
 * True when the code passes for an account with MFA on; a backup code is used up by passing. Under the
 * password throttle (src/domain/auth/password-throttle.ts): past the limit, Throttled, the right code too.
 */
export async function verifySecondFactor(ctx: Ctx, account: Account, type: ChallengeType, code: string): Promise<boolean> {
  if (!account.mfaEnabled) return false;
  const passed = await chargeAttempt(ctx, attemptTarget(account, ""));
  const ok = type === "totp" ? await consumeTotp(ctx, account, code) : await consumeBackupCode(ctx, account.id, code);
  if (ok) await passed();
  return ok;
}

/** A TOTP code passes once: its period must be later than the last accepted one (set in the same statement). */
async function consumeTotp(ctx: Ctx, account: Account, code: string): Promise<boolean> {
  const counter = account.mfaTotpSecret ? matchTotp(account.mfaTotpSecret, code, ctx.clock()) : null;
  if (counter === null) return false;
  const updated = await ctx.db.$executeRaw`
    UPDATE accounts SET mfa_totp_last_counter = ${counter}
    WHERE id = ${account.id} AND (mfa_totp_last_counter IS NULL OR mfa_totp_last_counter < ${counter})`;
  if (updated) announceRowWrites(ctx.db, "accounts", [account.id]); // raw SQL: the token cache must hear of it (row-writes.ts)
  return updated === 1;
}

/**
 * For sign-ins that take the code along with the password (tRPC): passes accounts without MFA,
 * otherwise wants a TOTP code (six digits) or a backup code. Without one: 401 `mfa_required`.
 */
export async function requireSecondFactor(ctx: Ctx, account: Account, code: string | undefined): Promise<void> {
  if (!account.mfaEnabled) return;
  if (!code) throw Unauthorized("mfa_required");
  const type: ChallengeType = /^\s*\d{6}\s*$/.test(code) ? "totp" : "recovery";
  if (!(await verifySecondFactor(ctx, account, type, code))) throw Unauthorized("Invalid code");
}
