// Media processing over HTTP: what an upload becomes (metadata stripped, upright, preview, sizes,
// blurhash; audio and video probed) and the instance thumbnail being served.
import sharp from "sharp";
import { decode as decodeBlurhash, isBlurhashValid } from "blurhash";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A 1200×800 red-and-blue JPEG carrying a camera name, a GPS position and, when asked, an EXIF
 * orientation of 6 (shown turned a quarter clockwise, so upright it is 800×1200).
 */
async function photo(orientation = 1): Promise<Buffer> {
  const left = await sharp({ create: { width: 600, height: 800, channels: 3, background: { r: 220, g: 30, b: 30 } } }).png().toBuffer();
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 30, b: 220 } } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .withExifMerge({
      IFD0: { Make: "SecretCam", Model: "Spy 3000" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 300/100" },
    })
    .toBuffer();
}

/** A PCM WAV of `seconds` of a sine tone at 8 kHz, mono. */
function wav(seconds: number): Buffer {
  const samples = 8000 * seconds;
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) data[i] = 128 + Math.round(100 * Math.sin(i / 5));
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + samples, 4);
  h.write("WAVEfmt ", 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(8000, 28);
  h.writeUInt16LE(1, 32);
  h.writeUInt16LE(8, 34);
  h.write("data", 36);
  h.writeUInt32LE(samples, 40);
  return Buffer.concat([h, data]);
}

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4);
  return Buffer.concat([head, body]);
};

/**
 * The boxes of an MP4 a probe reads: a movie `seconds` long (timescale 1000) with one 640×360 video
 * track (a sample entry but no samples: a container probe decodes nothing).
 */
function mp4(seconds: number): Buffer {
  const full = (type: string, size: number, fill: (b: Buffer) => void = () => {}) => {
    const b = Buffer.alloc(size);
    fill(b);
    return box(type, b);
  };
  const ftyp = box("ftyp", Buffer.from("isom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2mp41"));
  const mvhd = full("mvhd", 100, (b) => {
    b.writeUInt32BE(1000, 12); // timescale
    b.writeUInt32BE(seconds * 1000, 16); // duration
    b.writeUInt32BE(2, 96); // next track id
  });
  const tkhd = full("tkhd", 84, (b) => {
    b.writeUInt32BE(3, 0); // enabled, in movie
    b.writeUInt32BE(1, 12); // track id
    b.writeUInt32BE(seconds * 1000, 20);
    b.writeUInt32BE(640 << 16, 76); // width, 16.16 fixed point
    b.writeUInt32BE(360 << 16, 80);
  });
  const mdhd = full("mdhd", 24, (b) => {
    b.writeUInt32BE(1000, 12);
    b.writeUInt32BE(seconds * 1000, 16);
  });
  const hdlr = box("hdlr", Buffer.alloc(8), Buffer.from("vide"), Buffer.alloc(12), Buffer.from("video\0"));
  const sampleEntry = full("mp4v", 78, (b) => {
    b.writeUInt16BE(1, 6); // data reference index
    b.writeUInt16BE(640, 24);
    b.writeUInt16BE(360, 26);
    b.writeUInt32BE(0x00480000, 28); // 72 dpi
    b.writeUInt32BE(0x00480000, 32);
    b.writeUInt16BE(1, 40); // frames per sample
    b.writeUInt16BE(24, 74); // depth
    b.writeInt16BE(-1, 76);
  });
  const stsd = box("stsd", Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), sampleEntry);
  const stbl = box("stbl", stsd, full("stts", 8), full("stsc", 8), full("stsz", 12), full("stco", 8));
  const trak = box("trak", tkhd, box("mdia", mdhd, hdlr, box("minf", full("vmhd", 12), stbl)));
  return Buffer.concat([ftyp, box("moov", mvhd, trak)]);
}

describe.each(suiteKinds(import.meta.url))("media processing on %s", (kind) => {
  let server: TestServer;
  let alice: { access_token: string };

  const upload = async (file: Buffer, fields: Record<string, string> = {}, version = 1) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(file)]), "upload.bin");
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await server.fetch(`/api/v${version}/media`, { method: "POST", body: form, headers: auth(alice.access_token) });
    return { status: res.status, body: await res.json() };
  };
  const bytesOf = async (url: string) => {
    const res = await server.fetch(new URL(url).pathname);
    expect(res.status, url).toBe(200);
    return { type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser("alice");
    alice = await passwordToken(server, "alice");
  });
  afterAll(() => server?.close());

  test("a JPEG with EXIF and GPS is served without them, upright, with a smaller preview, sizes and a blurhash", async () => {
    const original = await photo(6);
    // the upload does carry the metadata
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes("SecretCam")).toBe(true);

    const { status, body: media } = await upload(original, { focus: "-0.5,0.25", description: "a flag" });
    expect(status).toBe(200);
    expect(media.url).toMatch(/\/file\.jpg$/);
    expect(media.preview_url).toMatch(/\/small\.jpg$/);

    const served = await bytesOf(media.url);
    expect(served.type).toBe("image/jpeg");
    const servedMeta = await sharp(served.body).metadata();
    expect(servedMeta.exif).toBeUndefined();
    expect(servedMeta.xmp).toBeUndefined();
    expect(served.body.includes("SecretCam")).toBe(false);
    expect(served.body.includes("Exif\0\0")).toBe(false);
    // turned upright by its orientation, so nothing depends on the tag that was removed
    expect([servedMeta.width, servedMeta.height]).toEqual([800, 1200]);

    const preview = await bytesOf(media.preview_url);
    const previewMeta = await sharp(preview.body).metadata();
    expect(previewMeta.format).toBe("jpeg");
    expect(previewMeta.exif).toBeUndefined();
    expect(previewMeta.width! * previewMeta.height!).toBeLessThanOrEqual(640 * 360 + 1000);
    expect(preview.body.length).toBeLessThan(served.body.length);

    expect(media.meta).toEqual({
      original: { width: 800, height: 1200, size: "800x1200", aspect: 0.6667 },
      small: { width: previewMeta.width, height: previewMeta.height, size: `${previewMeta.width}x${previewMeta.height}`, aspect: expect.closeTo(0.6667, 2) },
      focus: { x: -0.5, y: 0.25 },
    });

    // the blurhash decodes, and to the picture: upright, the red half is on top
    expect(isBlurhashValid(media.blurhash)).toEqual({ result: true });
    const pixels = decodeBlurhash(media.blurhash, 8, 8);
    const at = (x: number, y: number) => Array.from(pixels.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 3));
    const [topR, , topB] = at(4, 1);
    const [bottomR, , bottomB] = at(4, 6);
    expect(topR).toBeGreaterThan(topB);
    expect(bottomB).toBeGreaterThan(bottomR);

    const row = await server.services.db.mediaAttachment.findUniqueOrThrow({ where: { id: media.id } });
    expect(row.size).toBe(served.body.length);
  });

  test("focus round-trips through PUT and GET alongside the sizes", async () => {
    const { body: media } = await upload(await photo());
    expect(media.meta.focus).toBeUndefined();
    expect(media.meta.original).toEqual({ width: 1200, height: 800, size: "1200x800", aspect: 1.5 });
    const put = await server.fetch(`/api/v1/media/${media.id}`, { method: "PUT", headers: auth(alice.access_token), json: { focus: "0.3,-0.7" } });
    expect(put.status).toBe(200);
    expect((await put.json()).meta).toMatchObject({ original: { width: 1200 }, focus: { x: 0.3, y: -0.7 } });
    const get = await server.fetch(`/api/v1/media/${media.id}`, { headers: auth(alice.access_token) });
    const shown = await get.json();
    expect(shown.meta).toMatchObject({ original: { width: 1200, height: 800 }, small: { aspect: expect.closeTo(1.5, 2) }, focus: { x: 0.3, y: -0.7 } });
    expect(shown.blurhash).toBe(media.blurhash);
  });

  test("a PNG with transparency keeps it in its preview; avatars lose their EXIF too", async () => {
    const png = await sharp({ create: { width: 900, height: 900, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } } })
      .png()
      .withExif({ IFD0: { Make: "SecretCam" } })
      .toBuffer();
    expect(png.includes("SecretCam")).toBe(true);
    const { status, body: media } = await upload(png);
    expect(status).toBe(200);
    expect(media.preview_url).toMatch(/\/small\.png$/);
    expect((await sharp((await bytesOf(media.preview_url)).body).metadata()).hasAlpha).toBe(true);
    expect((await bytesOf(media.url)).body.includes("SecretCam")).toBe(false);

    const form = new FormData();
    form.append("avatar", new Blob([new Uint8Array(await photo())]), "me.jpg");
    const res = await server.fetch("/api/v1/accounts/update_credentials", { method: "PATCH", body: form, headers: auth(alice.access_token) });
    expect(res.status).toBe(200);
    const avatar = await bytesOf((await res.json()).avatar);
    expect(avatar.body.includes("SecretCam")).toBe(false);
    expect((await sharp(avatar.body).metadata()).exif).toBeUndefined();
  });

  test("audio gets its duration probed, video its duration and size; their preview is the file itself", async () => {
    const audio = await upload(wav(2), {}, 2);
    expect(audio.status).toBe(200);
    expect(audio.body).toMatchObject({ type: "audio", blurhash: null, preview_url: audio.body.url });
    expect(audio.body.meta).toMatchObject({ length: "0:00:02.00", duration: 2, audio_channels: "mono", audio_bitrate: "8000 Hz", original: { duration: 2, bitrate: 64000 } });

    const video = await upload(mp4(5));
    expect(video.status).toBe(200);
    expect(video.body.type).toBe("video");
    expect(video.body.meta).toMatchObject({ length: "0:00:05.00", duration: 5, width: 640, height: 360, size: "640x360", aspect: 1.7778, original: { duration: 5, width: 640, height: 360 } });
  });

  test("a corrupt image body behind a good header is refused (422), nothing stored", async () => {
    const good = await photo();
    const truncated = good.subarray(0, Math.floor(good.length / 3));
    const before = await server.services.db.mediaAttachment.count();
    const { status, body } = await upload(truncated);
    expect(status).toBe(422);
    expect(body.error).toMatch(/not a readable image/);
    expect(await server.services.db.mediaAttachment.count()).toBe(before);
  });

  test("the instance thumbnail /api/v1/instance advertises answers 200 with an image", async () => {
    const instance = await (await server.fetch("/api/v1/instance")).json();
    expect(instance.thumbnail).toMatch(/^http:\/\/localhost:4000\//);
    const res = await server.fetch(new URL(instance.thumbnail).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\//);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.width).toBeGreaterThan(0);
  });
});
