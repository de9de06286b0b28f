// Hierarchical OAuth scopes (src/domain/auth/scopes.ts), without a server.
import { describe, expect, test } from "vitest";
import { covers, hasScope, narrowScopes, parseScopes } from "../../src/domain/auth/scopes.ts";

describe("covers", () => {
  test.each([
    ["admin", "admin:read:accounts"],
    ["admin:read", "admin:read:accounts"],
    ["admin", "admin"],
    ["read", "read:accounts"],
    ["read", "read:security"],
    ["write", "write:security"],
    ["follow", "write:follows"],
    ["follow", "read:blocks"],
    ["follow", "write:mutes"],
  ])("%s covers %s", (granted, required) => {
    expect(covers(granted, required)).toBe(true);
  });

  test.each([
    ["admin:read:accounts:partial", "admin:read:accounts"], // narrower never covers wider
    ["admin:read:accounts", "admin:read"],
    ["read:accounts", "admin:read:accounts"], // a user scope never reaches into admin
    ["read", "admin:read"],
    ["read", "readable"], // prefix of the word is not a parent scope
    ["admin:read", "admin:readx"],
    ["write", "read:accounts"],
    ["follow", "write:statuses"],
    ["follow", "read:accounts"],
    ["write:follows", "follow"],
  ])("%s does not cover %s", (granted, required) => {
    expect(covers(granted, required)).toBe(false);
  });
});

describe("hasScope", () => {
  test("any granted scope may cover any one of the alternatives", () => {
    expect(hasScope(["read"], ["read:security"])).toBe(true);
    expect(hasScope(["write", "push"], ["read:security", "write:security"])).toBe(true);
    expect(hasScope(["write"], ["read:security"])).toBe(false);
    expect(hasScope([], ["read"])).toBe(false);
    expect(hasScope(["read"], [])).toBe(false);
  });
});

describe("narrowScopes", () => {
  test("no request means every scope the app registered", () => {
    expect(narrowScopes([], ["read", "write"])).toEqual(["read", "write"]);
  });

  test("requested scopes within the app's scopes are kept as requested", () => {
    expect(narrowScopes(["read:accounts", "write"], ["read", "write"])).toEqual(["read:accounts", "write"]);
    expect(narrowScopes(["admin:read:accounts"], ["admin"])).toEqual(["admin:read:accounts"]);
  });

  test("one scope outside the app's scopes refuses the whole request", () => {
    expect(narrowScopes(["read", "admin"], ["read", "write"])).toBeNull();
    expect(narrowScopes(["read"], ["read:accounts"])).toBeNull();
    expect(narrowScopes(["admin:read:accounts"], ["read:accounts"])).toBeNull();
  });
});

describe("parseScopes", () => {
  test("spaces, commas and plus signs separate scopes; duplicates and blanks are dropped", () => {
    expect(parseScopes("read write")).toEqual(["read", "write"]);
    expect(parseScopes("read,write+follow  read")).toEqual(["read", "write", "follow"]);
    expect(parseScopes(["push", " push ", ""])).toEqual(["push"]);
    expect(parseScopes(undefined)).toEqual([]);
  });
});
