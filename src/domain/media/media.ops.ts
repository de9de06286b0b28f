// Media uploads: processed and stored within the request (docs/media.md: previews, sizes, blurhash,
// metadata stripped; audio and video probed), described and given a focal point by
// their owner, then attached to a status by the status-posting code through `attachableMedia`.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { MediaAttachment, Prisma } from "../../generated/prisma/client.ts";
import { removeStored, storeMedia, type Upload } from "../../media/storage.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { text } from "../input-limits.ts";
import { statusesChanged } from "../statuses/status-cache.ts";

export interface Focus {
  x: number;
  y: number;
}

/** "x,y" with both in -1..1; "" clears the focal point (null). */
export function parseFocus(value: string): Focus | null {
  if (value.trim() === "") return null;
  const parts = value.split(",").map((p) => p.trim());
  const [x, y] = parts.map(Number);
  const ok = parts.length === 2 && parts.every((p) => /^[-+]?(\d+\.?\d*|\.\d+)$/.test(p)) && [x, y].every((n) => n >= -1 && n <= 1);
  if (!ok) throw Unprocessable(`focus: must be two numbers "x,y" between -1.0 and 1.0`, { focus: "is invalid" });
  return { x, y };
}

function checkDescription(ctx: Ctx, description: string | undefined): string | null | undefined {
  if (description === undefined) return undefined;
  const limit = ctx.config.get("instance", "description_limit");
  if ([...description].length > limit) throw Unprocessable(`description: is too long (limit ${limit} characters)`, { description: "is too long" });
  return description === "" ? null : description;
}

const describe = {
  description: text().optional(),
  /** "x,y" in -1..1 */
  focus: z.string().optional(),
};

function focusData(focus: string | undefined) {
  if (focus === undefined) return {};
  const parsed = parseFocus(focus);
  return { focusX: parsed?.x ?? null, focusY: parsed?.y ?? null };
}

export const uploadMedia = operation({
  name: "media.upload",
  access: { scopes: ["write:media"] },
  input: z.object({ file: z.custom<Upload>((v) => !!v && typeof v === "object" && Buffer.isBuffer((v as Upload).buffer), "is required"), ...describe }),
  authorize: requireAccount,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    // validate everything cheap before writing the file
    const description = checkDescription(ctx, input.description) ?? null;
    const focus = focusData(input.focus);
    const id = newId();
    const stored = await storeMedia(ctx, input.file, { field: "file", maxBytes: ctx.config.get("instance", "upload_limit"), id });
    try {
      return await ctx.db.mediaAttachment.create({
        data: {
          id,
          accountId: me.id,
          type: stored.kind,
          mimeType: stored.mimeType,
          url: stored.url,
          size: stored.size,
          previewUrl: stored.previewUrl,
          meta: (stored.meta ?? undefined) as Prisma.InputJsonValue | undefined,
          blurhash: stored.blurhash,
          description,
          ...focus,
        },
      });
    } catch (error) {
      await removeStored(ctx, stored.url);
      throw error;
    }
  },
});

/** The viewer's own attachment; anyone else's is "not found" rather than forbidden. */
async function ownMedia(ctx: Ctx, id: string): Promise<MediaAttachment> {
  const me = requireAccount(ctx);
  const row = await ctx.db.mediaAttachment.findUnique({ where: { id } });
  if (!row || row.accountId !== me.id) throw NotFound("Record not found");
  return row;
}

export const showMedia = operation({
  name: "media.show",
  access: { scopes: ["read:media"] },
  input: z.object({ id: z.string() }),
  authorize: requireAccount,
  run: (ctx, input) => ownMedia(ctx, input.id),
});

export const updateMedia = operation({
  name: "media.update",
  access: { scopes: ["write:media"] },
  input: z.object({ id: z.string(), ...describe }),
  authorize: requireAccount,
  async run(ctx, input) {
    const row = await ownMedia(ctx, input.id);
    const description = checkDescription(ctx, input.description);
    const data = { ...(description !== undefined ? { description } : {}), ...focusData(input.focus) };
    if (Object.keys(data).length === 0) return row;
    const updated = await ctx.db.mediaAttachment.update({ where: { id: row.id }, data });
    statusesChanged(ctx, [row.statusId]); // an attached one's description or focus
    return updated;
  },
});

/**
 * The media a status of `accountId` may carry, in the order of `ids` (duplicates dropped): only that
 * account's own uploads. With `statusId` (editing a status), media already attached to another status
 * is refused; without it, any of the account's uploads may be (re)used, as the family allows.
 * Unknown ids and other accounts' media fail the whole request (422).
 */
export async function attachableMedia(ctx: Ctx, accountId: string, ids: readonly string[], opts: { statusId?: string } = {}): Promise<MediaAttachment[]> {
  const wanted = [...new Set(ids.map((id) => String(id).trim()))];
  if (wanted.length === 0) return [];
  if (wanted.some((id) => id === "")) throw Invalid("media_ids: empty id", { media_ids: "is invalid" });
  const rows = await ctx.db.mediaAttachment.findMany({ where: { id: { in: wanted }, accountId } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = wanted.filter((id) => !byId.has(id));
  if (missing.length) throw Unprocessable(`media_ids: no such media of yours: ${missing.join(", ")}`, { media_ids: "is invalid" });
  if (opts.statusId !== undefined) {
    const taken = rows.filter((r) => r.statusId !== null && r.statusId !== opts.statusId).map((r) => r.id);
    if (taken.length) throw Unprocessable(`media_ids: already attached to another status: ${taken.join(", ")}`, { media_ids: "is invalid" });
  }
  return wanted.map((id) => byId.get(id)!);
}
