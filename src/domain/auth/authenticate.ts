// Turns the credentials a request carries into a Viewer. Surfaces extract the raw credentials;
// the rules (token expiry, deactivated accounts, admin token) live here once.
import { decodeModel, modelJson } from "../../db/model-rows.ts";
import type { Ctx, Services, Viewer } from "../context.ts";
import { ALL_SCOPES, anonymous, makeCtx } from "../context.ts";
import { DomainError, Unauthorized } from "../../kernel/errors.ts";
import { noteActivity } from "./last-activity.ts";
import { digest, safeEqual } from "./secrets.ts";
import { validateSession } from "./sessions.ts";
import { signInWithPassword } from "./sign-in.ts";
import { tokenCache, type CachedToken } from "./token-cache.ts";
import { requireSecondFactor } from "./second-factor.ts";

export interface Credentials {
  bearer?: string;
  basic?: { username: string; password: string };
  sessionToken?: string;
  adminToken?: string;
}

/**
 * The context of a request made with these credentials: one per request, since authentication reads the
 * services only and the viewer is then set on the same context. `lenient`: credentials that do not hold
 * (a dead token) make the request anonymous instead of failing it, as the family's public routes do; a
 * throttled password (Throttled, not a DomainError) fails the request all the same. `clientIp`: the
 * request's address, which Basic credentials are throttled by.
 */
export async function authenticatedCtx(services: Services, creds: Credentials, opts: { lenient?: boolean; clientIp?: string } = {}): Promise<Ctx> {
  const ctx = makeCtx(services);
  ctx.clientIp = opts.clientIp;
  const viewer = await authenticate(ctx, creds).catch((error) => {
    if (opts.lenient && error instanceof DomainError) return null;
    throw error;
  });
  ctx.viewer = viewer ?? anonymous;
  return ctx;
}

export async function authenticate(ctx: Ctx, creds: Credentials): Promise<Viewer> {
  if (creds.adminToken !== undefined) {
    const expected = ctx.settings.adminToken;
    if (!expected || !safeEqual(expected, creds.adminToken)) throw Unauthorized("Invalid credentials.");
    return { account: null, app: null, scopes: ALL_SCOPES, via: "admin_token" };
  }
  if (creds.bearer !== undefined) {
    const token = await cachedToken(ctx, digest(creds.bearer));
    if (!token || token.expiresAt <= ctx.clock() || token.account?.deactivated) throw Unauthorized("Invalid credentials.");
    if (token.account) await noteActivity(ctx, token.account);
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
    if (session) await noteActivity(ctx, session.account);
    if (session) return { account: session.account, app: null, scopes: ALL_SCOPES, via: "session", sessionId: session.id };
  }
  return anonymous;
}

type Json = Record<string, unknown>;

/** The token with its account and app: from this process's token cache, else read (and kept). */
async function cachedToken(ctx: Ctx, tokenHash: string): Promise<CachedToken | null> {
  const cache = tokenCache(ctx);
  const hit = cache.get(tokenHash);
  if (hit) return hit;
  const since = cache.begin();
  const token = await findToken(ctx, tokenHash);
  if (token) cache.store(since, tokenHash, token);
  return token;
}

/** The token with its account and app in one statement: every authenticated request starts here. */
async function findToken(ctx: Ctx, tokenHash: string): Promise<CachedToken | null> {
  const [row] = await ctx.db.$queryRaw<{ token: Json; account: Json | null; app: Json }[]>`
    SELECT ${modelJson(ctx.db, "OAuthToken", "t")} AS token, ${modelJson(ctx.db, "OAuthApp", "p")} AS app,
      CASE WHEN a.id IS NULL THEN NULL ELSE ${modelJson(ctx.db, "Account", "a")} END AS account
    FROM oauth_tokens t JOIN oauth_apps p ON p.id = t.app_id LEFT JOIN accounts a ON a.id = t.account_id
    WHERE t.token_hash = ${tokenHash}`;
  if (!row) return null;
  return {
    ...decodeModel(ctx.db, "OAuthToken", row.token),
    account: row.account ? decodeModel(ctx.db, "Account", row.account) : null,
    app: decodeModel(ctx.db, "OAuthApp", row.app),
  };
}
