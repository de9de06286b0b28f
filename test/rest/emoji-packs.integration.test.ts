import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { admin, user, type User } from "../support/actors.ts";
import { call, freePort, GIF, packsDir, PNG, writePackOnDisk } from "./emoji-helpers.ts";

const API = "/api/v1/ext/emoji";
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex").toUpperCase();

/**
 * A family server of our imagination on 127.0.0.1 (namespace `pleroma`), serving packs built to
 * attack or test the downloader: a file map escaping the folder, a zip with `../` entries, a wrong
 * checksum, and a pack only available from its fallback-src.
 */
function fixtureServer() {
  const zips: Record<string, Uint8Array> = {
    slipzip: zipSync({ "../../escaped.png": new Uint8Array(PNG), "ok.png": new Uint8Array(PNG) }),
    badsha: zipSync({ "a.png": new Uint8Array(PNG) }),
    fallback: zipSync({ "f1.png": new Uint8Array(PNG), "dir/f2.png": new Uint8Array(PNG), "extra.txt": strToU8("ignored") }),
  };
  let base = "";
  const packs: Record<string, unknown> = {
    slip: { files: { evil: "../../escaped.png" }, files_count: 1, pack: { "share-files": true, "can-download": true, "download-sha256": "00" } },
    slipzip: { files: { ok: "ok.png" }, files_count: 1, pack: { "share-files": true, "can-download": true, "download-sha256": sha256(zips.slipzip) } },
    badsha: { files: { a: "a.png" }, files_count: 1, pack: { "share-files": true, "can-download": true, "download-sha256": "AB".repeat(32) } },
    fallback: () => ({ files: { f1: "f1.png", f2: "dir/f2.png" }, files_count: 2, pack: { "share-files": false, "can-download": false, license: "CC0", "fallback-src": `${base}/fallback.zip`, "fallback-src-sha256": sha256(zips.fallback) } }),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, base);
    const json = (body: unknown) => res.setHeader("content-type", "application/json").end(JSON.stringify(body));
    if (url.pathname === "/.well-known/nodeinfo") return json({ links: [{ rel: "http://nodeinfo.diaspora.software/ns/schema/2.0", href: `${base}/nodeinfo/2.0.json` }] });
    if (url.pathname === "/nodeinfo/2.0.json") return json({ metadata: { features: ["pleroma_api", "shareable_emoji_packs"] } });
    const name = url.searchParams.get("name") ?? "";
    if (url.pathname === "/api/v1/pleroma/emoji/pack" && packs[name]) {
      const p = packs[name];
      return json(typeof p === "function" ? p() : p);
    }
    if (url.pathname === "/api/v1/pleroma/emoji/packs/archive" && zips[name]) return res.end(Buffer.from(zips[name]));
    if (url.pathname === "/fallback.zip") return res.end(Buffer.from(zips.fallback));
    res.writeHead(404).end();
  });
  return {
    async start() {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return base;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(suiteKinds(import.meta.url))("emoji packs on %s", (kind) => {
  /** ours: fetches private addresses (ALLOW_PRIVATE_FETCH) */
  let server: TestServer;
  /** a second instance of our server, guard on, reachable at its BASE_URL */
  let other: TestServer;
  let fixture: ReturnType<typeof fixtureServer>;
  let fixtureUrl: string;
  let root: User;
  let otherRoot: User;
  let ann: User;

  const upload = (who: User | null, pack: string, file: Buffer, name: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(file)]), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return server.fetch(`${API}/packs/files?name=${encodeURIComponent(pack)}`, { method: "POST", body: form, headers: who ? who.auth : {} }).then(async (r) => ({ status: r.status, body: await r.json() }));
  };
  const onDisk = (...parts: string[]) => path.join(packsDir(server), ...parts);

  beforeAll(async () => {
    server = await startTestServer(kind, { ALLOW_PRIVATE_FETCH: "true" });
    const port = await freePort();
    other = await startTestServer(kind, { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
    fixture = fixtureServer();
    fixtureUrl = await fixture.start();
    root = await admin(server, "root");
    ann = await user(server, "ann");
    otherRoot = await admin(other, "root");
  });
  afterAll(async () => {
    await fixture?.close();
    await other?.close();
    await server?.close();
  });

  test("create: ok, 409 when it exists, 400 for empty or escaping names; admins only", async () => {
    expect(await call(server, root, "POST", `${API}/pack?name=blobs`)).toMatchObject({ status: 200, body: "ok" });
    expect(JSON.parse(fs.readFileSync(onDisk("blobs", "pack.json"), "utf8"))).toEqual({ files: {}, pack: {} });
    expect(await call(server, root, "POST", `${API}/pack?name=blobs`)).toMatchObject({ status: 409, body: { error: 'A pack named "blobs" already exists' } });
    expect(await call(server, root, "POST", `${API}/pack?name=%20`)).toMatchObject({ status: 400, body: { error: "pack name cannot be empty" } });
    for (const bad of ["../evil", "..", "a/b", ".hidden"]) {
      const res = await call(server, root, "POST", `${API}/pack?name=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toMatch(/Invalid pack name/);
    }
    expect(fs.existsSync(path.join(server.dataDir, "emoji", "evil"))).toBe(false);
    expect((await call(server, ann, "POST", `${API}/pack?name=mine`)).status).toBe(403);
    expect(await call(server, null, "POST", `${API}/pack?name=mine`)).toMatchObject({ status: 403, body: { error: "Invalid credentials." } });
    expect(fs.existsSync(onDisk("mine"))).toBe(false);
    // the unversioned path pleroma-fe uses
    expect((await call(server, root, "POST", `/api/ext/emoji/pack?name=legacy`)).status).toBe(200);
  });

  test("show: 404 for a missing pack, the pack with paged files otherwise", async () => {
    expect(await call(server, null, "GET", `${API}/pack?name=nope`)).toMatchObject({ status: 404, body: { error: "Pack nope does not exist" } });
    expect((await call(server, null, "GET", `${API}/pack?name=..%2Fx`)).status).toBe(400);
    expect((await call(server, null, "GET", `${API}/pack`)).status).toBe(400);
    const files = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`e${String(i).padStart(2, "0")}`, `e${i}.png`]));
    writePackOnDisk(server, "big", files);
    const first = await call(server, null, "GET", `${API}/pack?name=big`);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.files)).toHaveLength(30); // files page_size defaults to 30
    expect(first.body.files_count).toBe(31);
    expect(first.body.files.e00).toBe("e0.png");
    expect(first.body.pack).toEqual({ "can-download": false });
    expect((await call(server, null, "GET", `${API}/pack?name=big&page=2`)).body.files).toEqual({ e30: "e30.png" });
    expect(Object.keys((await call(server, null, "GET", `${API}/pack?name=big&page=2&page_size=10`)).body.files)).toEqual(["e10", "e11", "e12", "e13", "e14", "e15", "e16", "e17", "e18", "e19"]);
  });

  test("list: {packs, count} in name order, page_size 50 by default", async () => {
    for (let i = 0; i < 52; i++) writePackOnDisk(server, `zz${String(i).padStart(2, "0")}`, {});
    const all = await call(server, null, "GET", `${API}/packs`);
    expect(all.status).toBe(200);
    const names = fs.readdirSync(packsDir(server)).sort();
    expect(all.body.count).toBe(names.length);
    expect(Object.keys(all.body.packs)).toEqual(names.slice(0, 50));
    const second = await call(server, null, "GET", `${API}/packs?page=2`);
    expect(Object.keys(second.body.packs)).toEqual(names.slice(50));
    const small = await call(server, null, "GET", `${API}/packs?page=3&page_size=2`);
    expect(Object.keys(small.body.packs)).toEqual(names.slice(4, 6));
    expect(small.body.packs[names[4]]).toMatchObject({ files_count: expect.any(Number), pack: { "can-download": false } });
    expect((await call(server, null, "GET", `${API}/packs?page=0`)).status).toBe(400);
    for (let i = 0; i < 52; i++) fs.rmSync(onDisk(`zz${String(i).padStart(2, "0")}`), { recursive: true });
  });

  test("files: upload (shortcode defaults to the file name), zip, remote URL; 409, 400, 404 and zip-slip refusals", async () => {
    await call(server, root, "POST", `${API}/pack?name=cats`);
    const first = await upload(root, "cats", PNG, "blobcat.png");
    expect(first).toEqual({ status: 200, body: { blobcat: "blobcat.png" } });
    expect(fs.readFileSync(onDisk("cats", "blobcat.png")).equals(PNG)).toBe(true);
    const named = await upload(root, "cats", GIF, "whatever.gif", { shortcode: "catwave", filename: "anim/wave.gif" });
    expect(named).toEqual({ status: 200, body: { blobcat: "blobcat.png", catwave: "anim/wave.gif" } });
    expect(fs.existsSync(onDisk("cats", "anim", "wave.gif"))).toBe(true);

    expect(await upload(root, "cats", PNG, "blobcat.png")).toEqual({ status: 409, body: { error: 'An emoji with the "blobcat" shortcode already exists' } });
    expect((await upload(root, "nope", PNG, "x.png")).status).toBe(404);
    expect((await upload(root, "cats", Buffer.from("<html><script>alert(1)</script>"), "x.png")).status).toBe(400);
    expect((await upload(root, "cats", PNG, "x.html")).status).toBe(400);
    for (const filename of ["../../escaped.png", "/etc/escaped.png", "a/../../escaped.png", "pack.json"]) {
      const res = await upload(root, "cats", PNG, "x.png", { filename, shortcode: "escaped" });
      expect(res.status, filename).toBe(400);
    }
    expect((await upload(ann, "cats", PNG, "ann.png")).status).toBe(403);
    expect(fs.existsSync(path.join(server.dataDir, "emoji", "escaped.png"))).toBe(false);

    // a zip of images: each entry under its own name; a `../` entry refuses the whole archive
    const zip = zipSync({ "z1.png": new Uint8Array(PNG), "sub/z2.gif": new Uint8Array(GIF), "readme.txt": strToU8("skipped") });
    expect((await upload(root, "cats", Buffer.from(zip), "more.zip")).body).toMatchObject({ z1: "z1.png", z2: "sub/z2.gif" });
    const slip = zipSync({ "../../slipped.png": new Uint8Array(PNG), "fine.png": new Uint8Array(PNG) });
    const refused = await upload(root, "cats", Buffer.from(slip), "evil.zip");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/outside the pack folder/);
    expect(fs.existsSync(path.join(server.dataDir, "emoji", "slipped.png"))).toBe(false);
    expect(fs.existsSync(onDisk("cats", "fine.png"))).toBe(false);

    // a remote link, fetched through the guarded fetcher (this server allows private addresses)
    const remote = await call(server, root, "POST", `${API}/packs/files?name=cats`, { file: `${fixtureUrl}/api/v1/pleroma/emoji/packs/archive?name=nothing` });
    // the remote answers an error status: a bad gateway with the reason
    expect(remote).toMatchObject({ status: 502, body: { error: expect.stringMatching(/^Could not fetch .*: status 4\d\d$/) } });
    writePackOnDisk(other, "share", { remoteimg: "remoteimg.png" });
    const linked = await call(server, root, "POST", `${API}/packs/files?name=cats`, { file: `${other.url}/emoji/packs/share/remoteimg.png` });
    expect(linked).toMatchObject({ status: 200, body: { remoteimg: "remoteimg.png" } });

    // the files are served, never sniffed, never outside the folder
    const served = await server.fetch("/emoji/packs/cats/blobcat.png");
    expect(served.status).toBe(200);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await server.fetch("/emoji/packs/cats/..%2F..%2F..%2Fserver.json")).status).toBe(404);
    expect((await server.fetch("/emoji/packs/../server.json")).status).toBe(404);
  });

  test("files: rename with force, delete; 400 unknown emoji, 409 used name, 422 empty values", async () => {
    await call(server, root, "POST", `${API}/pack?name=dogs`);
    await upload(root, "dogs", PNG, "dog.png");
    await upload(root, "dogs", PNG, "puppy.png");
    const patch = (body: Record<string, unknown>) => call(server, root, "PATCH", `${API}/packs/files?name=dogs`, body);

    expect(await patch({ shortcode: "nope", new_shortcode: "x", new_filename: "x.png" })).toMatchObject({ status: 400, body: { error: 'Emoji "nope" does not exist' } });
    expect((await patch({ shortcode: "dog", new_shortcode: "", new_filename: "x.png" })).status).toBe(422);
    expect((await patch({ shortcode: "dog", new_shortcode: "doggo" })).status).toBe(422);
    expect(await patch({ shortcode: "dog", new_shortcode: "puppy", new_filename: "dog.png" })).toMatchObject({ status: 409, body: { error: expect.stringContaining("'force' option") } });
    expect((await patch({ shortcode: "dog", new_shortcode: "doggo", new_filename: "../dog.png" })).status).toBe(400);
    expect((await call(server, root, "PATCH", `${API}/packs/files?name=nope`, { shortcode: "dog", new_shortcode: "d", new_filename: "d.png" })).status).toBe(404);

    expect(await patch({ shortcode: "dog", new_shortcode: "doggo", new_filename: "good/doggo.png" })).toEqual({ status: 200, body: { doggo: "good/doggo.png", puppy: "puppy.png" }, headers: expect.anything() });
    expect(fs.existsSync(onDisk("dogs", "dog.png"))).toBe(false);
    expect(fs.existsSync(onDisk("dogs", "good", "doggo.png"))).toBe(true);
    expect((await patch({ shortcode: "doggo", new_shortcode: "puppy", new_filename: "good/doggo.png", force: true })).body).toEqual({ puppy: "good/doggo.png" });

    const del = (shortcode: string) => call(server, root, "DELETE", `${API}/packs/files?name=dogs&shortcode=${shortcode}`);
    expect((await del("gone")).status).toBe(400);
    expect((await call(server, root, "DELETE", `${API}/packs/files?name=dogs&shortcode=`)).status).toBe(422);
    expect(await del("puppy")).toMatchObject({ status: 200, body: {} });
    expect(fs.existsSync(onDisk("dogs", "good"))).toBe(false);
    expect(JSON.parse(fs.readFileSync(onDisk("dogs", "pack.json"), "utf8")).files).toEqual({});
  });

  test("metadata update, archive (403 unless shared, 404 missing) and delete", async () => {
    await call(server, root, "POST", `${API}/pack?name=parrots`);
    await upload(root, "parrots", PNG, "party.png");
    await upload(root, "parrots", GIF, "wave.gif", { filename: "sub/wave.gif" });
    expect(await call(server, null, "GET", `${API}/packs/archive?name=parrots`)).toMatchObject({ status: 403, body: { error: expect.stringContaining("cannot be downloaded") } });
    expect((await call(server, null, "GET", `${API}/packs/archive?name=nope`)).status).toBe(404);

    const meta = { license: "CC-BY", homepage: "https://parrots.example", description: "party", "share-files": true };
    expect(await call(server, root, "PATCH", `${API}/pack?name=parrots`, { metadata: meta })).toMatchObject({ status: 200, body: meta });
    expect((await call(server, root, "PATCH", `${API}/pack?name=parrots`, { metadata: { "share-files": "maybe" } })).status).toBe(400);
    expect((await call(server, root, "PATCH", `${API}/pack?name=nope`, { metadata: {} })).status).toBe(404);
    expect((await call(server, ann, "PATCH", `${API}/pack?name=parrots`, { metadata: {} })).status).toBe(403);
    // a new fallback-src that lacks the pack's files is invalid metadata
    const bad = await call(server, root, "PATCH", `${API}/pack?name=parrots`, { metadata: { "fallback-src": `${fixtureUrl}/fallback.zip` } });
    expect(bad).toMatchObject({ status: 400, body: { error: "The fallback archive does not have all files specified in pack.json" } });

    const shown = await call(server, null, "GET", `${API}/pack?name=parrots`);
    expect(shown.body.pack).toMatchObject({ ...meta, "can-download": true, "download-sha256": expect.stringMatching(/^[0-9A-F]{64}$/) });
    const res = await server.fetch(`${API}/packs/archive?name=parrots`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/zip/);
    const zip = new Uint8Array(await res.arrayBuffer());
    expect(sha256(zip)).toBe(shown.body.pack["download-sha256"]);
    const entries = unzipSync(zip);
    expect(Object.keys(entries).sort()).toEqual(["pack.json", "party.png", "sub/wave.gif"]);
    expect(JSON.parse(Buffer.from(entries["pack.json"]).toString()).files).toEqual({ party: "party.png", wave: "sub/wave.gif" });

    expect((await call(server, ann, "DELETE", `${API}/pack?name=parrots`)).status).toBe(403);
    expect(await call(server, root, "DELETE", `${API}/pack?name=parrots`)).toMatchObject({ status: 200, body: "ok" });
    expect(fs.existsSync(onDisk("parrots"))).toBe(false);
    expect(await call(server, root, "DELETE", `${API}/pack?name=parrots`)).toMatchObject({ status: 404, body: { error: "Pack parrots does not exist" } });
    expect((await call(server, root, "DELETE", `${API}/pack?name=..%2F..`)).status).toBe(400);
    expect(fs.existsSync(server.dataDir)).toBe(true);
  });

  test("import writes pack.json for folders copied by hand (image files or emoji.txt)", async () => {
    const loose = onDisk("loose");
    fs.mkdirSync(path.join(loose, "more"), { recursive: true });
    fs.writeFileSync(path.join(loose, "one.png"), PNG);
    fs.writeFileSync(path.join(loose, "more", "two.gif"), GIF);
    fs.writeFileSync(path.join(loose, "notes.txt"), "not an emoji");
    const listed = onDisk("listed");
    fs.mkdirSync(listed, { recursive: true });
    fs.writeFileSync(path.join(listed, "a.png"), PNG);
    fs.writeFileSync(path.join(listed, "emoji.txt"), "alpha, /emoji/listed/a.png, tag\nbroken, ../../x.png\n");

    expect((await call(server, ann, "GET", `${API}/packs/import`)).status).toBe(403);
    const res = await call(server, root, "GET", `${API}/packs/import`);
    expect(res).toMatchObject({ status: 200, body: ["listed", "loose"] });
    expect(JSON.parse(fs.readFileSync(path.join(loose, "pack.json"), "utf8")).files).toEqual({ one: "one.png", two: "more/two.gif" });
    expect(JSON.parse(fs.readFileSync(path.join(listed, "pack.json"), "utf8")).files).toEqual({ alpha: "a.png" });
    expect((await call(server, root, "GET", `${API}/packs/import`)).body).toEqual([]);
    const map = (await call(server, null, "GET", "/api/v1/ext/emoji")).body;
    expect(map.two).toEqual({ image_url: "/emoji/packs/loose/more/two.gif", tags: ["pack:loose"] });
  });

  test("remote lists another instance's packs; download copies a shared one; the guard refuses private addresses", async () => {
    writePackOnDisk(other, "shared", { s1: "s1.png", s2: "s/s2.png" }, { license: "CC0", "share-files": true });
    writePackOnDisk(other, "private", { p1: "p1.png" }, { "share-files": false });

    const remote = await call(server, root, "GET", `${API}/packs/remote?url=${encodeURIComponent(other.url)}&page_size=5`);
    expect(remote.status).toBe(200);
    expect(remote.body.count).toBeGreaterThanOrEqual(2);
    expect(remote.body.packs.shared).toMatchObject({ files: { s1: "s1.png", s2: "s/s2.png" }, files_count: 2, pack: { license: "CC0", "can-download": true } });
    expect((await call(server, ann, "GET", `${API}/packs/remote?url=${encodeURIComponent(other.url)}`)).status).toBe(403);

    const dl = await call(server, root, "POST", `${API}/packs/download`, { url: other.url, name: "shared", as: "copied" });
    expect(dl).toMatchObject({ status: 200, body: "ok" });
    expect(JSON.parse(fs.readFileSync(onDisk("copied", "pack.json"), "utf8"))).toEqual({ files: { s1: "s1.png", s2: "s/s2.png" }, pack: { license: "CC0", "share-files": true } });
    expect(fs.readFileSync(onDisk("copied", "s", "s2.png")).equals(PNG)).toBe(true);
    expect((await call(server, null, "GET", "/api/v1/custom_emojis")).body).toEqual(expect.arrayContaining([expect.objectContaining({ shortcode: "s2", category: "copied" })]));
    expect(await call(server, root, "POST", `${API}/packs/download`, { url: other.url, name: "shared", as: "copied" })).toMatchObject({ status: 409 });
    const unshared = await call(server, root, "POST", `${API}/packs/download`, { url: other.url, name: "private" });
    expect(unshared).toMatchObject({ status: 502, body: { error: "The pack was not set as shared and there is no fallback src to download from" } });
    expect(fs.existsSync(onDisk("private"))).toBe(false);
    expect((await call(server, ann, "POST", `${API}/packs/download`, { url: other.url, name: "shared", as: "x" })).status).toBe(403);

    // the other instance keeps the guard on: our server is on 127.0.0.1, so it refuses to fetch it
    await call(server, root, "PATCH", `${API}/pack?name=copied`, { metadata: { "share-files": true } });
    const refused = await call(other, otherRoot, "POST", `${API}/packs/download`, { url: server.url, name: "copied" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/private or local address/);
    expect(fs.existsSync(path.join(packsDir(other), "copied"))).toBe(false);
    expect((await call(other, otherRoot, "GET", `${API}/packs/remote?url=${encodeURIComponent(server.url)}`)).status).toBe(400);
    // an instance that cannot be reached: 502 with a message, never 500
    const closed = await freePort();
    const unreachable = await call(server, root, "GET", `${API}/packs/remote?url=${encodeURIComponent(`http://127.0.0.1:${closed}`)}`);
    expect(unreachable).toMatchObject({ status: 502, body: { error: expect.stringContaining(`127.0.0.1:${closed}`) } });
    const notPleroma = await call(server, root, "POST", `${API}/packs/download`, { url: `http://127.0.0.1:${closed}`, name: "x" });
    expect(notPleroma.status).toBe(502);
  });

  test("download from a family server: fallback-src with its checksum; bad checksum and zip-slip refused", async () => {
    const dl = (name: string, as?: string) => call(server, root, "POST", `${API}/packs/download`, { url: fixtureUrl, name, ...(as ? { as } : {}) });
    expect(await dl("fallback")).toMatchObject({ status: 200, body: "ok" });
    expect(JSON.parse(fs.readFileSync(onDisk("fallback", "pack.json"), "utf8")).files).toEqual({ f1: "f1.png", f2: "dir/f2.png" });
    expect(fs.existsSync(onDisk("fallback", "extra.txt"))).toBe(false);

    expect(await dl("badsha")).toMatchObject({ status: 502, body: { error: "SHA256 for the pack doesn't match the one sent by the server" } });
    const slip = await dl("slip");
    expect(slip.status).toBe(502);
    expect(slip.body.error).toMatch(/unsafe/);
    const slipzip = await dl("slipzip");
    expect(slipzip.status).toBe(502);
    expect(slipzip.body.error).toMatch(/outside the pack folder/);
    for (const name of ["badsha", "slip", "slipzip"]) expect(fs.existsSync(onDisk(name)), name).toBe(false);
    expect(fs.existsSync(path.join(server.dataDir, "emoji", "escaped.png"))).toBe(false);
    expect(fs.existsSync(path.join(server.dataDir, "escaped.png"))).toBe(false);
    expect((await dl("fallback", "../../x")).status).toBe(400);
    expect((await call(server, root, "POST", `${API}/packs/download`, { url: "file:///etc", name: "x" })).status).toBe(400);
    expect((await call(server, root, "POST", `${API}/packs/download`, { url: "not a url", name: "x" })).status).toBe(400);
  });
});
