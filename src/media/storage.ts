// Stores uploaded files under DATA_DIR/uploads/<id>/ and names their public URL (/media/<id>/<file>).
// The extension comes from the checked content type, never from the client's file name, so an
// upload cannot be served back as HTML.
import fs from "node:fs/promises";
import path from "node:path";
import { newId } from "../db/ids.ts";
import type { Ctx } from "../domain/context.ts";
import { DomainError, Invalid } from "../domain/errors.ts";

export interface Upload {
  buffer: Buffer;
  mimetype: string;
  originalname: string;
  size: number;
}

export const IMAGE_TYPES: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
};

/** Leading bytes of each image type: the declared type must match the content. */
const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  ["image/png", (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))],
  ["image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => b.subarray(0, 4).toString("latin1") === "GIF8"],
  ["image/webp", (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP"],
  ["image/avif", (b) => b.subarray(4, 12).toString("latin1") === "ftypavif"],
];

export const uploadsDir = (ctx: Pick<Ctx, "settings">) => path.join(ctx.settings.dataDir, "uploads");

/** An image's detected type, or null when the bytes are not one of the accepted image formats. */
export function detectImageType(buffer: Buffer): string | null {
  return SIGNATURES.find(([, test]) => test(buffer))?.[0] ?? null;
}

export async function storeImage(ctx: Ctx, upload: Upload, opts: { field: string; maxBytes: number }): Promise<string> {
  if (upload.size > opts.maxBytes) throw new DomainError("invalid", `${opts.field}: file is too large (limit ${opts.maxBytes} bytes)`, { [opts.field]: "is too large" });
  const type = detectImageType(upload.buffer);
  if (!type) throw Invalid(`${opts.field}: not an image (png, jpeg, gif, webp or avif)`, { [opts.field]: "is not an image" });
  const id = newId();
  const name = `${opts.field}.${IMAGE_TYPES[type]}`;
  await fs.mkdir(path.join(uploadsDir(ctx), id), { recursive: true });
  await fs.writeFile(path.join(uploadsDir(ctx), id, name), upload.buffer);
  return `${ctx.settings.baseUrl}/media/${id}/${name}`;
}

/** Removes a file this server stored (a URL of another origin, or none, is left alone). */
export async function removeStored(ctx: Ctx, url: string | null | undefined): Promise<void> {
  const prefix = `${ctx.settings.baseUrl}/media/`;
  if (!url?.startsWith(prefix)) return;
  const [id] = url.slice(prefix.length).split("/");
  if (!/^[0-9a-z]{26}$/.test(id)) return;
  await fs.rm(path.join(uploadsDir(ctx), id), { recursive: true, force: true });
}
