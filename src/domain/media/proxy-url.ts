// The family's media proxy URLs: `<base>/proxy/<signature>/<base64url of the URL>/<filename>`, where the
// signature is the unpadded base64url HMAC-SHA1 of the encoded URL (Pleroma's MediaProxy.encode_url),
// keyed with an instance secret shared by every process. Rendering is synchronous, so the key is loaded
// once per database (at start-up, and by the proxy route) and rendering proxies nothing until it is.
import crypto from "node:crypto";
import type { Settings } from "../../config/env.ts";
import type { RuntimeConfig } from "../../config/runtime.ts";
import type { Services } from "../context.ts";
import { instanceSecret } from "../instance/secrets.ts";

const keys = new WeakMap<object, Buffer>();

/** Loads (creating it once) the proxy's signing key. */
export async function loadMediaProxyKey(services: Pick<Services, "db">): Promise<Buffer> {
  const known = keys.get(services.db);
  if (known) return known;
  const secret = await instanceSecret(services, "media_proxy_key", () => crypto.randomBytes(32).toString("base64url"));
  const key = Buffer.from(secret, "base64url");
  keys.set(services.db, key);
  return key;
}

const b64 = (data: string | Buffer) => Buffer.from(data).toString("base64url");
const sign = (key: Buffer, encoded: string) => crypto.createHmac("sha1", key).update(encoded).digest("base64url");

/** The URL named by a proxy path, when its signature is right; null otherwise. */
export function verifyProxyPath(key: Buffer, signature: string, encoded: string): string | null {
  const expected = Buffer.from(sign(key, encoded));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const url = Buffer.from(encoded, "base64url").toString("utf8");
  return /^https?:\/\//i.test(url) ? url : null;
}

type RenderCtx = { settings: Pick<Settings, "baseUrl">; config?: RuntimeConfig; db?: object };

/** The filename the family appends: the URL path's last segment, when it has one. */
function filenameOf(url: URL): string | null {
  const last = url.pathname.split("/").pop();
  return last ? last : null;
}

/**
 * `url` as the clients of this server should load it: through the proxy when it is on and the URL is
 * remote (not this server's, not whitelisted); as it is otherwise.
 */
export function proxiedUrl<T extends string | null | undefined>(ctx: RenderCtx, url: T): T | string {
  return proxyPath(ctx, url, "");
}

/**
 * A remote image's preview as clients should load it: the preview proxy's downscaled copy
 * (`/proxy/preview/…`, same signature) when it and the media proxy are on; `proxiedUrl` otherwise.
 */
export function previewProxiedUrl<T extends string | null | undefined>(ctx: RenderCtx, url: T): T | string {
  return proxyPath(ctx, url, ctx.config?.get("media_preview_proxy", "enabled") ? "preview/" : "");
}

function proxyPath<T extends string | null | undefined>(ctx: RenderCtx, url: T, kind: "" | "preview/"): T | string {
  if (!url || !ctx.config || !ctx.db || !ctx.config.get("media_proxy", "enabled")) return url;
  const key = keys.get(ctx.db);
  if (!key) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!/^https?:$/.test(parsed.protocol)) return url;
  const base = (ctx.config.get("media_proxy", "base_url") || ctx.settings.baseUrl).replace(/\/$/, "");
  if (parsed.origin === new URL(ctx.settings.baseUrl).origin || url.startsWith(`${base}/`)) return url;
  const whitelisted = ctx.config.get("media_proxy", "whitelist").some((w) => {
    const entry = w.includes("://") ? w : `https://${w}`;
    try {
      return new URL(entry).host.toLowerCase() === parsed.host.toLowerCase();
    } catch {
      return false;
    }
  });
  if (whitelisted) return url;
  const encoded = b64(url);
  const filename = filenameOf(parsed);
  return `${base}/proxy/${kind}${sign(key, encoded)}/${encoded}${filename ? `/${filename}` : ""}`;
}
