// What the server makes of an uploaded file before serving it (docs/media.md):
// - images are decoded once with sharp (libvips, off the event loop), turned upright by their EXIF
//   orientation and re-encoded without their metadata (EXIF, GPS, XMP, IPTC; the colour profile is
//   kept), and get a downscaled preview, their sizes and aspect, and a blurhash;
// - audio and video are probed (mp4box.js for MP4/QuickTime, music-metadata for the rest: parsers,
//   nothing is decoded) for duration, bitrate and, when the container says, the picture size.
// Decompression bombs are refused before this runs (image-size reads the header: storage.ts), and
// sharp's own pixel limit stands behind that for what the header did not tell.
// The two probes are imported at the first audio or video (~3 MB of heap a process that never sees one
// does not carry; docs/performance.md, "Idle memory, second round").
import { encode as encodeBlurhash } from "blurhash";
import type { Movie } from "mp4box";
import { loadSharp } from "./sharp.ts";

/** Previews hold about this many pixels (Mastodon's "small" size, 640×360). */
const PREVIEW_PIXELS = 640 * 360;

export interface Size {
  width: number;
  height: number;
  size: string;
  aspect: number;
}

export interface ImageMeta {
  original: Size;
  small: Size;
}

export interface ProcessedImage {
  /** the image to serve: upright, its metadata gone */
  data: Buffer;
  /** the served image's type and extension (the uploaded type, but GIF stays GIF untouched) */
  mime: string;
  ext: string;
  preview: { data: Buffer; ext: string };
  meta: ImageMeta;
  blurhash: string;
}

const sizeOf = (width: number, height: number): Size => ({ width, height, size: `${width}x${height}`, aspect: Math.round((width / height) * 10000) / 10000 });

/**
 * Images larger than this are refused (422) whatever their file size: a few kilobytes of PNG or GIF can
 * declare a 100,000 × 100,000 canvas that would take tens of gigabytes to decode (a decompression bomb
 * for every client and thumbnailer that opens it). storage.ts reads them from the header, nothing decoded.
 */
export const IMAGE_LIMITS = { maxSide: 16_384, maxPixels: 100_000_000 };

/** An input sharp refuses past the pixel limit (counting every frame of an animation). */

const input = async (data: Buffer, animated = false) => (await loadSharp())(data, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: "error", animated });

/** Re-encodes `data` (of type `mime`) upright and without metadata, in its own format. */
async function stripped(data: Buffer, mime: string, animated: boolean): Promise<{ data: Buffer; width: number; height: number }> {
  // GIF has no EXIF: kept byte for byte (re-encoding animations would cost more than it strips)
  if (mime === "image/gif") {
    const m = await (await input(data)).metadata();
    return { data, width: m.width ?? 0, height: m.height ?? 0 };
  }
  let image = (await input(data, animated)).autoOrient().keepIccProfile();
  if (mime === "image/jpeg") image = image.jpeg({ quality: 90 });
  else if (mime === "image/png") image = image.png();
  else if (mime === "image/webp") image = image.webp({ quality: 90 });
  else if (mime === "image/avif") image = image.avif({ quality: 70, effort: 2 });
  else throw new Error(`stripped: unexpected type ${mime}`);
  const { data: out, info } = await image.toBuffer({ resolveWithObject: true });
  // an animation's info.height is its page height when pages are known
  return { data: out, width: info.width, height: info.pageHeight ?? info.height };
}

/** The preview's dimensions: `width`×`height` scaled down to about PREVIEW_PIXELS, never up. */
function previewSize(width: number, height: number) {
  const scale = Math.min(1, Math.sqrt(PREVIEW_PIXELS / (width * height)));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export async function processImage(data: Buffer, mime: string): Promise<ProcessedImage> {
  const meta = await (await input(data)).metadata();
  const animated = (meta.pages ?? 1) > 1;
  const served = await stripped(data, mime, animated);
  const small = previewSize(served.width, served.height);
  // the preview and the blurhash come from the first frame of the served (upright) image
  const first = await input(served.data);
  const preview = meta.hasAlpha
    ? { data: await first.clone().resize(small.width, small.height).png().toBuffer(), ext: "png" }
    : { data: await first.clone().resize(small.width, small.height).jpeg({ quality: 80 }).toBuffer(), ext: "jpg" };
  const tiny = await first.clone().resize(32, 32, { fit: "inside" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const blurhash = encodeBlurhash(new Uint8ClampedArray(tiny.data), tiny.info.width, tiny.info.height, 4, 4);
  return {
    data: served.data,
    mime,
    ext: mime === "image/jpeg" ? "jpg" : mime.split("/")[1],
    preview,
    meta: { original: sizeOf(served.width, served.height), small: sizeOf(small.width, small.height) },
    blurhash,
  };
}

/** Re-encodes an image without its metadata (avatars, headers): the bytes to store. */
export async function strippedImage(data: Buffer, mime: string): Promise<Buffer> {
  const meta = await (await input(data)).metadata();
  return (await stripped(data, mime, (meta.pages ?? 1) > 1)).data;
}

/** "H:MM:SS.ss", the reference API's `meta.length`. */
function clock(seconds: number) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = (seconds % 60).toFixed(2).padStart(5, "0");
  return `${h}:${String(m).padStart(2, "0")}:${s}`;
}

interface Probed {
  duration?: number;
  bitrate?: number;
  width?: number;
  height?: number;
  frameRate?: string;
  codec?: string;
  sampleRate?: number;
  channels?: number;
}

/** MP4 and QuickTime files: their movie header and tracks (mp4box.js reads boxes, decodes nothing). */
async function probeIso(data: Buffer): Promise<Probed | null> {
  const { createFile, MP4BoxBuffer } = await import("mp4box");
  const file = createFile();
  let movie: Movie | null = null;
  file.onReady = (info) => (movie = info);
  file.onError = () => {};
  const copy = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, 0), true);
  file.flush();
  const m = movie as Movie | null;
  if (!m) return null;
  const video = m.videoTracks[0];
  const audio = m.audioTracks[0];
  const duration = m.timescale > 0 && m.duration > 0 ? m.duration / m.timescale : undefined;
  const frames = video && video.duration > 0 ? (video.nb_samples * video.timescale) / video.duration : undefined;
  return {
    duration,
    bitrate: duration ? Math.round((data.length * 8) / duration) : undefined,
    width: video?.video?.width || video?.track_width || undefined,
    height: video?.video?.height || video?.track_height || undefined,
    frameRate: frames ? String(Math.round(frames * 100) / 100) : undefined,
    codec: audio?.codec,
    sampleRate: audio?.audio?.sample_rate,
    channels: audio?.audio?.channel_count,
  };
}

/** Other audio and video containers (MP3, Ogg, FLAC, WAV, WebM/Matroska, …): music-metadata. */
async function probeOther(data: Buffer, mime: string): Promise<Probed | null> {
  const { parseBuffer } = await import("music-metadata");
  const found = await parseBuffer(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { mimeType: mime, size: data.length }, { duration: true, skipCovers: true });
  const f = found.format;
  const video = f.trackInfo?.find((t) => t.video)?.video;
  return {
    duration: f.duration,
    bitrate: f.bitrate,
    width: video?.displayWidth ?? video?.pixelWidth,
    height: video?.displayHeight ?? video?.pixelHeight,
    codec: f.codec,
    sampleRate: f.sampleRate,
    channels: f.numberOfChannels,
  };
}

const ISO_TYPES = new Set(["video/mp4", "video/quicktime", "audio/mp4", "audio/x-m4a", "video/x-m4v", "video/3gpp", "video/3gpp2"]);

/**
 * Duration, bitrate, channels and (video) picture size of an audio or video file, in the reference
 * API's `meta` shape; null when the container cannot be read (the file is still served as uploaded).
 */
export async function probeAudioVideo(data: Buffer, mime: string): Promise<Record<string, unknown> | null> {
  let p: Probed | null;
  try {
    p = ISO_TYPES.has(mime) ? await probeIso(data) : await probeOther(data, mime);
  } catch {
    return null;
  }
  if (!p) return null;
  const known = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;
  const out: Record<string, unknown> = {};
  const original: Record<string, unknown> = {};
  if (known(p.duration)) {
    Object.assign(out, { length: clock(p.duration), duration: Math.round(p.duration * 100) / 100 });
    original.duration = p.duration;
  }
  if (known(p.width) && known(p.height)) {
    Object.assign(out, sizeOf(p.width, p.height));
    Object.assign(original, { width: p.width, height: p.height });
  }
  if (p.frameRate) {
    out.fps = Math.round(Number(p.frameRate));
    original.frame_rate = p.frameRate;
  }
  if (known(p.bitrate)) original.bitrate = Math.round(p.bitrate);
  if (p.codec) out.audio_encode = p.codec;
  if (known(p.sampleRate)) out.audio_bitrate = `${p.sampleRate} Hz`;
  if (known(p.channels)) out.audio_channels = p.channels === 1 ? "mono" : p.channels === 2 ? "stereo" : String(p.channels);
  if (Object.keys(original).length) out.original = original;
  return Object.keys(out).length ? out : null;
}
