// Remote emoji packs between two real servers of ours over the TLS test network: a lists b's packs and
// downloads a shared one through the guarded client (nodeinfo, pack.json, the archive, checked against
// its sha256), and refused or failed remote fetches answer 4xx/502 with `{"error": …}`, never 500.
import { afterAll, beforeAll, expect, test } from "vitest";
import { ADMIN_TOKEN, startFederationNet, type FederationNet, type TestInstance } from "../support/federation/network.ts";

let net: FederationNet;
let a: TestInstance;
let b: TestInstance;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const API = "/api/v1/ext/emoji";
const call = (on: TestInstance, method: string, path: string, json?: unknown) => on.api(path, { method, headers: { "x-admin-token": ADMIN_TOKEN }, ...(json ? { json } : {}) });

beforeAll(async () => {
  net = await startFederationNet();
  [a, b] = await Promise.all([net.start("a", { CONFIGURABLE_FROM_DATABASE: "true" }), net.start("b")]);
  // b: a shared pack with one image, and an unshared one
  for (const name of ["shared", "private"]) {
    expect((await call(b, "POST", `${API}/pack`, { name })).status).toBe(200);
    const form = new FormData();
    form.set("name", name);
    form.set("shortcode", `${name}_blob`);
    form.set("file", new Blob([PNG], { type: "image/png" }), "blob.png");
    const added = await b.api(`${API}/packs/files`, { method: "POST", headers: { "x-admin-token": ADMIN_TOKEN }, body: form });
    expect(added.status).toBe(200);
    expect((await call(b, "PATCH", `${API}/pack`, { name, metadata: { "share-files": name === "shared", license: "CC0" } })).status).toBe(200);
  }
}, 90_000);
afterAll(async () => {
  await net?.close();
});

test("a lists b's packs and downloads a shared one end to end; the emoji are a's from then on", async () => {
  const remote = await call(a, "GET", `${API}/packs/remote?url=${encodeURIComponent(b.baseUrl)}`);
  expect(remote.status).toBe(200);
  const listed = await remote.json();
  expect(listed.packs.shared).toMatchObject({ files: { shared_blob: "blob.png" }, pack: { license: "CC0", "can-download": true } });
  expect(listed.packs.private.pack["can-download"]).toBe(false);

  const dl = await call(a, "POST", `${API}/packs/download`, { url: b.baseUrl, name: "shared", as: "from_b" });
  expect(dl.status).toBe(200);
  const emojis = await (await a.api("/api/v1/custom_emojis")).json();
  const blob = emojis.find((e: { shortcode: string }) => e.shortcode === "shared_blob");
  expect(blob).toMatchObject({ category: "from_b", url: expect.stringMatching(/^https:\/\/a\.fed\.test\/emoji\/packs\/from_b\/blob\.png$/) });
  const file = await a.api(new URL(blob.url).pathname);
  expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  // nothing failed on b while serving them
  expect(b.logs()).not.toMatch(/unhandled error/);
});

test("refused and failed remote fetches: 4xx or 502 with the family's error shape, never 500", async () => {
  // a pack b does not share: 502 with the reason
  const unshared = await call(a, "POST", `${API}/packs/download`, { url: b.baseUrl, name: "private" });
  expect(unshared.status).toBe(502);
  expect(await unshared.json()).toEqual({ error: "The pack was not set as shared and there is no fallback src to download from" });
  // a pack b does not have: b answers 404, a reports a bad gateway
  const missing = await call(a, "POST", `${API}/packs/download`, { url: b.baseUrl, name: "nope" });
  expect(missing.status).toBe(502);
  expect((await missing.json()).error).toMatch(/status 404/);
  // a name already used here: 409
  const twice = await call(a, "POST", `${API}/packs/download`, { url: b.baseUrl, name: "shared", as: "from_b" });
  expect(twice.status).toBe(409);
  // nobody answers at that name (no server routed): 502
  const nobody = await call(a, "GET", `${API}/packs/remote?url=${encodeURIComponent("https://nobody.fed.test")}`);
  expect(nobody.status).toBe(502);
  expect(await nobody.json()).toEqual({ error: expect.any(String) });
  // not a URL: 400
  const bad = await call(a, "GET", `${API}/packs/remote?url=not%20a%20url`);
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({ error: expect.any(String) });
  // with private addresses refused again (the test network is on loopback), the guard refuses b: 400
  const config = await call(a, "POST", "/api/v1/ext/admin/config", { configs: [{ group: ":pleroma", key: ":http", value: [{ tuple: [":allow_private_addresses", false] }] }] });
  expect(config.status).toBe(200);
  const refused = await call(a, "POST", `${API}/packs/download`, { url: b.baseUrl, name: "shared", as: "again" });
  expect(refused.status).toBe(400);
  expect((await refused.json()).error).toMatch(/private or local address/);
  expect((await (await a.api("/api/v1/custom_emojis")).json()).some((e: { category: string }) => e.category === "again")).toBe(false);
});
