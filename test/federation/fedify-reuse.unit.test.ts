// Per-request work of Fedify done once per process (src/federation/loaders.ts, parsed-keys.ts): the
// document and context loaders are built once per option set, the JSON-LD contexts Fedify ships are
// tagged static so jsonld keeps them processed between parses, and a remote key document is parsed once.
import { createFederation, MemoryKvStore, generateCryptoKeyPair } from "@fedify/fedify";
import { Create, CryptographicKey } from "@fedify/vocab";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { describe, expect, test } from "vitest";
import { shareLoaders } from "../../src/federation/loaders.ts";
import { parseKeysOnce } from "../../src/federation/parsed-keys.ts";

const AS = "https://www.w3.org/ns/activitystreams";

function federation() {
  const f = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true, userAgent: "test" });
  shareLoaders(f as never);
  return f as unknown as { documentLoaderFactory: (o?: object) => DocumentLoader; contextLoaderFactory: (o?: object) => DocumentLoader };
}

describe("Fedify's loaders, shared", () => {
  test("one loader per option set, not one per context", () => {
    const f = federation();
    const opts = { allowPrivateAddress: true, userAgent: "test" };
    expect(f.documentLoaderFactory(opts)).toBe(f.documentLoaderFactory({ ...opts }));
    expect(f.contextLoaderFactory(opts)).toBe(f.contextLoaderFactory({ ...opts }));
    expect(f.contextLoaderFactory({ ...opts, userAgent: "other" })).not.toBe(f.contextLoaderFactory(opts));
  });

  test("the contexts Fedify ships come tagged static, so a second parse loads no context", async () => {
    const context = federation().contextLoaderFactory({ allowPrivateAddress: true, userAgent: "test" });
    expect(await context(AS)).toMatchObject({ documentUrl: AS, tag: "static" });
    let loads = 0;
    const counting: DocumentLoader = (url, options) => (loads++, context(url, options));
    const doc = { "@context": [AS, "https://w3id.org/security/v1"], id: "https://x.test/a/1", type: "Create", actor: "https://x.test/u/1", object: { id: "https://x.test/n/1", type: "Note", content: "hi" } };
    await Create.fromJsonLd(doc, { contextLoader: counting, documentLoader: counting });
    loads = 0;
    const again = await Create.fromJsonLd(doc, { contextLoader: counting, documentLoader: counting });
    expect(again.objectId?.href).toBe("https://x.test/n/1");
    expect(loads).toBe(0);
  });
});

describe("remote keys parsed once", () => {
  test("the same key document parses to the same key; another document to another", async () => {
    parseKeysOnce();
    const loader = federation().documentLoaderFactory();
    // documents as Fedify's key cache stores them
    const doc = async (owner: string) => {
      const { publicKey } = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
      return new CryptographicKey({ id: new URL(`${owner}#main-key`), owner: new URL(owner), publicKey }).toJsonLd({ contextLoader: loader });
    };
    const a = await doc("https://x.test/users/a");
    const first = await CryptographicKey.fromJsonLd(a, { documentLoader: loader, contextLoader: loader });
    const second = await CryptographicKey.fromJsonLd(structuredClone(a), { documentLoader: loader, contextLoader: loader });
    expect(second).toBe(first);
    expect(first.ownerId?.href).toBe("https://x.test/users/a");
    const rotated = await CryptographicKey.fromJsonLd(await doc("https://x.test/users/a"), { documentLoader: loader, contextLoader: loader });
    expect(rotated).not.toBe(first);
    expect(rotated.publicKey).not.toBe(first.publicKey);
    // a malformed document still fails, every time
    await expect(CryptographicKey.fromJsonLd({ "@context": "https://w3id.org/security/v1", type: "Note" }, { documentLoader: loader })).rejects.toThrow();
  });
});
