// The MediaAttachment entity in the reference API's shape, with the family's `<ns>.mime_type`.
// Local images have a downscaled preview, sizes and a blurhash computed at upload (src/media/processing.ts);
// audio and video their probed duration. Remote media bring their own blurhash and have no preview
// of ours: their `preview_url` is the preview proxy's downscaled copy when it is on, else the file itself.
import type { Ctx } from "../../src/domain/context.ts";
import type { MediaAttachment } from "../../src/generated/prisma/client.ts";
import { previewProxiedUrl, proxiedUrl } from "../../src/domain/media/proxy-url.ts";

export function renderMedia(ctx: Ctx, m: MediaAttachment) {
  const focus = m.focusX !== null && m.focusY !== null ? { x: m.focusX, y: m.focusY } : null;
  return {
    id: m.id,
    type: m.type,
    // remote files through the media proxy when it is on (remote_url keeps the original)
    url: proxiedUrl(ctx, m.url),
    preview_url: m.previewUrl ?? (m.type === "image" ? previewProxiedUrl(ctx, m.url) : proxiedUrl(ctx, m.url)),
    remote_url: m.remoteUrl,
    preview_remote_url: null,
    text_url: null,
    meta: m.meta || focus ? { ...(m.meta as Record<string, unknown> | null), ...(focus ? { focus } : {}) } : null,
    description: m.description,
    blurhash: m.blurhash,
    [ctx.settings.namespace]: { mime_type: m.mimeType },
  };
}
