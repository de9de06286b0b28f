// Admin GraphQL for OAuth apps (secrets included): the operations of the admin REST routes, guarded
// as each operation declares (scope + admin role; the admin token passes).
import { createOAuthApp, deleteOAuthApp, listOAuthApps, updateOAuthApp } from "../domain/oauth-apps/admin-apps.ops.ts";
import type { OAuthApp } from "../generated/prisma/client.ts";
import { accessOf } from "./access.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";

const AdminOAuthAppRef = builder.objectRef<OAuthApp>("AdminOAuthApp").implement({
  description: "An OAuth client application as admins see it, secret included",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    clientId: t.exposeString("clientId"),
    clientSecret: t.exposeString("clientSecret"),
    redirectUris: t.stringList({ resolve: (a) => a.redirectUris.split("\n") }),
    scopes: t.exposeStringList("scopes"),
    website: t.exposeString("website", { nullable: true }),
    trusted: t.exposeBoolean("trusted"),
  }),
});

builder.queryFields((t) => ({
  adminOAuthApps: t.connection(
    {
      ...accessOf(listOAuthApps),
      type: AdminOAuthAppRef,
      description: "OAuth apps, oldest first, filtered by exact name, client id or trust",
      args: { name: t.arg.string(), clientId: t.arg.string(), trusted: t.arg.boolean() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const { apps, count } = await listOAuthApps(ctx, { name: opt(args.name), client_id: opt(args.clientId), trusted: opt(args.trusted), offset, limit });
          return { total: count, items: apps };
        }),
    },
    { name: "AdminOAuthAppConnection", ...totalCountField },
  ),
}));

builder.mutationFields((t) => ({
  createOAuthApp: t.field({
    ...accessOf(createOAuthApp),
    type: AdminOAuthAppRef,
    args: {
      name: t.arg.string({ required: true }),
      redirectUris: t.arg.stringList({ required: true }),
      scopes: t.arg.stringList(),
      website: t.arg.string(),
      trusted: t.arg.boolean(),
    },
    resolve: (_root, a, ctx) => createOAuthApp(ctx, { name: a.name, redirect_uris: a.redirectUris, scopes: opt(a.scopes), website: a.website, trusted: opt(a.trusted) }),
  }),
  updateOAuthApp: t.field({
    ...accessOf(updateOAuthApp),
    type: AdminOAuthAppRef,
    args: {
      id: t.arg.int({ required: true }),
      name: t.arg.string(),
      redirectUris: t.arg.stringList(),
      scopes: t.arg.stringList(),
      website: t.arg.string(),
      trusted: t.arg.boolean(),
    },
    resolve: (_root, a, ctx) =>
      updateOAuthApp(ctx, { id: a.id, name: opt(a.name), redirect_uris: opt(a.redirectUris), scopes: opt(a.scopes), website: a.website, trusted: opt(a.trusted) }),
  }),
  deleteOAuthApp: t.field({
    ...accessOf(deleteOAuthApp),
    type: "Boolean",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, a, ctx) => {
      await deleteOAuthApp(ctx, { id: a.id });
      return true;
    },
  }),
}));
