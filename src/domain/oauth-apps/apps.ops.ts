// OAuth client applications registered by clients (POST /api/v1/apps) and the apps a user may see.
import { z } from "zod";
import type { OAuthApp } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Invalid, Unauthorized } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { isKnownScope, parseScopes } from "../auth/scopes.ts";
import { newSecret, safeEqual } from "../auth/secrets.ts";
import { requireAccount } from "../auth/policy.ts";

export const OOB_REDIRECT = "urn:ietf:wg:oauth:2.0:oob";

const scopesInput = z.union([z.string(), z.array(z.string())]).optional();

export const createApp = operation({
  name: "oauthApps.create",
  access: "public",
  input: z.object({
    client_name: z.string().trim().min(1).max(256),
    redirect_uris: z.union([z.string(), z.array(z.string())]),
    scopes: scopesInput,
    website: z.string().max(512).optional().nullable(),
  }),
  async run(ctx, input) {
    const uris = (Array.isArray(input.redirect_uris) ? input.redirect_uris : input.redirect_uris.split(/\s+/)).filter(Boolean);
    if (uris.length === 0) throw Invalid("Missing field: redirect_uris.", { redirect_uris: "can't be blank" });
    for (const uri of uris) if (uri !== OOB_REDIRECT && !URL.canParse(uri)) throw Invalid(`redirect_uris - Invalid URI: ${uri}.`, { redirect_uris: "is invalid" });
    const scopes = parseScopes(input.scopes ?? "read");
    const unknown = scopes.filter((s) => !isKnownScope(s));
    if (unknown.length) throw Invalid(`scopes - Unknown scope: ${unknown.join(", ")}.`, { scopes: "is invalid" });
    return ctx.db.oAuthApp.create({
      data: {
        name: input.client_name,
        redirectUris: uris.join("\n"),
        scopes,
        website: input.website || null,
        clientId: newSecret(24),
        clientSecret: newSecret(32),
        ownerId: ctx.viewer.account?.id ?? null,
      },
    });
  },
});

/** The app of the presenting token (app-only or user token). */
export const verifyAppCredentials = operation({
  name: "oauthApps.verifyCredentials",
  access: { scopes: "any", appToken: true },
  input: z.object({}),
  async run(ctx) {
    if (!ctx.viewer.app) throw Unauthorized("The access token is invalid");
    return ctx.viewer.app;
  },
});

/** Finds an app by client id, checking the secret when one is given or required. */
export async function findClient(ctx: Ctx, clientId: string | undefined, clientSecret: string | undefined, secretRequired: boolean): Promise<OAuthApp> {
  const app = clientId ? await ctx.db.oAuthApp.findUnique({ where: { clientId } }) : null;
  if (!app) throw Unauthorized("Invalid client");
  if ((secretRequired || clientSecret !== undefined) && !safeEqual(app.clientSecret, clientSecret ?? "")) throw Unauthorized("Invalid client");
  return app;
}

export function redirectUriAllowed(app: OAuthApp, uri: string): boolean {
  return app.redirectUris.split("\n").includes(uri);
}

/** The apps the signed-in user registered (POST /api/v1/apps with their token), oldest first (the family's `GET /api/v1/<ns>/apps`). */
export const listOwnApps = operation({
  name: "oauthApps.listOwn",
  access: { scopes: ["read", "follow"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx) {
    return ctx.db.oAuthApp.findMany({ where: { ownerId: ctx.viewer.account!.id }, orderBy: { id: "asc" } });
  },
});
