// Per-cluster upload rate limit: a token bucket per (repository, cluster), refilled continuously.
export interface RateLimiter {
  /** Takes one upload slot; returns the seconds to wait when none is free. */
  take(key: string, nowMs: number): { ok: true } | { ok: false; retryAfterSeconds: number };
}

export function createRateLimiter(perMinute: number, burst = Math.max(2, Math.ceil(perMinute / 2))): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = perMinute / 60_000;
  return {
    take(key, nowMs) {
      const bucket = buckets.get(key) ?? { tokens: burst, at: nowMs };
      bucket.tokens = Math.min(burst, bucket.tokens + (nowMs - bucket.at) * refillPerMs);
      bucket.at = nowMs;
      buckets.set(key, bucket);
      if (buckets.size > 10_000) buckets.delete(buckets.keys().next().value as string);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) };
    },
  };
}
