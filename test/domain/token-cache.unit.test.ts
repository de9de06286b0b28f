// The token cache's bookkeeping (src/domain/auth/token-cache.ts): which writes drop which entries, the
// generation check that keeps a read begun before a write from storing, the lifetime and the bound.
import { expect, test } from "vitest";
import { TokenCache, type CachedToken } from "../../src/domain/auth/token-cache.ts";

const token = (id: number, accountId: string | null, appId = 1, movedToId: string | null = null, ownerId: string | null = null) =>
  ({ id, appId, accountId, scopes: ["read"], expiresAt: new Date(0), account: accountId ? { id: accountId, movedToId } : null, app: { id: appId, ownerId } }) as unknown as CachedToken;

test("an entry is dropped by a write to its token, its app, its account or the account it moved to or its app's owner", () => {
  const cache = new TokenCache();
  const cases: [string, CachedToken][] = [
    ["t:1", token(1, "A")],
    ["p:7", token(2, "B", 7)],
    ["a:C", token(3, "C")],
    ["a:X", token(4, "D", 1, "X")],
    ["a:O", token(5, null, 2, null, "O")],
  ];
  for (const [key, t] of cases) {
    cache.store(cache.begin(), `d${t.id}`, t);
    expect(cache.get(`d${t.id}`)).toBeDefined();
    cache.invalidate({ keys: ["a:unrelated", "t:999"] });
    expect(cache.get(`d${t.id}`), "other rows' writes leave it").toBeDefined();
    cache.invalidate({ keys: [key] });
    expect(cache.get(`d${t.id}`), key).toBeUndefined();
  }
  cache.store(cache.begin(), "d9", token(9, "E"));
  // follows are none of its rows: their writes, named or not, leave it (row-writes.ts scopes "all" to a kind)
  cache.invalidate({ keys: ["f:E", "f:9"] });
  cache.invalidate({ all: "f" });
  expect(cache.get("d9")).toBeDefined();
  cache.invalidate({ all: "t" });
  expect(cache.get("d9")).toBeUndefined();
});

test("a read begun before a write to one of its rows does not store", () => {
  const cache = new TokenCache();
  const since = cache.begin();
  cache.invalidate({ keys: ["a:A"] });
  cache.store(since, "d1", token(1, "A"));
  expect(cache.get("d1")).toBeUndefined();
  // another account's write does not hold it back
  const again = cache.begin();
  cache.invalidate({ keys: ["a:B"] });
  cache.store(again, "d1", token(1, "A"));
  expect(cache.get("d1")).toBeDefined();
  // nor does one older than the read
  cache.store(cache.begin(), "d2", token(2, "B"));
  expect(cache.get("d2")).toBeDefined();
});

test("entries live a minute, the least recently used go first, and each request gets its own copy", () => {
  let now = 0;
  const cache = new TokenCache(2, () => now);
  cache.store(cache.begin(), "d1", token(1, "A"));
  cache.store(cache.begin(), "d2", token(2, "B"));
  cache.get("d1");
  cache.store(cache.begin(), "d3", token(3, "C"));
  expect([cache.get("d1"), cache.get("d2"), cache.get("d3")].map(Boolean)).toEqual([true, false, true]);
  const copy = cache.get("d1")!;
  copy.scopes.push("admin");
  (copy.account as { id: string }).id = "Z";
  expect(cache.get("d1")).toMatchObject({ scopes: ["read"], account: { id: "A" } });
  now += 60_000;
  expect(cache.get("d1")).toBeUndefined();
  expect(new TokenCache(0).size).toBe(0);
  const off = new TokenCache(0);
  off.store(off.begin(), "d1", token(1, "A"));
  expect(off.get("d1")).toBeUndefined();
});
