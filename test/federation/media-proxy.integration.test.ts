// The media proxy between a real server and a Fedify peer over the TLS test network: with
// `media_proxy.enabled`, remote attachments, avatars, headers and emoji are rendered as signed
// /proxy/<signature>/<base64url>/<filename> URLs; the server fetches them through the guarded client,
// decides the type from the bytes, caches the copy, refuses forged signatures (403) and banned URLs (404),
// and the admin media_proxy_caches endpoints evict the cached copies.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_TOKEN, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";
import { waitFor } from "../support/wait.ts";
import { startPeer, type Peer } from "../support/federation/peer.ts";

let net: FederationNet;
let a: TestInstance;
let peer: Peer;
let viewer: { token: string };
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
// a real 1×1 PNG
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const PNG2 = Buffer.concat([PNG, Buffer.from("changed")]);
const HTML = Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
let statusId: string;
let files: { image: string; html: string; avatar: string; header: string; emoji: string };

const admin = (path: string, json?: unknown) => a.api(`/api/v1/ext/admin${path}`, { headers: { "x-admin-token": ADMIN_TOKEN }, ...(json ? { json } : {}) });
async function mediaProxy(enabled: boolean) {
  const res = await admin("/config", { configs: [{ group: ":pleroma", key: ":media_proxy", value: [{ tuple: [":enabled", enabled] }] }] });
  expect(res.status).toBe(200);
}
/** A proxy URL of a's, requested from outside. */
const get = (url: string, init: RequestInit = {}) => a.api(new URL(url).pathname, init);

beforeAll(async () => {
  net = await startFederationNet();
  // the tests rewrite media and account rows under a's feet with SQL, which its status and account caches would not
  // hear of (src/db/row-writes.ts: writes by other programs go unseen for the caches' lifetime)
  a = await net.start("a", { CONFIGURABLE_FROM_DATABASE: "true", STATUS_CACHE_ENTRIES: "0", ACCOUNT_CACHE_ENTRIES: "0" });
  peer = await startPeer(net);
  viewer = await a.createUser("viewer");
  files = { image: `${peer.baseUrl}/files/photo.png`, html: `${peer.baseUrl}/files/page.png`, avatar: `${peer.baseUrl}/files/avatar.png`, header: `${peer.baseUrl}/files/header.png`, emoji: `${peer.baseUrl}/files/blob.png` };
  for (const url of [files.image, files.avatar, files.header, files.emoji]) peer.serveFile(url, PNG, "image/png");
  // HTML claiming to be an image
  peer.serveFile(files.html, HTML, "image/png");
  await peer.actor("pix", { icon: files.avatar, image: files.header, emojis: { blob: files.emoji } });
  const actor = `${peer.baseUrl}/users/pix`;
  const object = {
    id: `${peer.baseUrl}/notes/proxied`,
    type: "Note",
    attributedTo: actor,
    content: "<p>pictures :blob:</p>",
    to: [PUBLIC],
    cc: [`${actor}/followers`],
    tag: [{ type: "Emoji", id: `${peer.baseUrl}/emoji/blob`, name: ":blob:", icon: { type: "Image", mediaType: "image/png", url: files.emoji } }],
    attachment: [
      { type: "Document", mediaType: "image/png", url: files.image, name: "photo" },
      { type: "Document", mediaType: "image/png", url: files.html, name: "not a photo" },
    ],
  };
  expect((await peer.send("pix", "https://a.fed.test/inbox", { "@context": "https://www.w3.org/ns/activitystreams", id: `${object.id}/activity`, type: "Create", actor, to: object.to, cc: object.cc, object })).status).toBe(202);
  statusId = (await waitFor(async () => (await a.sql<{ id: string }>("SELECT id FROM statuses WHERE uri = $1", [object.id]))[0], "status stored")).id;
}, 60_000);
afterAll(async () => {
  await peer?.close();
  await net?.close();
});

async function rendered() {
  const res = await a.api(`/api/v1/statuses/${statusId}`, { token: viewer.token });
  expect(res.status).toBe(200);
  return res.json();
}

describe("media proxy", () => {
  test("off: remote URLs are rendered as they are", async () => {
    const status = await rendered();
    expect(status.media_attachments.map((m: { url: string }) => m.url).sort()).toEqual([files.html, files.image].sort());
    expect(status.account.avatar).toBe(files.avatar);
    expect((await (await a.api("/nodeinfo/2.1.json")).json()).metadata.features).not.toContain("media_proxy");
  });

  test("on: attachments, avatar, header and emoji become signed proxy URLs; remote_url keeps the original", async () => {
    await mediaProxy(true);
    const status = await rendered();
    const photo = status.media_attachments.find((m: { remote_url: string }) => m.remote_url === files.image);
    expect(photo.url).toMatch(/^https:\/\/a\.fed\.test\/proxy\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/photo\.png$/);
    expect(Buffer.from(photo.url.split("/")[5], "base64url").toString()).toBe(files.image);
    expect(photo.preview_url).toBe(photo.url);
    expect((await (await a.api("/nodeinfo/2.1.json")).json()).metadata.features).toContain("media_proxy");
    for (const url of [status.account.avatar, status.account.header, status.emojis[0].url, status.account.emojis[0].url]) expect(url).toMatch(/^https:\/\/a\.fed\.test\/proxy\//);
    const account = await (await a.api(`/api/v1/accounts/${status.account.id}`)).json();
    expect(account.avatar).toBe(status.account.avatar);
    // GraphQL renders the same URLs
    const gql = await (await a.api("/graphql", { token: viewer.token, json: { query: `{ status(id: "${statusId}") { account { avatar header } mediaAttachments { url remoteUrl } } }` } })).json();
    expect(gql.data.status.account).toEqual({ avatar: status.account.avatar, header: status.account.header });
    expect(gql.data.status.mediaAttachments).toEqual(expect.arrayContaining([{ url: photo.url, remoteUrl: files.image }]));
  });

  test("whitelisted hosts are linked as they are", async () => {
    const set = (whitelist: string[]) => admin("/config", { configs: [{ group: ":pleroma", key: ":media_proxy", value: [{ tuple: [":whitelist", whitelist] }] }] });
    expect((await set(["https://peer.fed.test"])).status).toBe(200);
    const status = await rendered();
    expect(status.account.avatar).toBe(files.avatar);
    expect(status.media_attachments.map((m: { url: string }) => m.url)).toContain(files.image);
    expect((await set([])).status).toBe(200);
    expect((await rendered()).account.avatar).toMatch(/\/proxy\//);
  });

  test("serving: fetched through the guarded client, typed from the bytes, safe headers", async () => {
    const status = await rendered();
    const photo = status.media_attachments.find((m: { remote_url: string }) => m.remote_url === files.image);
    const res = await get(photo.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="photo\.png"/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // HTML announced as image/png: served as a download, never as HTML
    const fake = status.media_attachments.find((m: { remote_url: string }) => m.remote_url === files.html);
    const html = await get(fake.url);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("application/octet-stream");
    expect(html.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(html.headers.get("content-security-policy")).toMatch(/sandbox/);
    const avatar = await get(status.account.avatar);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get("content-type")).toBe("image/png");
  });

  test("a forged or altered signature gets 403; a URL that is not proxied gets nothing", async () => {
    const status = await rendered();
    const photo = status.media_attachments.find((m: { remote_url: string }) => m.remote_url === files.image);
    const parts = new URL(photo.url).pathname.split("/");
    const forged = await a.api(`/proxy/${"A".repeat(27)}/${parts[3]}/photo.png`);
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: expect.any(String) });
    // the signature of one URL does not cover another
    const other = Buffer.from(`${peer.baseUrl}/files/avatar.png`).toString("base64url");
    expect((await a.api(`/proxy/${parts[2]}/${other}`)).status).toBe(403);
  });

  test("cached copies are served until an admin purges them; purge bans (404) until the ban is deleted", async () => {
    const status = await rendered();
    const photo = status.media_attachments.find((m: { remote_url: string }) => m.remote_url === files.image);
    expect(Buffer.from(await (await get(photo.url)).arrayBuffer()).equals(PNG)).toBe(true);
    peer.serveFile(files.image, PNG2, "image/png");
    // still the cached copy
    expect(Buffer.from(await (await get(photo.url)).arrayBuffer()).equals(PNG)).toBe(true);
    // purge without ban: evicted, fetched again
    expect((await admin("/media_proxy_caches/purge", { urls: [files.image], ban: false })).status).toBe(200);
    expect(Buffer.from(await (await get(photo.url)).arrayBuffer()).equals(PNG2)).toBe(true);
    // purge with ban (given as the proxy URL, as an admin may copy it): 404 until unbanned
    expect((await admin("/media_proxy_caches/purge", { urls: [photo.url] })).status).toBe(200);
    const banned = await get(photo.url);
    expect(banned.status).toBe(404);
    expect(await banned.json()).toEqual({ error: expect.any(String) });
    const list = await (await admin("/media_proxy_caches")).json();
    expect(list.urls).toContain(files.image);
    peer.serveFile(files.image, PNG, "image/png");
    expect((await admin("/media_proxy_caches/delete", { urls: [files.image] })).status).toBe(200);
    const back = await get(photo.url);
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test("a remote failure answers 502 in the family's shape; turning the proxy off serves nothing", async () => {
    peer.serveFile(`${peer.baseUrl}/files/missing.png`, PNG, "image/png");
    const status = await rendered();
    const photo = status.media_attachments.find((m: { remote_url: string }) => m.remote_url === files.image);
    // a proxy URL of a file the peer does not have: signed by a (rendered from a stored account avatar)
    await a.sql("UPDATE accounts SET avatar = $1 WHERE id = $2", [`${peer.baseUrl}/files/gone.png`, status.account.id]);
    const account = await (await a.api(`/api/v1/accounts/${status.account.id}`)).json();
    const failed = await get(account.avatar);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ error: expect.any(String) });
    await mediaProxy(false);
    expect((await get(photo.url)).status).toBe(404);
    expect((await rendered()).media_attachments.map((m: { url: string }) => m.url)).toContain(files.image);
  });

  test("the preview proxy: with media_preview_proxy on, a remote image's preview_url is a downscaled copy", async () => {
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
    const bigUrl = `${peer.baseUrl}/files/big.jpg`;
    peer.serveFile(bigUrl, big, "image/jpeg");
    await a.sql("UPDATE media_attachments SET url = $1, remote_url = $1, mime_type = 'image/jpeg' WHERE status_id = $2 AND url = $3", [bigUrl, statusId, files.image]);
    await mediaProxy(true);
    const photoOf = async () => (await rendered()).media_attachments.find((m: { remote_url: string }) => m.remote_url === bigUrl);
    expect((await photoOf()).preview_url).toBe((await photoOf()).url);

    const preview = async (enabled: boolean) => expect((await admin("/config", { configs: [{ group: ":pleroma", key: ":media_preview_proxy", value: [{ tuple: [":enabled", enabled] }] }] })).status).toBe(200);
    await preview(true);
    const photo = await photoOf();
    expect(photo.url).toMatch(/^https:\/\/a\.fed\.test\/proxy\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/big\.jpg$/);
    expect(photo.preview_url).toMatch(/^https:\/\/a\.fed\.test\/proxy\/preview\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/big\.jpg$/);
    const small = await get(photo.preview_url);
    expect(small.status).toBe(200);
    expect(small.headers.get("content-type")).toBe("image/jpeg");
    const smallMeta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([600, 450]);
    const original = await sharp(Buffer.from(await (await get(photo.url)).arrayBuffer())).metadata();
    expect([original.width, original.height]).toEqual([1600, 1200]);
    // a forged signature is refused as on the media proxy; turned off, previews are gone
    expect((await get(photo.preview_url.replace(/\/preview\/[A-Za-z0-9_-]/, "/preview/A"))).status).toBe(403);
    await preview(false);
    expect((await get(photo.preview_url)).status).toBe(404);
    expect((await photoOf()).preview_url).toBe(photo.url);
  });
});
