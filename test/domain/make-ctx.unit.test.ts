// makeCtx (src/domain/context.ts) builds the per-request loaders when first read, not up front: a write or a
// health check needs none of them. Reading twice gives the same loaders; assigning replaces them (a
// subscription starts each event with fresh ones); a spread copy carries them along.
import { describe, expect, test } from "vitest";
import { makeCtx, type Services } from "../../src/domain/context.ts";
import { createLoaders } from "../../src/domain/loaders.ts";

// nothing here reaches a service: creating loaders runs no query
const services = { settings: {}, clock: () => new Date() } as unknown as Services;

describe("makeCtx", () => {
  test("creates the loaders on first use", () => {
    const ctx = makeCtx(services);
    const descriptor = Object.getOwnPropertyDescriptor(ctx, "loaders");
    expect(typeof descriptor?.get).toBe("function");
    const first = ctx.loaders;
    expect(first.account).toBeDefined();
    expect(ctx.loaders).toBe(first);
  });

  test("assigning replaces them, and a spread copy keeps them", () => {
    const ctx = makeCtx(services);
    const fresh = createLoaders(ctx);
    ctx.loaders = fresh;
    expect(ctx.loaders).toBe(fresh);
    expect({ ...ctx }.loaders).toBe(fresh);
  });
});
