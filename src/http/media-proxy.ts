// GET /proxy/:signature/:url[/:filename] (the family's media proxy path; /proxy/preview/… its downscaled previews): binary answers, so mounted as
// a plain Express route beside /media rather than among the JSON API declarations. Errors answer the
// family's `{"error": …}` shape: 403 forged signature, 404 banned or proxy off, 502 remote failure,
// 400/422 for URLs the guarded client refuses.
import type express from "express";
import type { Services } from "../kernel/context.ts";
import { UpstreamFailure } from "../kernel/errors.ts";
import { previewFile, proxiedFile } from "../domain/media/media-proxy.ts";
import { GuardedFetchError } from "../net/guarded-fetch.ts";

/** A filename fit for a header: what the path gave, or the URL's last segment, reduced to safe characters. */
const safeName = (name: string | undefined, url: string) =>
  (name || new URL(url).pathname.split("/").pop() || "file").replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128) || "file";

export function mediaProxyRoute(services: Services, sendError: (res: express.Response, error: unknown) => void, opts: { preview?: boolean } = {}): express.RequestHandler {
  return async (req, res) => {
    try {
      const { signature, url, filename } = req.params as { signature: string; url: string; filename?: string };
      const copy = await (opts.preview ? previewFile : proxiedFile)(services, signature, url);
      res.set({
        "Content-Type": copy.contentType,
        "Content-Length": String(copy.body.length),
        "Content-Disposition": `${copy.disposition}; filename="${safeName(filename, copy.url)}"`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": `public, max-age=${services.config.get("media_proxy", "cache_ttl_seconds")}`,
      });
      res.end(req.method === "HEAD" ? undefined : copy.body);
    } catch (error) {
      // the remote side failed (not our refusal of its address): a bad gateway
      if (error instanceof UpstreamFailure || (error instanceof GuardedFetchError && error.reason !== "refused")) return void res.status(502).json({ error: error.message });
      sendError(res, error);
    }
  };
}
