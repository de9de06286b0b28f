// Serving a proxied remote file (`GET /proxy/<signature>/<encoded URL>[/<filename>]`): the signature is
// checked (403), banned URLs are refused (404 until unbanned), a fresh cached copy is served, else the
// file is fetched through the guarded client (private addresses, size and time limits, redirects
// re-checked) and kept. What is served is decided from the bytes (file-type), never from the remote
// server's word: images, video and audio inline with their detected type; anything else — HTML and SVG
// included — as `application/octet-stream` with `Content-Disposition: attachment`.
import { loadSharp } from "../../media/sharp.ts";
import { IMAGE_LIMITS } from "../../media/storage.ts";
import { guardedFetch } from "../../net/guarded-fetch.ts";
import { isMediaProxyBanned } from "../media-proxy/media-proxy.ops.ts";
import type { Services } from "../context.ts";
import { Forbidden, NotFound, UpstreamFailure } from "../../kernel/errors.ts";
import { cachedCopy, keepCopy, type CachedCopy } from "./proxy-cache.ts";
import { loadMediaProxyKey, verifyProxyPath } from "./proxy-url.ts";

const MEDIA = /^(image|video|audio)\//;

export async function proxiedFile(services: Services, signature: string, encoded: string): Promise<CachedCopy> {
  if (!services.config.get("media_proxy", "enabled")) throw NotFound("Not found");
  const url = verifyProxyPath(await loadMediaProxyKey(services), signature, encoded);
  if (!url) throw Forbidden("Forbidden");
  if (await isMediaProxyBanned(services, url)) throw NotFound("Not found");
  const cached = await cachedCopy(services, url);
  if (cached) return cached;
  const res = await guardedFetch(services, url, { maxBytes: services.config.get("media_proxy", "proxy_opts").max_body_length });
  if (!res.ok) throw new UpstreamFailure(`The remote server answered ${res.status}`);
  const { fileTypeFromBuffer } = await import("file-type"); // at the first proxied file, not at start
  const detected = await fileTypeFromBuffer(res.body).catch(() => undefined);
  const media = detected && MEDIA.test(detected.mime);
  const copy: CachedCopy = { url, contentType: media ? detected.mime : "application/octet-stream", disposition: media ? "inline" : "attachment", body: res.body, fetchedAt: services.clock().getTime() };
  await keepCopy(services, copy);
  return copy;
}

/**
 * The preview proxy (`GET /proxy/preview/<signature>/<encoded URL>`): the proxied file, downscaled to fit
 * `media_preview_proxy.thumbnail_max_width`×`thumbnail_max_height` when it is an image sharp reads
 * (JPEG, or PNG when it has transparency); anything else is served as the media proxy serves it.
 * Previews are made from the cached original on each request (sharp takes milliseconds at this size).
 */
export async function previewFile(services: Services, signature: string, encoded: string): Promise<CachedCopy> {
  if (!services.config.get("media_preview_proxy", "enabled")) throw NotFound("Not found");
  const copy = await proxiedFile(services, signature, encoded);
  if (!/^image\/(png|jpeg|gif|webp|avif)$/.test(copy.contentType)) return copy;
  const opts = services.config.group("media_preview_proxy");
  try {
    const sharp = await loadSharp();
    const image = sharp(copy.body, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: "error" }).autoOrient().resize(opts.thumbnail_max_width, opts.thumbnail_max_height, { fit: "inside", withoutEnlargement: true });
    const alpha = (await sharp(copy.body, { limitInputPixels: IMAGE_LIMITS.maxPixels }).metadata()).hasAlpha;
    const body = alpha ? await image.png().toBuffer() : await image.jpeg({ quality: opts.image_quality }).toBuffer();
    return { ...copy, contentType: alpha ? "image/png" : "image/jpeg", body };
  } catch {
    return copy; // not decodable (or past the pixel limit): the original, as the media proxy would serve it
  }
}
