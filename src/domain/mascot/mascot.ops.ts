// The own API mascot: an image the frontend shows beside the post form. Setting one uploads it like
// POST /api/v1/media (it becomes one of the account's attachments) and keeps it on the account.
import { z } from "zod";
import type { Upload } from "../../media/storage.ts";
import { detectImageType } from "../../media/storage.ts";
import { requireAccount } from "../auth/policy.ts";
import { DomainError } from "../../kernel/errors.ts";
import { uploadMedia } from "../media/media.ops.ts";
import { operation } from "../operation.ts";

export interface Mascot {
  id: string;
  url: string;
  type: "image";
  mime_type: string;
}

/** Not an image: the family answers 415. */
export class NotAnImage extends DomainError {
  constructor() {
    super("invalid", "mascots can only be images");
  }
}

export const DEFAULT_MASCOT = { id: "default-mascot", path: "/images/avi.png", mime_type: "image/png" };

export const showMascot = operation({
  name: "showMascot",
  access: { scopes: ["read:accounts"] },
  input: z.object({}),
  async run(ctx): Promise<Mascot> {
    const me = requireAccount(ctx);
    return (me.mascot as Mascot | null) ?? { id: DEFAULT_MASCOT.id, url: ctx.settings.baseUrl + DEFAULT_MASCOT.path, type: "image", mime_type: DEFAULT_MASCOT.mime_type };
  },
});

export const updateMascot = operation({
  name: "updateMascot",
  access: { scopes: ["write:accounts"] },
  input: z.object({ file: z.custom<Upload>((v) => !!v && typeof v === "object" && Buffer.isBuffer((v as Upload).buffer), "is required") }),
  async run(ctx, { file }): Promise<Mascot> {
    const me = requireAccount(ctx);
    // checked on the content, whatever type the client claims
    if (!detectImageType(file.buffer)) throw new NotAnImage();
    const media = await uploadMedia(ctx, { file });
    const mascot: Mascot = { id: media.id, url: media.url, type: "image", mime_type: media.mimeType };
    await ctx.db.account.update({ where: { id: me.id }, data: { mascot: mascot as object } });
    return mascot;
  },
});
