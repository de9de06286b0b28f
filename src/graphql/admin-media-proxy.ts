// Admin GraphQL for media-proxy bans and purges: the operations of the admin REST routes, each field
// guarded as its operation declares (scope + admin role; the admin token passes).
import { listMediaProxyBans, purgeMediaProxyUrls, unbanMediaProxyUrls } from "../domain/media-proxy/media-proxy.ops.ts";
import { accessOf } from "./access.ts";
import { offsetConnection, totalCountField } from "./offset-paging.ts";
import { builder } from "./builder.ts";
import { opt } from "./paging.ts";

builder.queryFields((t) => ({
  mediaProxyBans: t.connection(
    {
      ...accessOf(listMediaProxyBans),
      type: "String",
      description: "URLs banned from the media proxy, newest ban first; `query` keeps those containing it",
      args: { query: t.arg.string() },
      resolve: (_root, args, ctx) =>
        offsetConnection(args, async (offset, limit) => {
          const { count, urls } = await listMediaProxyBans(ctx, { query: opt(args.query), offset, limit });
          return { total: count, items: urls };
        }),
    },
    { name: "MediaProxyBanConnection", ...totalCountField },
  ),
}));

builder.mutationFields((t) => ({
  purgeMediaProxyUrls: t.field({
    ...accessOf(purgeMediaProxyUrls),
    type: "Boolean",
    description: "Purges the URLs from the media proxy's cache and, with `ban` (default true), bans them",
    args: { urls: t.arg.stringList({ required: true }), ban: t.arg.boolean() },
    resolve: async (_root, a, ctx) => {
      await purgeMediaProxyUrls(ctx, { urls: a.urls, ban: opt(a.ban) });
      return true;
    },
  }),
  unbanMediaProxyUrls: t.field({
    ...accessOf(unbanMediaProxyUrls),
    type: "Boolean",
    args: { urls: t.arg.stringList({ required: true }) },
    resolve: async (_root, a, ctx) => {
      await unbanMediaProxyUrls(ctx, { urls: a.urls });
      return true;
    },
  }),
}));
