// Password sign-in shared by the token endpoint, the authorization page, Basic auth and tRPC.
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { DomainError, Forbidden, Unauthorized } from "../../kernel/errors.ts";
import { assertSafeInput } from "../input-limits.ts";
import { assertSignInAllowed } from "./access-blocks.ts";
import { noteActivity } from "./last-activity.ts";
import { verifyPassword } from "./passwords.ts";
import { attemptTarget, chargeAttempt } from "./password-throttle.ts";
import { accountByName } from "../../db/account-names.ts";

/**
 * Finds the local account by nickname or e-mail and checks the password, under the password throttle
 * (Throttled past the limit, the right password too); says nothing about which was wrong.
 */
export async function checkPassword(ctx: Ctx, login: string, password: string): Promise<Account> {
  // Basic credentials arrive base64-encoded, past the input boundary: the text rule applies here too
  assertSafeInput({ login, password }, "credentials");
  const account = await accountByName(ctx.db, { nicknames: [login], emails: [login], local: true });
  const passed = await chargeAttempt(ctx, attemptTarget(account, login));
  // verify even when unknown so timing does not reveal which nicknames exist
  const ok = await verifyPassword(account?.passwordHash ?? DUMMY_HASH, password);
  if (!account || !ok) throw Unauthorized("Invalid credentials");
  await passed();
  return account;
}

/** The password of an account already known (a signed-in user confirming it), under the password throttle. */
export async function passwordMatches(ctx: Ctx, account: Pick<Account, "id" | "passwordHash">, password: string): Promise<boolean> {
  const passed = await chargeAttempt(ctx, attemptTarget(account, ""));
  const ok = await verifyPassword(account.passwordHash, password);
  if (ok) await passed();
  return ok;
}

/** States in which a correct password still may not sign in; messages are the family's. */
export function assertCanSignIn(account: Account): void {
  if (account.deactivated) throw Forbidden("Your account is currently disabled");
  if (account.approvalPending) throw new DomainError("forbidden", "Your account is awaiting approval.");
  if (account.confirmationPending) throw new DomainError("forbidden", "Your login is missing a confirmed e-mail address");
  if (account.passwordResetPending) throw new DomainError("forbidden", "Password reset is required");
}

export async function signInWithPassword(ctx: Ctx, login: string, password: string): Promise<Account> {
  const account = await checkPassword(ctx, login, password);
  assertCanSignIn(account);
  await assertSignInAllowed(ctx);
  await noteActivity(ctx, account);
  return account;
}

// argon2id hash of a random string: keeps the unknown-user path as slow as the wrong-password path
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$iwJ+DBSp05YBgbnS2G6qew$Qpb5bE/MCfjHJrcStmU0w7sWqM6toCqmzROqCJICw5w";
