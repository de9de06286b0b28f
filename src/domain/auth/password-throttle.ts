// One throttle for every path that checks a secret a person chose or was sent: passwords (Basic
// credentials, the password grant, the sign-in pages and tRPC, re-confirmations of the password),
// second-factor codes, and the requests that mail a link (password reset, confirmation resend).
// Each attempt counts against two counters of the `authentication` rate limit (its anonymous window):
// the client's IP address, and the account aimed at (its id, or the lowered name when no account has
// it, so that an unknown name is throttled exactly like a known one and the 429 reveals nothing). A
// passing attempt gives its counts back, so a client whose password is right is never throttled by
// its own use; a failing one keeps them. While either counter is over the limit every attempt is
// refused before the secret is checked, the right one too: a guesser spread over many addresses
// still stops after `limit` guesses per window on one account. See docs/security.md, "Password attempts".
import type { Ctx } from "../context.ts";
import { Throttled } from "../../kernel/errors.ts";

const RULE = "authentication";

/** The counter key of the account aimed at: its id when one was found, else the name as typed, lowered. */
export const attemptTarget = (account: { id: string } | null | undefined, name: string) => (account ? `id:${account.id}` : `name:${name.trim().toLowerCase()}`);

/**
 * Counts one attempt on `target` (from `attemptTarget`) from the request's address; throws Throttled over
 * the limit. Answers the function that gives the attempt back once it passed.
 */
export async function chargeAttempt(ctx: Ctx, target: string): Promise<() => Promise<void>> {
  const limiter = ctx.rateLimiter;
  if (!limiter) return async () => {};
  const subjects = [`pw-acct:${target}`, ...(ctx.clientIp ? [`pw-ip:${ctx.clientIp}`] : [])];
  const decisions = await Promise.all(subjects.map((s) => limiter.hitSubject(ctx.config, RULE, s)));
  const refused = decisions.find((d) => d && !d.allowed);
  if (refused) throw new Throttled(refused.limit, refused.resetAt);
  return async () => {
    await Promise.all(subjects.map((s) => limiter.release(ctx.config, RULE, s)));
  };
}
