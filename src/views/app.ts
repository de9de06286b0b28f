// OAuth application and token renderers in the reference API's wire shapes (plus the family's extras).
import type { OAuthApp, OAuthToken } from "../../src/generated/prisma/client.ts";
import type { IssuedToken } from "../../src/domain/auth/tokens.ops.ts";

/** `vapidKey`: the server's web-push key, which the reference and the family put on every app. */
export function renderApp(app: OAuthApp, withSecret: boolean, vapidKey: string | null = null) {
  const uris = app.redirectUris.split("\n");
  return {
    id: String(app.id),
    name: app.name,
    website: app.website,
    scopes: app.scopes,
    redirect_uri: uris.join("\n"),
    redirect_uris: uris,
    vapid_key: vapidKey,
    ...(withSecret ? { client_id: app.clientId, client_secret: app.clientSecret } : {}),
  };
}

export function renderTokenResponse(issued: IssuedToken) {
  const { token } = issued;
  return {
    token_type: "Bearer",
    access_token: issued.accessToken,
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
    scope: token.scopes.join(" "),
    created_at: Math.floor(token.createdAt.getTime() / 1000),
    expires_in: Math.max(0, Math.floor((token.expiresAt.getTime() - token.createdAt.getTime()) / 1000)),
    id: token.id,
    ...(issued.account ? { me: issued.account.apId } : {}),
  };
}

export function renderOwnToken(token: OAuthToken & { app: OAuthApp }) {
  return { id: token.id, app_name: token.app.name, valid_until: token.expiresAt.toISOString() };
}
