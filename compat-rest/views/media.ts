// The MediaAttachment entity in the reference API's shape, with the family's `<ns>.mime_type`.
// Files are served as uploaded: no previews, blurhash or dimensions are computed (remote media bring their blurhash), so `preview_url`
// is the file itself and `meta` only carries a focal point the owner set.
import type { Ctx } from "../../src/domain/context.ts";
import type { MediaAttachment } from "../../src/generated/prisma/client.ts";

export function renderMedia(ctx: Ctx, m: MediaAttachment) {
  const focus = m.focusX !== null && m.focusY !== null ? { x: m.focusX, y: m.focusY } : null;
  return {
    id: m.id,
    type: m.type,
    url: m.url,
    preview_url: m.url,
    remote_url: m.remoteUrl,
    preview_remote_url: null,
    text_url: null,
    meta: focus ? { focus } : null,
    description: m.description,
    blurhash: m.blurhash,
    [ctx.settings.namespace]: { mime_type: m.mimeType },
  };
}
