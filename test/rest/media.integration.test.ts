import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { attachableMedia } from "../../src/domain/media/media.ops.ts";
import { systemCtx } from "../../src/domain/context.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

const PNG = fs.readFileSync("src/media/assets/avi.png");
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A valid 8-bit mono PCM WAV: a 44-byte RIFF header and a short sine wave. */
function wav(samples = 800): Buffer {
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) data[i] = 128 + Math.round(100 * Math.sin(i / 5));
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + samples, 4);
  h.write("WAVEfmt ", 8);
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(8000, 24); // sample rate
  h.writeUInt32LE(8000, 28); // byte rate
  h.writeUInt16LE(1, 32); // block align
  h.writeUInt16LE(8, 34); // bits per sample
  h.write("data", 36);
  h.writeUInt32LE(samples, 40);
  return Buffer.concat([h, data]);
}

/** The leading `ftyp` box of an ISO base media file (brand isom): detected as video/mp4. */
function mp4(): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(24, 0);
  b.write("ftypisom", 4);
  b.writeUInt32BE(0x200, 12);
  b.write("isomiso2", 16);
  b.writeUInt32BE(8, 24);
  b.write("free", 28);
  return b;
}

describe.each(suiteKinds(import.meta.url))("media on %s", (kind) => {
  let server: TestServer;
  let alice: { access_token: string };
  let bob: { access_token: string };
  let ids: Record<string, string>;

  const upload = (token: string, file: Buffer, opts: { type?: string; name?: string; fields?: Record<string, string>; version?: 1 | 2 } = {}) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(file)], { type: opts.type ?? "application/octet-stream" }), opts.name ?? "upload.bin");
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v);
    return server.fetch(`/api/v${opts.version ?? 1}/media`, { method: "POST", body: form, headers: token ? auth(token) : {} });
  };

  const withSetting = async (key: string, value: number, fn: () => Promise<void>) => {
    await server.services.db.configEntry.create({ data: { group: "instance", key, value } });
    await server.services.config.reload();
    try {
      await fn();
    } finally {
      await server.services.db.configEntry.deleteMany({ where: { key } });
      await server.services.config.reload();
    }
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { CONFIGURABLE_FROM_DATABASE: "true" });
    ids = {};
    for (const nick of ["alice", "bob"]) ids[nick] = (await server.createUser(nick)).id;
    alice = await passwordToken(server, "alice");
    bob = await passwordToken(server, "bob");
  });
  afterAll(() => server?.close());

  test("a png upload is stored with a type from its content, re-encoded (no metadata) with a preview", async () => {
    // the client's claims (type, name) are ignored: the content decides
    const res = await upload(alice.access_token, PNG, { type: "text/html", name: "page.html", fields: { description: "an avatar", focus: "0.5,-0.25" } });
    expect(res.status).toBe(200);
    const media = await res.json();
    expect(media).toEqual({
      id: expect.stringMatching(/^[0-9a-z]{26}$/),
      type: "image",
      url: expect.stringMatching(/^http:\/\/localhost:4000\/media\/[0-9a-z]{26}\/file\.png$/),
      preview_url: expect.stringMatching(/^http:\/\/localhost:4000\/media\/[0-9a-z]{26}\/small\.jpg$/),
      remote_url: null,
      preview_remote_url: null,
      text_url: null,
      meta: { original: { width: 96, height: 96, size: "96x96", aspect: 1 }, small: { width: 96, height: 96, size: "96x96", aspect: 1 }, focus: { x: 0.5, y: -0.25 } },
      description: "an avatar",
      blurhash: expect.any(String),
      ext: { mime_type: "image/png" },
    });
    const served = await server.fetch(new URL(media.url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const servedBytes = Buffer.from(await served.arrayBuffer());
    expect(servedBytes.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    expect(fs.existsSync(path.join(server.dataDir, "uploads", new URL(media.url).pathname.split("/")[2], "file.png"))).toBe(true);

    const row = await server.services.db.mediaAttachment.findUniqueOrThrow({ where: { id: media.id } });
    expect(row).toMatchObject({ accountId: ids.alice, statusId: null, type: "image", mimeType: "image/png", size: servedBytes.length, focusX: 0.5, focusY: -0.25 });
  });

  test("v2 answers 200 at once; gif stays an image (kept as is), wav is audio, mp4 is video", async () => {
    const cases = [
      { file: GIF, type: "image", mime: "image/gif", ext: "gif", meta: { original: { width: 1, height: 1, size: "1x1", aspect: 1 } } },
      { file: wav(), type: "audio", mime: "audio/wav", ext: "wav", meta: { duration: 0.1 } },
      // a bare file-type header: nothing to probe
      { file: mp4(), type: "video", mime: "video/mp4", ext: "mp4", meta: null },
    ];
    for (const c of cases) {
      const res = await upload(alice.access_token, c.file, { version: 2, type: "image/png", name: "x.png" });
      expect(res.status).toBe(200);
      const media = await res.json();
      expect(media).toMatchObject({ type: c.type, ext: { mime_type: c.mime }, meta: c.meta, description: null });
      expect(media.url).toMatch(new RegExp(`/file\\.${c.ext}$`));
      const served = await server.fetch(new URL(media.url).pathname);
      expect(served.headers.get("content-type")).toBe(c.mime);
      expect(Buffer.from(await served.arrayBuffer()).equals(c.file)).toBe(true);
    }
  });

  test("text claiming to be an image, svg and missing files are refused; nothing is stored", async () => {
    const before = await server.services.db.mediaAttachment.count();
    const text = await upload(alice.access_token, Buffer.from("<html><script>alert(1)</script></html>"), { type: "image/png", name: "x.png" });
    expect(text.status).toBe(422);
    expect((await text.json()).error).toMatch(/unsupported file type/);
    const svg = await upload(alice.access_token, Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'), { type: "image/svg+xml", name: "x.svg" });
    expect(svg.status).toBe(422);
    const form = new FormData();
    form.append("description", "no file");
    const missing = await server.fetch("/api/v1/media", { method: "POST", body: form, headers: auth(alice.access_token) });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatch(/file/);
    expect(await server.services.db.mediaAttachment.count()).toBe(before);
  });

  test("uploads need a token with write:media", async () => {
    expect((await upload("", PNG)).status).toBe(403);
    const readOnly = await passwordToken(server, "bob", "read");
    const res = await upload(readOnly.access_token, PNG);
    expect(res.status).toBe(403);
    const scoped = await passwordToken(server, "bob", "write:media read:media");
    expect((await upload(scoped.access_token, PNG)).status).toBe(200);
  });

  test("upload_limit comes from the runtime settings: over it is 413", async () => {
    await withSetting("upload_limit", PNG.length - 1, async () => {
      const res = await upload(alice.access_token, PNG);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: "File is too large" });
      expect((await upload(alice.access_token, GIF)).status).toBe(200);
    });
    expect((await upload(alice.access_token, PNG)).status).toBe(200);
  });

  test("description_limit applies to uploads and updates (422)", async () => {
    await withSetting("description_limit", 10, async () => {
      const long = await upload(alice.access_token, PNG, { fields: { description: "x".repeat(11) } });
      expect(long.status).toBe(422);
      expect((await long.json()).error).toMatch(/description: is too long \(limit 10/);
      const ok = await upload(alice.access_token, PNG, { fields: { description: "x".repeat(10) } });
      expect(ok.status).toBe(200);
      const { id } = await ok.json();
      const put = await server.fetch(`/api/v1/media/${id}`, { method: "PUT", json: { description: "y".repeat(11) }, headers: auth(alice.access_token) });
      expect(put.status).toBe(422);
    });
  });

  test("GET and PUT: the owner reads and describes; anyone else gets 404", async () => {
    const { id } = await (await upload(alice.access_token, PNG)).json();
    const get = await server.fetch(`/api/v1/media/${id}`, { headers: auth(alice.access_token) });
    expect(get.status).toBe(200);
    const shown = await get.json();
    expect(shown).toMatchObject({ id, description: null, meta: { original: { width: 96 } } });
    expect(shown.meta.focus).toBeUndefined();

    const put = await server.fetch(`/api/v1/media/${id}`, { method: "PUT", json: { description: "a small drawing", focus: "-1,1" }, headers: auth(alice.access_token) });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ id, description: "a small drawing", meta: { focus: { x: -1, y: 1 } } });

    // form bodies too; an empty focus clears it and an absent description is kept
    const cleared = await server.fetch(`/api/v1/media/${id}`, { method: "PUT", form: { focus: "" }, headers: auth(alice.access_token) });
    const clearedBody = await cleared.json();
    expect(clearedBody).toMatchObject({ description: "a small drawing", meta: { original: { width: 96 } } });
    expect(clearedBody.meta.focus).toBeUndefined();

    for (const focus of ["2,0", "0.5", "a,b", "0,0,0"]) {
      const bad = await server.fetch(`/api/v1/media/${id}`, { method: "PUT", json: { focus }, headers: auth(alice.access_token) });
      expect(bad.status, focus).toBe(422);
    }
    expect((await server.fetch(`/api/v1/media/${id}`, { headers: auth(alice.access_token) }).then((r) => r.json())).meta.focus).toBeUndefined();

    expect((await server.fetch(`/api/v1/media/${id}`, { headers: auth(bob.access_token) })).status).toBe(404);
    const theirs = await server.fetch(`/api/v1/media/${id}`, { method: "PUT", json: { description: "mine now" }, headers: auth(bob.access_token) });
    expect(theirs.status).toBe(404);
    expect((await server.services.db.mediaAttachment.findUniqueOrThrow({ where: { id } })).description).toBe("a small drawing");
    expect((await server.fetch(`/api/v1/media/nope`, { headers: auth(alice.access_token) })).status).toBe(404);
  });

  test("attachableMedia: the caller's own uploads in the order asked; unknown or others' ids fail", async () => {
    const a1 = (await (await upload(alice.access_token, PNG)).json()).id;
    const a2 = (await (await upload(alice.access_token, GIF)).json()).id;
    const b1 = (await (await upload(bob.access_token, PNG)).json()).id;
    const ctx = systemCtx(server.services);
    expect((await attachableMedia(ctx, ids.alice, [a2, a1, a2])).map((m) => m.id)).toEqual([a2, a1]);
    expect(await attachableMedia(ctx, ids.alice, [])).toEqual([]);
    await expect(attachableMedia(ctx, ids.alice, [a1, b1])).rejects.toMatchObject({ kind: "unprocessable", message: expect.stringContaining(b1) });
    await expect(attachableMedia(ctx, ids.alice, ["unknown"])).rejects.toMatchObject({ kind: "unprocessable" });
  });
});
