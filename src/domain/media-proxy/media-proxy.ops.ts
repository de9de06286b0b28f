// Media-proxy cache bans of the admin API: the proxy (src/domain/media/media-proxy.ts) answers 404 for
// every URL `isMediaProxyBanned` reports; purge evicts the cached copies (and bans, by default), delete
// lifts bans and evicts too. URLs are the remote originals; a proxy URL of this server is read as the
// original it names.
import { logAction } from "../moderation-log/log.ts";
import { z } from "zod";
import type { Ctx } from "../context.ts";
import { array, bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { evictProxied } from "../media/proxy-cache.ts";
import { likeLiteral } from "../../db/like.ts";

/** True when an admin banned `url` from the media proxy (exact URL, as the family bans them). */
export async function isMediaProxyBanned(ctx: Pick<Ctx, "db">, url: string): Promise<boolean> {
  return (await ctx.db.mediaProxyBan.count({ where: { url } })) > 0;
}

const urls = array(z.string().min(1));

/** The remote URL a proxy URL of this server names (its base64url part), or the URL as given. */
function originalUrl(ctx: Pick<Ctx, "settings" | "config">, url: string): string {
  const bases = [ctx.settings.baseUrl, ctx.config.get("media_proxy", "base_url")].filter(Boolean).map((b) => b.replace(/\/$/, ""));
  for (const base of bases) {
    const m = url.startsWith(`${base}/proxy/`) ? url.slice(base.length).match(/^\/proxy\/(?:preview\/)?[A-Za-z0-9_-]+\/([A-Za-z0-9_-]+)/) : null;
    if (m) return Buffer.from(m[1], "base64url").toString("utf8");
  }
  return url;
}

/** Banned URLs, newest ban first; `query` keeps those containing it (case-insensitive). */
export const listMediaProxyBans = operation({
  name: "admin.mediaProxy.list",
  access: { scopes: ["admin:read:media_proxy_caches"], role: "admin" },
  input: z.object({ query: z.string().optional(), offset: int().pipe(z.number().min(0)).default(0), limit: int().pipe(z.number().min(1)).default(50) }),
  async run(ctx, input) {
    const where = input.query ? { url: { contains: likeLiteral(input.query), mode: "insensitive" as const } } : {};
    const [count, rows] = await Promise.all([
      ctx.db.mediaProxyBan.count({ where }),
      ctx.db.mediaProxyBan.findMany({ where, orderBy: [{ createdAt: "desc" }, { url: "asc" }], skip: input.offset, take: input.limit, select: { url: true } }),
    ]);
    return { count, urls: rows.map((r) => r.url) };
  },
});

/** Lifts the bans of `urls` (unknown ones are ignored). */
export const unbanMediaProxyUrls = operation({
  name: "admin.mediaProxy.delete",
  access: { scopes: ["admin:write:media_proxy_caches"], role: "admin" },
  input: z.object({ urls }),
  async run(ctx, input) {
    const originals = input.urls.map((u) => originalUrl(ctx, u));
    await ctx.db.mediaProxyBan.deleteMany({ where: { url: { in: originals } } });
    await evictProxied(ctx, originals);
    await logAction(ctx, { action: "media_proxy_unban", urls: originals });
  },
});

/** Purges `urls` from the proxy's cache and, with `ban` (the family's default), bans them. */
export const purgeMediaProxyUrls = operation({
  name: "admin.mediaProxy.purge",
  access: { scopes: ["admin:write:media_proxy_caches"], role: "admin" },
  input: z.object({ urls, ban: bool().optional().default(true) }),
  async run(ctx, input) {
    const originals = [...new Set(input.urls.map((u) => originalUrl(ctx, u)))];
    await evictProxied(ctx, originals);
    if (input.ban) await ctx.db.mediaProxyBan.createMany({ data: originals.map((url) => ({ url, createdAt: ctx.clock() })), skipDuplicates: true });
    await logAction(ctx, { action: "media_proxy_purge", urls: originals, ban: input.ban });
  },
});
