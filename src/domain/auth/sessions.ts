// Browser sessions as the Lucia guide describes them: the cookie holds a random token, the
// database holds only its SHA-256 (the session id); sessions slide forward when half-used.
import type { Ctx } from "../context.ts";
import { digest, newSecret } from "./secrets.ts";

const DAY = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 30 * DAY;

export async function createSession(ctx: Ctx, accountId: string) {
  const token = newSecret(20);
  const expiresAt = new Date(ctx.clock().getTime() + SESSION_TTL_MS);
  await ctx.db.session.create({ data: { id: digest(token), accountId, expiresAt } });
  return { token, expiresAt };
}

/** The session's account, or null when the token is unknown, expired or the account cannot sign in. */
export async function validateSession(ctx: Ctx, token: string) {
  const id = digest(token);
  const session = await ctx.db.session.findUnique({ where: { id }, include: { account: true } });
  if (!session) return null;
  const now = ctx.clock().getTime();
  if (session.expiresAt.getTime() <= now || session.account.deactivated) {
    await ctx.db.session.deleteMany({ where: { id } });
    return null;
  }
  if (session.expiresAt.getTime() - now < SESSION_TTL_MS / 2) {
    session.expiresAt = new Date(now + SESSION_TTL_MS);
    await ctx.db.session.update({ where: { id }, data: { expiresAt: session.expiresAt } });
  }
  return session;
}

export async function invalidateSession(ctx: Ctx, token: string) {
  await ctx.db.session.deleteMany({ where: { id: digest(token) } });
}
