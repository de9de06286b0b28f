// OAuth 2 grants, revocation and the user's token list.
import { z } from "zod";
import type { Account, OAuthApp, OAuthToken } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Forbidden, Invalid, NotFound, Unauthorized } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { findClient, OOB_REDIRECT, redirectUriAllowed } from "../oauth-apps/apps.ops.ts";
import { requireAccount } from "./policy.ts";
import { narrowScopes, parseScopes } from "./scopes.ts";
import { digest, newSecret, safeEqual } from "./secrets.ts";
import { assertCanSignIn, signInWithPassword } from "./sign-in.ts";
import { createMfaToken, MfaRequired } from "./mfa-tokens.ts";
import { createHash } from "node:crypto";

export const TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;
const CODE_TTL_MS = 10 * 60 * 1000;

export interface IssuedToken {
  token: OAuthToken;
  accessToken: string;
  refreshToken: string | null;
  app: OAuthApp;
  account: Account | null;
}

function scopesFor(app: OAuthApp, requested: string | string[] | undefined): string[] {
  const scopes = narrowScopes(parseScopes(requested), app.scopes);
  if (!scopes) throw Invalid("This action is outside the authorized scopes", { scope: "is invalid" });
  return scopes;
}

/** Creates an access token (and a refresh token for a user); also used by registration. */
export async function issueToken(ctx: Ctx, app: OAuthApp, account: Account | null, scopes: string[]): Promise<IssuedToken> {
  const accessToken = newSecret(32);
  const refreshToken = account ? newSecret(32) : null;
  const createdAt = ctx.clock();
  const token = await ctx.db.oAuthToken.create({
    data: {
      createdAt,
      tokenHash: digest(accessToken),
      refreshTokenHash: refreshToken ? digest(refreshToken) : null,
      scopes,
      appId: app.id,
      accountId: account?.id ?? null,
      expiresAt: new Date(createdAt.getTime() + TOKEN_TTL_MS),
    },
  });
  return { token, accessToken, refreshToken, app, account };
}

const str = z.string().optional();
export const tokenGrantInput = z.object({
  grant_type: z.enum(["authorization_code", "password", "refresh_token", "client_credentials"]),
  client_id: str,
  client_secret: str,
  code: str,
  redirect_uri: str,
  code_verifier: str,
  username: str,
  password: str,
  refresh_token: str,
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  scopes: z.union([z.string(), z.array(z.string())]).optional(),
});

export const grantToken = operation({
  name: "auth.grantToken",
  access: "public",
  input: tokenGrantInput,
  async run(ctx, input): Promise<IssuedToken> {
    const requested = input.scope ?? input.scopes;
    switch (input.grant_type) {
      case "password": {
        const app = await findClient(ctx, input.client_id, input.client_secret, true);
        if (!input.username || !input.password) throw Invalid("Missing field: username, password.");
        const account = await signInWithPassword(ctx, input.username, input.password);
        const scopes = scopesFor(app, requested);
        // the second factor first: the token waits for /oauth/mfa/challenge
        if (account.mfaEnabled) throw new MfaRequired(await createMfaToken(ctx, { account, app, scopes, purpose: "token" }));
        return issueToken(ctx, app, account, scopes);
      }
      case "client_credentials": {
        const app = await findClient(ctx, input.client_id, input.client_secret, true);
        return issueToken(ctx, app, null, scopesFor(app, requested));
      }
      case "authorization_code": {
        const auth = input.code ? await ctx.db.oAuthAuthorization.findUnique({ where: { codeHash: digest(input.code) }, include: { account: true } }) : null;
        // only a code issued with a PKCE challenge may be redeemed without the client secret
        const app = await findClient(ctx, input.client_id, input.client_secret, !auth?.codeChallenge);
        if (!auth || auth.appId !== app.id || auth.used || auth.expiresAt <= ctx.clock()) throw Unauthorized("Invalid code");
        if (input.redirect_uri && input.redirect_uri !== auth.redirectUri) throw Unauthorized("Invalid redirect_uri");
        if (auth.codeChallenge && !pkceMatches(auth.codeChallenge, auth.codeChallengeMethod, input.code_verifier)) throw Unauthorized("Invalid code_verifier");
        const claimed = await ctx.db.oAuthAuthorization.updateMany({ where: { id: auth.id, used: false }, data: { used: true } });
        if (claimed.count !== 1) throw Unauthorized("Invalid code");
        assertCanSignIn(auth.account);
        return issueToken(ctx, app, auth.account, auth.scopes);
      }
      case "refresh_token": {
        const app = await findClient(ctx, input.client_id, input.client_secret, true);
        const old = input.refresh_token ? await ctx.db.oAuthToken.findUnique({ where: { refreshTokenHash: digest(input.refresh_token) }, include: { account: true } }) : null;
        if (!old || old.appId !== app.id || !old.account) throw Unauthorized("Invalid refresh token");
        assertCanSignIn(old.account);
        // rotate: the old access and refresh tokens stop working
        const deleted = await ctx.db.oAuthToken.deleteMany({ where: { id: old.id } });
        if (deleted.count !== 1) throw Unauthorized("Invalid refresh token");
        return issueToken(ctx, app, old.account, old.scopes);
      }
    }
  },
});

function pkceMatches(challenge: string, method: string | null, verifier: string | undefined): boolean {
  if (!verifier) return false;
  const computed = method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
  return safeEqual(computed, challenge);
}

export const authorizeInput = z.object({
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.enum(["plain", "S256"]).optional(),
});

/** The app and scopes of an authorization request, checked before showing the consent page. */
export async function checkAuthorizationRequest(ctx: Ctx, input: z.output<typeof authorizeInput>) {
  const app = await findClient(ctx, input.client_id, undefined, false);
  if (!redirectUriAllowed(app, input.redirect_uri)) throw Invalid("redirect_uri is not registered for this app", { redirect_uri: "is invalid" });
  return { app, scopes: scopesFor(app, input.scope) };
}

/** Issues an authorization code for the signed-in viewer (authorization-code grant). */
export const createAuthorizationCode = operation({
  name: "auth.createAuthorizationCode",
  input: authorizeInput,
  async run(ctx, input) {
    const account = requireAccount(ctx);
    assertCanSignIn(account);
    const { app, scopes } = await checkAuthorizationRequest(ctx, input);
    const code = newSecret(24);
    await ctx.db.oAuthAuthorization.create({
      data: {
        codeHash: digest(code),
        appId: app.id,
        accountId: account.id,
        scopes,
        redirectUri: input.redirect_uri,
        codeChallenge: input.code_challenge ?? null,
        codeChallengeMethod: input.code_challenge ? (input.code_challenge_method ?? "plain") : null,
        expiresAt: new Date(ctx.clock().getTime() + CODE_TTL_MS),
      },
    });
    return { code, app, oob: input.redirect_uri === OOB_REDIRECT };
  },
});

/** RFC 7009: revoking an unknown token is not an error; a token of another client is left alone. */
export const revokeToken = operation({
  name: "auth.revokeToken",
  access: "public",
  input: z.object({ token: z.string(), client_id: str, client_secret: str }),
  async run(ctx, input) {
    const hash = digest(input.token);
    const token = await ctx.db.oAuthToken.findFirst({ where: { OR: [{ tokenHash: hash }, { refreshTokenHash: hash }] } });
    if (!token) return;
    if (input.client_id) {
      const app = await findClient(ctx, input.client_id, input.client_secret, true);
      if (app.id !== token.appId) throw Forbidden("You are not authorized to revoke this token");
    }
    await ctx.db.oAuthToken.deleteMany({ where: { id: token.id } });
  },
});

export const listOwnTokens = operation({
  name: "auth.listOwnTokens",
  access: { scopes: ["read:security"] },
  input: z.object({}),
  async run(ctx) {
    const account = requireAccount(ctx);
    return ctx.db.oAuthToken.findMany({ where: { accountId: account.id }, include: { app: true }, orderBy: { id: "desc" } });
  },
});

export const deleteOwnToken = operation({
  name: "auth.deleteOwnToken",
  access: { scopes: ["write:security"] },
  input: z.object({ id: z.coerce.number().int() }),
  async run(ctx, input) {
    const account = requireAccount(ctx);
    const r = await ctx.db.oAuthToken.deleteMany({ where: { id: input.id, accountId: account.id } });
    if (r.count === 0) throw NotFound();
  },
});
