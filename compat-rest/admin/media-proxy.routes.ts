// Admin API: URLs banned from the media proxy (admins only). See isMediaProxyBanned.
import { z } from "zod";
import { listMediaProxyBans, purgeMediaProxyUrls, unbanMediaProxyUrls } from "../../src/domain/media-proxy/media-proxy.ops.ts";
import { int } from "../inputs.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { MediaProxyBansSchema } from "../../src/views/schemas/tools.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";

const tags = ["Admin: media proxy"];

export const adminMediaProxyRoutes = [
  route({
    method: "GET",
    path: admin("/media_proxy_caches"),
    view: MediaProxyBansSchema,
    summary: "Banned media-proxy URLs, newest first",
    tags,
    operation: listMediaProxyBans,
    query: z.object({ query: z.string().optional(), page: int().pipe(z.number().min(1)).default(1), page_size: int().pipe(z.number().min(1)).default(50) }),
    response: { description: "`{page_size, count, urls}`; `query` keeps the URLs containing it (case-insensitive)" },
    async handler(ctx, { query }) {
      const { count, urls } = await listMediaProxyBans(ctx, { query: query.query, offset: (query.page - 1) * query.page_size, limit: query.page_size });
      return { page_size: query.page_size, count, urls };
    },
  }),
  route({
    method: "POST",
    path: admin("/media_proxy_caches/delete"),
    view: EmptySchema,
    summary: "Lift the bans of these URLs",
    tags,
    operation: unbanMediaProxyUrls,
    body: unbanMediaProxyUrls.input,
    response: { description: "`{}`" },
    async handler(ctx, { body }) {
      await unbanMediaProxyUrls(ctx, body);
      return {};
    },
  }),
  route({
    method: "POST",
    path: admin("/media_proxy_caches/purge"),
    view: EmptySchema,
    summary: "Purge these URLs from the media-proxy cache and, with `ban` (default true), ban them",
    tags,
    operation: purgeMediaProxyUrls,
    body: purgeMediaProxyUrls.input,
    response: { description: "`{}`" },
    async handler(ctx, { body }) {
      await purgeMediaProxyUrls(ctx, body);
      return {};
    },
  }),
];
