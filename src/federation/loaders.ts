// Fedify's document and context loaders, built once per option set instead of once per context.
//
// Fedify's factories build a new kvCache loader for every context (every inbox request and every queued
// task): a URLPattern (a polyfill) and Temporal durations each time. And its loaders answer the JSON-LD
// contexts it ships (ActivityStreams, security, …) without jsonld's "static" tag, so jsonld does not keep
// the processed context between operations and processes it again for every parse of every activity and
// key. Both showed in the inbox profile (docs/performance.md, "Federation"). The contexts in
// `preloadedContexts` never change, which is what jsonld's "static" tag means.
//
// Fedify refuses custom loader factories together with its `allowPrivateAddress`/`userAgent` options,
// which its WebFinger, signed fetches and deliveries also use; so its own factories are kept and wrapped
// after construction (the fields are public on the federation object; Fedify is pinned to 2.3.6 and
// test/federation/fedify-reuse.unit.test.ts fails if they move).
import type { Federation } from "@fedify/fedify";
import { preloadedContexts, type DocumentLoader, type DocumentLoaderFactoryOptions, type RemoteDocument } from "@fedify/vocab-runtime";

type Factory = (opts?: DocumentLoaderFactoryOptions) => DocumentLoader;
interface LoaderFactories {
  documentLoaderFactory: Factory;
  contextLoaderFactory: Factory;
}

export function shareLoaders(federation: Federation<unknown>): void {
  const target = federation as unknown as LoaderFactories;
  if (typeof target.documentLoaderFactory !== "function" || typeof target.contextLoaderFactory !== "function") {
    throw new Error("Fedify's loader factories moved: see src/federation/loaders.ts");
  }
  target.documentLoaderFactory = memoized(target.documentLoaderFactory, (loader) => loader);
  target.contextLoaderFactory = memoized(target.contextLoaderFactory, staticContexts);
}

function memoized(factory: Factory, wrap: (loader: DocumentLoader) => DocumentLoader): Factory {
  const built = new Map<string, DocumentLoader>();
  return (opts) => {
    const key = JSON.stringify([opts?.allowPrivateAddress ?? null, opts?.userAgent ?? null]);
    let loader = built.get(key);
    if (!loader) {
      loader = wrap(factory(opts));
      built.set(key, loader);
    }
    return loader;
  };
}

function staticContexts(loader: DocumentLoader): DocumentLoader {
  return async (url, options) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url, tag: "static" } as RemoteDocument;
    return loader(url, options);
  };
}
