// Remote public keys parsed once per process, not once per signed request.
//
// For every inbox POST, Fedify's key cache reads the signer's key as JSON-LD and parses it again
// (`CryptographicKey.fromJsonLd`: a JSON-LD expansion, then a PEM import through pkijs), which the inbox
// profile showed as a large part of accepting an activity (docs/performance.md, "Federation"). A key
// document's text says all there is to parse, so the parsed key is kept by that text (bounded, least
// recently used out first): a rotated key has another text and is parsed anew. Fedify offers no hook
// for this in 2.3, so the class's static parser is wrapped once (Fedify is pinned to 2.3.6;
// test/federation/fedify-reuse.unit.test.ts fails if the wrapping stops taking effect).
import { CryptographicKey } from "@fedify/vocab";

const MAX_KEYS = 5_000;
let installed = false;

export function parseKeysOnce(): void {
  if (installed) return;
  installed = true;
  const parse = CryptographicKey.fromJsonLd.bind(CryptographicKey);
  // per loader: a parsed key keeps the loaders it was parsed with, and each server of a process (tests
  // run several) has its own (src/federation/loaders.ts builds them once per federation)
  const byLoader = new WeakMap<object, Map<string, Promise<CryptographicKey>>>();
  CryptographicKey.fromJsonLd = (json, options) => {
    const loader = options?.documentLoader;
    if (json === null || typeof json !== "object" || !loader) return parse(json, options);
    let parsed = byLoader.get(loader);
    if (!parsed) byLoader.set(loader, (parsed = new Map()));
    const text = `${options?.baseUrl?.href ?? ""}\u0001${JSON.stringify(json)}`;
    let key = parsed.get(text);
    if (key) {
      parsed.delete(text); // re-inserted last: the map's order is the eviction order
    } else {
      key = parse(json, options);
      key.catch(() => parsed.delete(text)); // a failure is not remembered (the caller sees it)
      if (parsed.size >= MAX_KEYS) parsed.delete(parsed.keys().next().value!);
    }
    parsed.set(text, key);
    return key;
  };
}
