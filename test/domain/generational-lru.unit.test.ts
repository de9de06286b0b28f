// The caches' shared bookkeeping (src/kernel/generational-lru.ts): least recently used first past the
// bound, entries that expire, the generation check that keeps a read begun before an invalidation of its
// key (or of one of its tags) from storing, and a bound of 0 that stores nothing.
import { describe, expect, test } from "vitest";
import { GenerationalLru } from "../../src/kernel/generational-lru.ts";

const keys = (lru: GenerationalLru<string>, ...ks: string[]) => ks.filter((k) => lru.get(k) !== undefined);

describe("GenerationalLru", () => {
  test("bounded: past maxEntries the least recently used entry goes first", () => {
    const lru = new GenerationalLru<string>(3, 1_000);
    for (const k of ["a", "b", "c"]) lru.store(lru.begin(), k, k.toUpperCase());
    expect(lru.get("a")).toBe("A"); // order now b, c, a
    lru.store(lru.begin(), "d", "D"); // evicts b
    expect(lru.size).toBe(3);
    expect(lru.get("b")).toBeUndefined();
    lru.store(lru.begin(), "c", "C2"); // storing again refreshes too: order a, d, c
    lru.store(lru.begin(), "e", "E"); // evicts a
    expect(keys(lru, "a", "b", "c", "d", "e")).toEqual(["c", "d", "e"]);
    expect(lru.get("c")).toBe("C2");
  });

  test("entries expire after ttlMs, by the injected clock", () => {
    let now = 1_000;
    const lru = new GenerationalLru<string>(10, 500, () => now);
    lru.store(lru.begin(), "a", "A");
    now += 200;
    lru.store(lru.begin(), "b", "B");
    now += 299;
    expect(keys(lru, "a", "b")).toEqual(["a", "b"]);
    now += 1; // a is 500 ms old
    expect(lru.get("a")).toBeUndefined();
    expect(lru.size).toBe(1); // the expired entry is gone, not only hidden
    expect(lru.get("b")).toBe("B");
    now += 200;
    expect(lru.get("b")).toBeUndefined();
  });

  test("a read begun before an invalidation of its key does not store; other keys and later reads do", () => {
    const lru = new GenerationalLru<string>(10, 1_000);
    const since = lru.begin();
    lru.invalidate(["a", null, undefined]);
    lru.store(since, "a", "stale");
    lru.store(since, "b", "B");
    expect(keys(lru, "a", "b")).toEqual(["b"]);
    lru.store(lru.begin(), "a", "fresh");
    expect(lru.get("a")).toBe("fresh");
    lru.invalidate(["a"]);
    expect(keys(lru, "a", "b")).toEqual(["b"]);
  });

  test("tags: invalidating a tag drops the entries stored with it, and reads begun before store nothing with it", () => {
    const lru = new GenerationalLru<string>(10, 1_000);
    lru.store(lru.begin(), "d1", "one", ["a:1", "p:7"]);
    lru.store(lru.begin(), "d2", "two", ["a:2", "p:7"]);
    lru.invalidate(["a:1"]);
    expect(keys(lru, "d1", "d2")).toEqual(["d2"]);
    lru.invalidate(["p:7"]);
    expect(lru.size).toBe(0);
    const since = lru.begin();
    lru.invalidate(["a:2"]);
    lru.store(since, "d2", "two", ["a:2"]);
    lru.store(since, "d3", "three", ["a:3"]);
    expect(keys(lru, "d2", "d3")).toEqual(["d3"]);
    // an evicted or re-stored entry leaves its old tags behind: they drop nothing else
    lru.store(lru.begin(), "d3", "three", ["a:4"]);
    lru.invalidate(["a:3"]);
    expect(lru.get("d3")).toBe("three");
  });

  test("clear drops everything and raises the floor: reads begun before it store nothing", () => {
    const lru = new GenerationalLru<string>(10, 1_000);
    const since = lru.begin();
    lru.store(since, "a", "A");
    lru.clear();
    expect(lru.size).toBe(0);
    lru.store(since, "b", "B");
    expect(lru.size).toBe(0);
    lru.store(lru.begin(), "b", "B");
    expect(lru.get("b")).toBe("B");
  });

  test("forgetting too many invalidated keys raises the floor instead", () => {
    const lru = new GenerationalLru<string>(10, 1_000);
    const since = lru.begin();
    lru.invalidate(Array.from({ length: 10_001 }, (_, i) => `k${i}`));
    lru.store(since, "never-invalidated", "X"); // its invalidation may have been forgotten: not stored
    expect(lru.size).toBe(0);
    lru.store(lru.begin(), "never-invalidated", "X");
    expect(lru.size).toBe(1);
  });

  test("a bound of 0 stores nothing, and off() turns a cache off", () => {
    const zero = new GenerationalLru<string>(0, 1_000);
    zero.store(zero.begin(), "a", "A");
    expect(zero.get("a")).toBeUndefined();
    expect(zero.size).toBe(0);
    const lru = new GenerationalLru<string>(10, 1_000);
    lru.store(lru.begin(), "a", "A");
    lru.off();
    lru.store(lru.begin(), "b", "B");
    expect(lru.size).toBe(0);
  });

  test("suspended (its invalidations may be missed), it drops everything and stores nothing until resumed; a read begun before stores nothing", () => {
    const lru = new GenerationalLru<string>(10, 1_000);
    lru.store(lru.begin(), "a", "A");
    const during = lru.begin();
    lru.suspend(true);
    expect(lru.get("a")).toBeUndefined();
    lru.store(lru.begin(), "b", "B");
    expect(lru.size).toBe(0);
    lru.suspend(false);
    lru.store(during, "c", "C"); // began before the events came back: it may have missed one
    expect(lru.size).toBe(0);
    lru.store(lru.begin(), "d", "D");
    expect(lru.get("d")).toBe("D");
  });
});
