// Rate limits (the family's `:rate_limit`, runtime settings `rate_limit.*`): fixed windows counted per
// account for signed-in requests and per client IP address for anonymous ones. A request over the limit
// answers 429 `{"error": "Throttled"}` with `Retry-After`; every limited answer carries
// `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (an ISO 8601 time, as the
// reference server writes it). Counters live in the process (see docs/security.md for several processes).
import type { Response } from "express";
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

/** In-memory fixed-window counters, swept as they expire. */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Counts one request of `who` against the rule `name` and says whether it may proceed; null when
   * the rule (or every rule) is off for this kind of client.
   */
  hit(config: RuntimeConfig, name: RateLimitName, who: { account?: string | null; ip: string }): RateDecision | null {
    if (!config.get("rate_limit", "enabled")) return null;
    const rule = config.get("rate_limit", name) as RateLimitRule;
    const window = who.account ? rule.authenticated : rule.unauthenticated;
    if (!window) return null;
    const now = this.now();
    this.sweep(now);
    const key = `${name}\u0001${who.account ? `a:${who.account}` : `ip:${who.ip}`}\u0001${window.scale_ms}`;
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { count: 0, resetAt: now + window.scale_ms };
      this.buckets.set(key, bucket);
    }
    bucket.count++;
    return { allowed: bucket.count <= window.limit, limit: window.limit, remaining: Math.max(0, window.limit - bucket.count), resetAt: bucket.resetAt };
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 10_000 && this.buckets.size < 100_000) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
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
