// Stores uploaded files under DATA_DIR/uploads/<id>/ and names their public URL (/media/<id>/<file>).
// The extension comes from the checked content type, never from the client's file name, so an
// upload cannot be served back as HTML.
import { imageSize } from "image-size";
import fs from "node:fs/promises";
import path from "node:path";
import { newId } from "../db/ids.ts";
import { IMAGE_LIMITS, probeAudioVideo, processImage, strippedImage } from "./processing.ts";
import type { Ctx } from "../kernel/context.ts";
import { DomainError, Invalid, Unprocessable } from "../kernel/errors.ts";

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

// IMAGE_LIMITS (src/media/processing.ts, which decodes) are checked here from the header, nothing decoded
export { IMAGE_LIMITS };

function assertImageDimensions(buffer: Uint8Array, field: string) {
  let size: { width: number; height: number };
  try {
    size = imageSize(buffer);
  } catch {
    throw Unprocessable(`${field}: not a readable image`, { [field]: "is not a readable image" });
  }
  if (size.width > IMAGE_LIMITS.maxSide || size.height > IMAGE_LIMITS.maxSide || size.width * size.height > IMAGE_LIMITS.maxPixels) {
    throw Unprocessable(`${field}: image dimensions ${size.width}×${size.height} exceed the limit (${IMAGE_LIMITS.maxSide} pixels a side, ${IMAGE_LIMITS.maxPixels} in all)`, { [field]: "is too large" });
  }
}

/**
 * Writes a file whole or not at all: into a temporary name, renamed when complete. A failed write (a
 * full disk: ENOSPC, answered 507) leaves no partial file, and no folder it created.
 */
async function writeWhole(dir: string, name: string, data: Uint8Array): Promise<void> {
  const created = await fs.mkdir(dir, { recursive: true });
  const partial = path.join(dir, `.${name}.partial`);
  try {
    await fs.writeFile(partial, data);
    await fs.rename(partial, path.join(dir, name));
  } catch (error) {
    await fs.rm(partial, { force: true }).catch(() => {});
    if (created) await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
}

export async function storeImage(ctx: Ctx, upload: Upload, opts: { field: string; maxBytes: number }): Promise<string> {
  if (upload.size > opts.maxBytes) throw new DomainError("invalid", `${opts.field}: file is too large (limit ${opts.maxBytes} bytes)`, { [opts.field]: "is too large" });
  const type = detectImageType(upload.buffer);
  if (!type) throw Invalid(`${opts.field}: not an image (png, jpeg, gif, webp or avif)`, { [opts.field]: "is not an image" });
  assertImageDimensions(upload.buffer, opts.field);
  const data = await readable(opts.field, () => strippedImage(upload.buffer, type));
  const id = newId();
  const name = `${opts.field}.${IMAGE_TYPES[type]}`;
  await writeWhole(path.join(uploadsDir(ctx), id), name, data);
  return `${ctx.settings.baseUrl}/media/${id}/${name}`;
}

/** An upload over its size limit; REST routes that document 413 map it there (it is "invalid" elsewhere). */
export class FileTooLarge extends DomainError {
  constructor(
    readonly field: string,
    readonly limit: number,
  ) {
    super("invalid", `${field}: file is too large (limit ${limit} bytes)`, { [field]: "is too large" });
  }
}

export type MediaKind = "image" | "video" | "audio";

export interface StoredMedia {
  url: string;
  /** detected from the content */
  mimeType: string;
  kind: MediaKind;
  /** of the stored file (for images, after their metadata was stripped) */
  size: number;
  /** images: a downscaled copy */
  previewUrl: string | null;
  /** the reference API's `meta` (sizes, aspect, duration…), null when nothing could be probed */
  meta: Record<string, unknown> | null;
  blurhash: string | null;
}

/** Runs sharp on an image whose header read well; a body it cannot decode is the client's fault (422). */
async function readable<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch {
    // only decoding runs here (no disk): a truncated or corrupt body, or one past sharp's pixel limit
    throw Unprocessable(`${field}: not a readable image`, { [field]: "is not a readable image" });
  }
}

/** Types a browser could run as a document are refused even though they are "images". */
const REFUSED_TYPES = new Set(["image/svg+xml"]);

/** The media kind of a detected mime type, or null when it is not accepted media. */
export function mediaKind(mime: string): MediaKind | null {
  if (REFUSED_TYPES.has(mime)) return null;
  const top = mime.split("/")[0];
  return top === "image" || top === "video" || top === "audio" ? top : null;
}

/** The content's type and usual extension (from its bytes, never from the client's claim), or null. */
export async function detectMediaType(buffer: Buffer): Promise<{ mime: string; ext: string; kind: MediaKind } | null> {
  const { fileTypeFromBuffer } = await import("file-type"); // at the first upload, not at start
  const found = await fileTypeFromBuffer(buffer);
  if (!found) return null;
  const mime = found.mime.split(";")[0].trim();
  const kind = mediaKind(mime);
  return kind && /^[a-z0-9]+$/.test(found.ext) ? { mime, ext: found.ext, kind } : null;
}

/**
 * Stores any accepted media (image, video, audio) under uploads/<id>/<field>.<ext>, `id` being the
 * caller's record id when given. Throws FileTooLarge over `maxBytes`, 422 for other content.
 */
export async function storeMedia(ctx: Ctx, upload: Upload, opts: { field: string; maxBytes: number; id?: string }): Promise<StoredMedia> {
  const size = upload.buffer.length;
  if (size > opts.maxBytes || upload.size > opts.maxBytes) throw new FileTooLarge(opts.field, opts.maxBytes);
  const type = await detectMediaType(upload.buffer);
  if (!type) throw Unprocessable(`${opts.field}: unsupported file type (images, video and audio are accepted)`, { [opts.field]: "is not a supported media type" });
  const id = opts.id ?? newId();
  if (!/^[0-9a-z]{26}$/.test(id)) throw new Error(`storeMedia: not an id: ${id}`);
  const dir = path.join(uploadsDir(ctx), id);
  const urlOf = (name: string) => `${ctx.settings.baseUrl}/media/${id}/${name}`;
  const name = `${opts.field}.${type.ext}`;
  // images sharp can process (GIF, PNG, JPEG, WebP, AVIF); others (BMP, HEIC, …) are served as sent
  if (type.kind === "image" && IMAGE_TYPES[type.mime]) {
    assertImageDimensions(upload.buffer, opts.field);
    const image = await readable(opts.field, () => processImage(upload.buffer, type.mime));
    const preview = `small.${image.preview.ext}`;
    await writeWhole(dir, name, image.data);
    await writeWhole(dir, preview, image.preview.data).catch(async (error) => {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
      throw error;
    });
    return { url: urlOf(name), mimeType: type.mime, kind: type.kind, size: image.data.length, previewUrl: urlOf(preview), meta: { ...image.meta }, blurhash: image.blurhash };
  }
  if (type.kind === "image") assertImageDimensions(upload.buffer, opts.field);
  const meta = type.kind === "image" ? null : await probeAudioVideo(upload.buffer, type.mime);
  await writeWhole(dir, name, upload.buffer);
  return { url: urlOf(name), mimeType: type.mime, kind: type.kind, size, previewUrl: null, meta, blurhash: null };
}

/** Removes a file this server stored (a URL of another origin, or none, is left alone). */
export async function removeStored(ctx: Pick<Ctx, "settings">, url: string | null | undefined): Promise<void> {
  const prefix = `${ctx.settings.baseUrl}/media/`;
  if (!url?.startsWith(prefix)) return;
  const [id] = url.slice(prefix.length).split("/");
  if (!/^[0-9a-z]{26}$/.test(id)) return;
  await fs.rm(path.join(uploadsDir(ctx), id), { recursive: true, force: true });
}
