// Rate limits (the family's `:rate_limit`, runtime settings `rate_limit.*`): fixed windows counted per
// account for signed-in requests and per client IP address for anonymous ones. A request over the limit
// answers 429 `{"error": "Throttled"}` with `Retry-After`; every limited answer carries
// `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (an ISO 8601 time, as the
// reference server writes it). Counters live in Redis when the instance has one (REDIS_URL), so every
// process of the instance counts against the same limit; without Redis, or while Redis is away, they
// live in the process (logged once per outage; see docs/security.md).
import type { Response } from "express";
import type { Redis } from "ioredis";
import { redisClient } from "../net/ioredis.ts";
import type { RuntimeConfig, RateLimitRule, RuntimeSettings } from "../config/runtime.ts";

export type RateLimitName = Exclude<keyof RuntimeSettings["rate_limit"], "enabled">;

interface Bucket {
  count: number;
  resetAt: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: number;
}

// INCR the window's counter; the first hit starts the window (PEXPIRE). Answers the count and the
// milliseconds left. One round trip, atomic for every process of the instance.
const HIT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

// DECR the window's counter if the window is still running (an ended one is not recreated).
const RELEASE_SCRIPT = `if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

export interface RateLimiterOptions {
  now?: () => number;
  /** share the counters through this Redis (the instance's REDIS_URL) */
  redis?: { url: string; prefix: string; log?: (message: string) => void };
}

/** Fixed-window counters: in Redis when configured, otherwise (and while Redis is away) in memory. */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private lastSweep = 0;
  private readonly now: () => number;
  private readonly redis: Redis | null = null;
  private readonly prefix: string = "";
  private readonly log: (message: string) => void;
  private degraded = false;

  constructor(options: RateLimiterOptions | (() => number) = {}) {
    const opts = typeof options === "function" ? { now: options } : options;
    this.now = opts.now ?? Date.now;
    this.log = opts.redis?.log ?? ((message) => console.error(`[rate-limit] ${message}`));
    if (opts.redis) {
      // fail fast while Redis is away (no offline queue, one retry): a request must not wait on a limit
      this.redis = new (redisClient())(opts.redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
      this.redis.on("error", () => {}); // reported once per outage by hit()
      this.redis.defineCommand("rateHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
      this.redis.defineCommand("rateRelease", { numberOfKeys: 1, lua: RELEASE_SCRIPT });
      this.prefix = opts.redis.prefix;
    }
  }

  /**
   * Counts one request of `who` against the rule `name` and says whether it may proceed; null when
   * the rule (or every rule) is off for this kind of client.
   */
  async hit(config: RuntimeConfig, name: RateLimitName, who: { account?: string | null; ip: string }): Promise<RateDecision | null> {
    return this.hitSubject(config, name, who.account ? `a:${who.account}` : `ip:${who.ip}`, !!who.account);
  }

  /**
   * Counts one request on a counter of its own, `subject` (e.g. the password throttle's `pw-ip:<ip>`),
   * under the rule's window for signed-in (`signedIn`) or anonymous clients; null when that window is off.
   */
  async hitSubject(config: RuntimeConfig, name: RateLimitName, subject: string, signedIn = false): Promise<RateDecision | null> {
    const window = this.windowOf(config, name, signedIn);
    if (!window) return null;
    const key = `${name}\u0001${subject}\u0001${window.scale_ms}`;
    // while Redis is away (not ready), count here rather than make the request wait for it
    if (this.redis && this.redis.status !== "ready" && !this.degraded && this.redis.status !== "connecting" && this.redis.status !== "connect") {
      this.log(`redis unavailable (${this.redis.status}): counting rate limits in this process until it returns`);
      this.degraded = true;
    }
    if (this.redis?.status === "ready") {
      try {
        const [count, ttl] = (await (this.redis as any).rateHit(this.prefix + key, String(window.scale_ms))) as [number, number];
        if (this.degraded) this.log("redis is back: rate-limit counters are shared again");
        this.degraded = false;
        return decision(count, window.limit, this.now() + ttl);
      } catch (error) {
        if (!this.degraded) this.log(`redis unavailable (${(error as Error).message}): counting rate limits in this process until it returns`);
        this.degraded = true;
      }
    }
    const now = this.now();
    this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { count: 0, resetAt: now + window.scale_ms };
      this.buckets.set(key, bucket);
    }
    bucket.count++;
    return decision(bucket.count, window.limit, bucket.resetAt);
  }

  /** Gives back one request counted by `hitSubject` in the window still running (nothing once it ended). */
  async release(config: RuntimeConfig, name: RateLimitName, subject: string, signedIn = false): Promise<void> {
    const window = this.windowOf(config, name, signedIn);
    if (!window) return;
    const key = `${name}\u0001${subject}\u0001${window.scale_ms}`;
    if (this.redis?.status === "ready") {
      try {
        await (this.redis as any).rateRelease(this.prefix + key);
        return;
      } catch {
        // counted here while Redis was away: given back here
      }
    }
    const bucket = this.buckets.get(key);
    if (bucket && bucket.resetAt > this.now() && bucket.count > 0) bucket.count--;
  }

  private windowOf(config: RuntimeConfig, name: RateLimitName, signedIn: boolean) {
    if (!config.get("rate_limit", "enabled")) return null;
    const rule = config.get("rate_limit", name) as RateLimitRule;
    return signedIn ? rule.authenticated : rule.unauthenticated;
  }

  async close() {
    if (this.redis) this.redis.disconnect();
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 10_000 && this.buckets.size < 100_000) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}

function decision(count: number, limit: number, resetAt: number): RateDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt };
}

/** Writes the rate-limit headers; on a refusal also Retry-After and the 429 body. Answers whether to go on. */
export function applyRateDecision(res: Response, decision: RateDecision | null, now = Date.now()): boolean {
  if (!decision) return true;
  res.set({
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": new Date(decision.resetAt).toISOString(),
  });
  if (decision.allowed) return true;
  res.set("Retry-After", String(Math.max(1, Math.ceil((decision.resetAt - now) / 1000))));
  res.status(429).json({ error: "Throttled" });
  return false;
}
