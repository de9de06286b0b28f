// Keeps the engine's own built-ins in use after jsonld loads. jsonld (imported by Fedify) bundles core-js,
// which on Node 20 REPLACES built-ins it finds wanting with JavaScript polyfills: `JSON.stringify` (no
// JSON.rawJSON), `Array.prototype.push` (a V8 edge case with array-likes past 2^32) and a few more. After
// that every push and every serialization in the process (Express, pg, Prisma, our rendering) runs
// through JavaScript several times slower: once a server had federated, a home timeline request cost
// 10.7 ms of server CPU instead of 5.6 (docs/performance.md, "Ninth round"). Node 24 needs none of it.
//
// This module takes its snapshot when it is evaluated: the entry points import it first (main.ts, ctl.ts),
// so it sees the engine's functions before any dependency loads. `restoreNativeBuiltins` puts back every
// property that existed then and was replaced since; what a polyfill ADDED (Set methods, iterator
// helpers, ArrayBuffer.prototype.transfer on Node 20) stays, since the code that loaded it may use it.
// Fedify is loaded lazily (federation/lazy.ts, federation/mount.ts): each of those doors imports through
// `importKeepingBuiltins`, so the restore follows every load wherever in the process's life it happens.

/** The built-in objects whose properties are kept: the ones every request's code calls into. */
const KEPT: Record<string, object> = {
  JSON,
  Object,
  "Object.prototype": Object.prototype,
  Array,
  "Array.prototype": Array.prototype,
  "String.prototype": String.prototype,
  "Function.prototype": Function.prototype,
  Promise,
  "Promise.prototype": Promise.prototype,
  "Map.prototype": Map.prototype,
  "Set.prototype": Set.prototype,
  "Number.prototype": Number.prototype,
  "Date.prototype": Date.prototype,
};

const snapshot = new Map(Object.entries(KEPT).map(([name, target]) => [name, Object.getOwnPropertyDescriptors(target)]));

const same = (was: PropertyDescriptor, now: PropertyDescriptor | undefined) =>
  !!now && Object.is(now.value, was.value) && now.get === was.get && now.set === was.set;

/** The properties replaced since the snapshot, as "Array.prototype.push". */
export function replacedBuiltins(): string[] {
  const replaced: string[] = [];
  for (const [name, target] of Object.entries(KEPT)) {
    const before = snapshot.get(name)!;
    for (const key of Reflect.ownKeys(before) as (keyof typeof before)[]) {
      const was = before[key];
      const now = Object.getOwnPropertyDescriptor(target, key);
      if (!same(was, now)) replaced.push(`${name}.${String(key)}`);
    }
  }
  return replaced;
}

/** Puts back every kept property that a dependency replaced (or removed) since the snapshot. */
export function restoreNativeBuiltins(): void {
  for (const [name, target] of Object.entries(KEPT)) {
    const before = snapshot.get(name)!;
    for (const key of Reflect.ownKeys(before) as (keyof typeof before)[]) {
      const was = before[key];
      const now = Object.getOwnPropertyDescriptor(target, key);
      if (same(was, now)) continue;
      Object.defineProperty(target, key, was);
    }
  }
}

/** `load()` (a dynamic import), then the engine's built-ins back in place whatever it loaded. */
export async function importKeepingBuiltins<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } finally {
    restoreNativeBuiltins();
  }
}
