// Media-proxy cache bans of the admin API. There is no media proxy yet: the bans are stored now and
// the proxy, when it exists, must refuse every URL `isMediaProxyBanned` reports (and purge its cache
// where `purgeMediaProxyUrls` says so).
import { z } from "zod";
import { requireAdmin } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { array, bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";

/** True when an admin banned `url` from the media proxy (exact URL, as the family bans them). */
export async function isMediaProxyBanned(ctx: Pick<Ctx, "db">, url: string): Promise<boolean> {
  return (await ctx.db.mediaProxyBan.count({ where: { url } })) > 0;
}

const urls = array(z.string().min(1));

/** Banned URLs, newest ban first; `query` keeps those containing it (case-insensitive). */
export const listMediaProxyBans = operation({
  name: "admin.mediaProxy.list",
  input: z.object({ query: z.string().optional(), offset: int().pipe(z.number().min(0)).default(0), limit: int().pipe(z.number().min(1)).default(50) }),
  authorize: (ctx) => requireAdmin(ctx),
  async run(ctx, input) {
    const where = input.query ? { url: { contains: input.query, mode: "insensitive" as const } } : {};
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
  input: z.object({ urls }),
  authorize: (ctx) => requireAdmin(ctx),
  async run(ctx, input) {
    await ctx.db.mediaProxyBan.deleteMany({ where: { url: { in: input.urls } } });
  },
});

/** Purges `urls` from the proxy's cache and, with `ban` (the family's default), bans them. */
export const purgeMediaProxyUrls = operation({
  name: "admin.mediaProxy.purge",
  input: z.object({ urls, ban: bool().optional().default(true) }),
  authorize: (ctx) => requireAdmin(ctx),
  async run(ctx, input) {
    // media proxy: drop the cached copies of input.urls here once the proxy keeps a cache
    if (input.ban) await ctx.db.mediaProxyBan.createMany({ data: [...new Set(input.urls)].map((url) => ({ url, createdAt: ctx.clock() })), skipDuplicates: true });
  },
});
