// The status cache's own rules (src/domain/statuses/status-cache.ts): least recently used entries go
// first when full, a read that began before an invalidation stores nothing, entries expire.
import { describe, expect, test } from "vitest";
import { StatusCache, type SharedStatusData } from "../../src/domain/statuses/status-cache.ts";

const data = (id: string) => ({ row: { id } }) as unknown as SharedStatusData;

describe("StatusCache", () => {
  test("bounded: the least recently used entry goes first", () => {
    const cache = new StatusCache(2);
    cache.store(cache.begin(), "a", data("a"));
    cache.store(cache.begin(), "b", data("b"));
    expect(cache.get("a")).toBeDefined(); // a is now the most recent
    cache.store(cache.begin(), "c", data("c"));
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("c")).toBeDefined();
  });

  test("a read begun before an invalidation of its status does not store it", () => {
    const cache = new StatusCache(10);
    const since = cache.begin();
    cache.invalidate(["a"]);
    cache.store(since, "a", data("a"));
    cache.store(since, "b", data("b")); // another status: stored
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeDefined();
    const later = cache.begin();
    cache.store(later, "a", data("a"));
    expect(cache.get("a")).toBeDefined();
  });

  test("trim drops every entry; a read in flight still stores its own", () => {
    const cache = new StatusCache(10);
    const since = cache.begin();
    cache.store(since, "a", data("a"));
    cache.store(since, "b", data("b"));
    cache.trim();
    expect(cache.size).toBe(0);
    expect(cache.get("a")).toBeUndefined();
    cache.store(since, "c", data("c")); // nothing was invalidated: what it read is still true
    expect(cache.get("c")).toBeDefined();
  });

  test("clear drops everything, and reads begun before it store nothing", () => {
    const cache = new StatusCache(10);
    const since = cache.begin();
    cache.store(since, "a", data("a"));
    cache.clear();
    cache.store(since, "b", data("b"));
    expect(cache.size).toBe(0);
  });

  test("entries expire", () => {
    let now = 0;
    const cache = new StatusCache(10, () => now);
    cache.store(cache.begin(), "a", data("a"));
    now += 10 * 60_000;
    expect(cache.get("a")).toBeUndefined();
  });
});
