// Admin API: an OAuth app as admins see it, secret included.
import type { OAuthApp } from "../../src/generated/prisma/client.ts";

export function renderAdminApp(app: OAuthApp) {
  return {
    id: app.id,
    name: app.name,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    redirect_uri: app.redirectUris,
    website: app.website,
    trusted: app.trusted,
  };
}
