// Turns the credentials a request carries into a Viewer. Surfaces extract the raw credentials;
// the rules (token expiry, deactivated accounts, admin token) live here once.
import type { Ctx, Viewer } from "../context.ts";
import { ALL_SCOPES, anonymous } from "../context.ts";
import { Unauthorized } from "../errors.ts";
import { digest, safeEqual } from "./secrets.ts";
import { validateSession } from "./sessions.ts";
import { signInWithPassword } from "./sign-in.ts";
import { requireSecondFactor } from "./second-factor.ts";

export interface Credentials {
  bearer?: string;
  basic?: { username: string; password: string };
  sessionToken?: string;
  adminToken?: string;
}

export async function authenticate(ctx: Ctx, creds: Credentials): Promise<Viewer> {
  if (creds.adminToken !== undefined) {
    const expected = ctx.settings.adminToken;
    if (!expected || !safeEqual(expected, creds.adminToken)) throw Unauthorized("Invalid credentials.");
    return { account: null, app: null, scopes: ALL_SCOPES, via: "admin_token" };
  }
  if (creds.bearer !== undefined) {
    const token = await ctx.db.oAuthToken.findUnique({ where: { tokenHash: digest(creds.bearer) }, include: { account: true, app: true } });
    if (!token || token.expiresAt <= ctx.clock() || token.account?.deactivated) throw Unauthorized("Invalid credentials.");
    return { account: token.account, app: token.app, scopes: token.scopes, via: "token", tokenId: token.id };
  }
  if (creds.basic) {
    const account = await signInWithPassword(ctx, creds.basic.username, creds.basic.password);
    // Basic carries no second factor: accounts with MFA sign in through OAuth (401 mfa_required)
    await requireSecondFactor(ctx, account, undefined);
    return { account, app: null, scopes: ALL_SCOPES, via: "basic" };
  }
  if (creds.sessionToken) {
    // a stale cookie is not an error: the browser simply is not signed in any more
    const session = await validateSession(ctx, creds.sessionToken);
    if (session) return { account: session.account, app: null, scopes: ALL_SCOPES, via: "session", sessionId: session.id };
  }
  return anonymous;
}
