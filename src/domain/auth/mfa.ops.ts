// Multi-factor sign-in (TOTP with single-use backup codes): the user's settings operations, the
// challenge that turns an `mfa_token` and a code into what the password alone did not get, and the
// reset the admin API calls. Failures of the settings operations are 422 `{error}` with the family's words.
import { z } from "zod";
import type { Account } from "../../generated/prisma/client.ts";
import type { Db } from "../../db/client.ts";
import type { Ctx } from "../context.ts";
import { Invalid, Unprocessable } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { findClient } from "../oauth-apps/apps.ops.ts";
import { chargeMfaAttempt, consumeMfaToken, type LiveMfaToken, type MfaPurpose } from "./mfa-tokens.ts";
import { requireAccount } from "./policy.ts";
import { newBackupCodes, verifySecondFactor } from "./second-factor.ts";
import { assertCanSignIn, passwordMatches } from "./sign-in.ts";
import { issueToken, type IssuedToken } from "./tokens.ops.ts";
import { newTotpKey, totpKeyUri, verifyTotp } from "./totp.ts";

/** `enabled` is the general switch, `totp` the one method (on once confirmed), as the family reports them. */
export const mfaSettings = (account: Pick<Account, "mfaEnabled">) => ({ enabled: account.mfaEnabled, totp: account.mfaEnabled });

async function requirePassword(ctx: Ctx, account: Account, password: string) {
  if (!(await passwordMatches(ctx, account, password))) throw Unprocessable("Invalid password.");
}

/** Turns MFA off and forgets the key and backup codes (the user's disable and the admin's `disable_mfa`). */
export async function disableMfa(db: Db, accountId: string): Promise<void> {
  await db.account.update({ where: { id: accountId }, data: { mfaEnabled: false, mfaTotpSecret: null, mfaBackupCodes: [] } });
  await db.mfaToken.deleteMany({ where: { accountId } });
}

export const mfaStatus = operation({
  name: "mfa.status",
  access: { scopes: ["read:security"] },
  input: z.object({}),
  authorize: requireAccount,
  run: async (ctx) => mfaSettings(requireAccount(ctx)),
});

/** A new key, pending until confirmed with a code from it; refused while TOTP is on (disable it first). */
export const setupTotp = operation({
  name: "mfa.setupTotp",
  access: { scopes: ["write:security"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx) {
    const account = requireAccount(ctx);
    const key = newTotpKey();
    const set = await ctx.db.account.updateMany({ where: { id: account.id, mfaEnabled: false }, data: { mfaTotpSecret: key } });
    if (set.count !== 1) throw Unprocessable("TOTP is already enabled");
    const issuer = ctx.config.get("instance", "name");
    return { key, provisioningUri: totpKeyUri(key, issuer, account.email ?? account.nickname) };
  },
});

export const confirmTotp = operation({
  name: "mfa.confirmTotp",
  access: { scopes: ["write:security"] },
  input: z.object({ password: z.string(), code: z.string() }),
  authorize: requireAccount,
  async run(ctx, input) {
    const account = requireAccount(ctx);
    await requirePassword(ctx, account, input.password);
    const key = account.mfaTotpSecret;
    if (!key) throw Unprocessable("invalid_secret_and_token");
    if (!verifyTotp(key, input.code, ctx.clock())) throw Unprocessable("invalid_token");
    // only the key the code was checked against is enabled (a concurrent setup replaces it)
    const enabled = await ctx.db.account.updateMany({ where: { id: account.id, mfaTotpSecret: key }, data: { mfaEnabled: true } });
    if (enabled.count !== 1) throw Unprocessable("invalid_token");
    return mfaSettings({ mfaEnabled: true });
  },
});

export const disableTotp = operation({
  name: "mfa.disableTotp",
  access: { scopes: ["write:security"] },
  input: z.object({ password: z.string().default("") }),
  authorize: requireAccount,
  async run(ctx, input) {
    const account = requireAccount(ctx);
    await requirePassword(ctx, account, input.password);
    await disableMfa(ctx.db, account.id);
    return mfaSettings({ mfaEnabled: false });
  },
});

/** New backup codes, shown this once; they replace the previous ones. */
export const generateBackupCodes = operation({
  name: "mfa.generateBackupCodes",
  access: { scopes: ["write:security"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx) {
    const account = requireAccount(ctx);
    const { codes, hashes } = newBackupCodes();
    await ctx.db.account.update({ where: { id: account.id }, data: { mfaBackupCodes: hashes } });
    return codes;
  },
});

export const challengeInput = z.object({ mfa_token: z.string(), challenge_type: z.enum(["totp", "recovery"]), code: z.string() });

/**
 * One attempt at a pending sign-in's challenge: its row once the code passes (the token is then used
 * up), 400 `Invalid code` otherwise, like the family, whatever was wrong.
 */
export async function passMfaChallenge(ctx: Ctx, purpose: MfaPurpose, input: z.output<typeof challengeInput>, appId?: number): Promise<LiveMfaToken> {
  const row = await chargeMfaAttempt(ctx, input.mfa_token, purpose);
  const passed =
    !!row && (appId === undefined || row.appId === appId) && (await verifySecondFactor(ctx, row.account, input.challenge_type, input.code)) && (await consumeMfaToken(ctx, row));
  if (!passed) throw Invalid("Invalid code");
  assertCanSignIn(row.account);
  return row;
}

/** `POST /oauth/mfa/challenge`: the token the password grant held back, for the same app and scopes. */
export const mfaChallenge = operation({
  name: "auth.mfaChallenge",
  access: "public",
  input: challengeInput.extend({ client_id: z.string().optional(), client_secret: z.string().optional() }),
  async run(ctx, input): Promise<IssuedToken> {
    const app = await findClient(ctx, input.client_id, input.client_secret, true);
    const row = await passMfaChallenge(ctx, "token", input, app.id);
    return issueToken(ctx, app, row.account, row.scopes);
  },
});
