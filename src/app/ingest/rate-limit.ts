// Token buckets per key, refilled continuously: uploads per (repository, cluster), and failed
// authentications per client address.
export type RateAnswer = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes one slot; returns the seconds to wait when none is free. */
  take(key: string, nowMs: number): RateAnswer;
  /** Whether a slot is free, without taking it. */
  peek(key: string, nowMs: number): RateAnswer;
}

export function createRateLimiter(perMinute: number, burst = Math.max(2, Math.ceil(perMinute / 2))): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = perMinute / 60_000;
  const refilled = (key: string, nowMs: number) => {
    const bucket = buckets.get(key) ?? { tokens: burst, at: nowMs };
    bucket.tokens = Math.min(burst, bucket.tokens + (nowMs - bucket.at) * refillPerMs);
    bucket.at = nowMs;
    return bucket;
  };
  const answer = (tokens: number): RateAnswer =>
    tokens >= 1
      ? { ok: true }
      : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000)) };
  return {
    take(key, nowMs) {
      const bucket = refilled(key, nowMs);
      buckets.set(key, bucket);
      if (buckets.size > 10_000) buckets.delete(buckets.keys().next().value as string);
      const result = answer(bucket.tokens);
      if (result.ok) bucket.tokens -= 1;
      return result;
    },
    peek(key, nowMs) {
      return buckets.has(key) ? answer(refilled(key, nowMs).tokens) : { ok: true };
    },
  };
}
