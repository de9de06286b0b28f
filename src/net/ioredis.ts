// ioredis (~1 MB of heap, ~7 MB of RSS once compiled) is needed only when the instance has a REDIS_URL: the
// rate limiter and the bus's Redis target load it when they create their first client, not at start
// (docs/performance.md, "Idle memory, second round"). Both create their clients in constructors, so the
// package is loaded synchronously: it is CommonJS, which `require` can load from an ES module.
import { createRequire } from "node:module";
import type { Redis as RedisClient } from "ioredis";

const load = createRequire(import.meta.url);

/** The ioredis client class, loaded on the first call. */
export function redisClient(): typeof RedisClient {
  return (load("ioredis") as typeof import("ioredis")).Redis;
}
