// Keeps the engine's own JSON.stringify. jsonld (loaded by Fedify) bundles core-js, which on Node 20
// (no JSON.rawJSON) replaces the global JSON.stringify with a JavaScript polyfill that does the same
// thing several times slower; every serialization in the process (Prisma's queries, the job queue,
// Fedify's KV) then paid for it. This module is imported first by the entry point, so it sees the
// native function before any dependency loads; `restoreNativeJson` puts it back once they have.
const nativeStringify = JSON.stringify;

export function restoreNativeJson(): void {
  if (JSON.stringify !== nativeStringify) JSON.stringify = nativeStringify;
}
