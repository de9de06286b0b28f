// The media proxy's cache: one file per URL under DATA_DIR/media-proxy (named by the URL's SHA-256, with
// a small JSON beside it), so every process of the instance sharing DATA_DIR shares it. Copies expire
// after `media_proxy.cache_ttl_seconds`; beyond `media_proxy.cache_max_bytes` the oldest copies go.
// Admins evict copies through the media_proxy_caches endpoints; an instance purge evicts its media.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Ctx } from "../context.ts";

type CacheCtx = Pick<Ctx, "settings"> & Partial<Pick<Ctx, "config" | "clock">>;

export interface CachedCopy {
  url: string;
  contentType: string;
  /** "inline" for media, else "attachment" */
  disposition: "inline" | "attachment";
  body: Buffer;
  fetchedAt: number;
}

const dirOf = (ctx: Pick<Ctx, "settings">) => path.join(ctx.settings.dataDir, "media-proxy");
const nameOf = (url: string) => crypto.createHash("sha256").update(url).digest("hex");

/** The cached copy of `url`, unless there is none or it expired. */
export async function cachedCopy(ctx: CacheCtx, url: string): Promise<CachedCopy | null> {
  const base = path.join(dirOf(ctx), nameOf(url));
  try {
    const meta = JSON.parse(await fs.readFile(`${base}.json`, "utf8")) as Omit<CachedCopy, "body">;
    const ttl = (ctx.config?.get("media_proxy", "cache_ttl_seconds") ?? 86_400) * 1000;
    if (meta.url !== url || (ctx.clock?.() ?? new Date()).getTime() - meta.fetchedAt > ttl) return null;
    return { ...meta, body: await fs.readFile(`${base}.bin`) };
  } catch {
    return null;
  }
}

/** Keeps a copy, then trims the cache to its size limit (oldest first). */
export async function keepCopy(ctx: CacheCtx, copy: CachedCopy): Promise<void> {
  const dir = dirOf(ctx);
  await fs.mkdir(dir, { recursive: true });
  const base = path.join(dir, nameOf(copy.url));
  const { body, ...meta } = copy;
  await fs.writeFile(`${base}.bin`, body);
  await fs.writeFile(`${base}.json`, JSON.stringify(meta));
  await trim(ctx, dir);
}

async function trim(ctx: CacheCtx, dir: string) {
  const limit = ctx.config?.get("media_proxy", "cache_max_bytes") ?? 512 * 1024 * 1024;
  const files = await fs.readdir(dir).catch(() => [] as string[]);
  const entries = (
    await Promise.all(
      files.filter((f) => f.endsWith(".bin")).map(async (f) => {
        const stat = await fs.stat(path.join(dir, f)).catch(() => null);
        return stat ? { base: path.join(dir, f.slice(0, -4)), size: stat.size, at: stat.mtimeMs } : null;
      }),
    )
  ).filter((e) => e !== null);
  let total = entries.reduce((sum, e) => sum + e.size, 0);
  for (const e of entries.sort((x, y) => x.at - y.at)) {
    if (total <= limit) break;
    await removeFiles(e.base);
    total -= e.size;
  }
}

const removeFiles = (base: string) => Promise.all([fs.rm(`${base}.bin`, { force: true }), fs.rm(`${base}.json`, { force: true })]);

/** Drops the cached copies of these URLs (unknown ones are ignored). */
export async function evictProxied(ctx: Pick<Ctx, "settings">, urls: readonly string[]): Promise<void> {
  const dir = dirOf(ctx);
  for (const url of urls) await removeFiles(path.join(dir, nameOf(url)));
}

/** Whether a copy of `url` is cached (expired or not): what the admin tests look at. */
export async function isCached(ctx: Pick<Ctx, "settings">, url: string): Promise<boolean> {
  return fs.access(path.join(dirOf(ctx), `${nameOf(url)}.bin`)).then(
    () => true,
    () => false,
  );
}
