import type { OAuthApp } from "../generated/prisma/client.ts";
import { createApp } from "../domain/oauth-apps/apps.ops.ts";
import { builder } from "./builder.ts";
import { accessOf } from "./access.ts";

export const OAuthAppRef = builder.prismaObject("OAuthApp", {
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    website: t.exposeString("website", { nullable: true }),
    scopes: t.exposeStringList("scopes"),
    redirectUris: t.field({ type: ["String"], resolve: (app) => app.redirectUris.split("\n") }),
    clientId: t.exposeString("clientId"),
  }),
});

// the secret leaves the server only in the response that created the app
const RegisterAppPayload = builder.objectRef<OAuthApp>("RegisterAppPayload").implement({
  fields: (t) => ({
    app: t.field({ type: OAuthAppRef, resolve: (app) => app }),
    clientSecret: t.exposeString("clientSecret"),
  }),
});

builder.mutationField("registerApp", (t) =>
  t.field({
    ...accessOf(createApp),
    type: RegisterAppPayload,
    description: "Registers an OAuth client application (same operation as POST /api/v1/apps)",
    args: {
      name: t.arg.string({ required: true }),
      redirectUris: t.arg.stringList({ required: true }),
      scopes: t.arg.stringList(),
      website: t.arg.string(),
    },
    resolve: (_root, args, ctx) => createApp(ctx, { client_name: args.name, redirect_uris: args.redirectUris, scopes: args.scopes ?? undefined, website: args.website }),
  }),
);
