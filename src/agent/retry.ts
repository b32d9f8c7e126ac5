// Retrying a request that failed for a reason that may pass (timeouts, 5xx, 429): exponential
// backoff with full jitter, never past the run's deadline. Clock, sleep and randomness are
// parameters so tests run without waiting.

export interface RetryPolicy {
  /** Attempts in all, the first one included (default 5). */
  attempts: number;
  /** First backoff in milliseconds (default 500). */
  baseDelayMs: number;
  /** Longest backoff in milliseconds (default 15000). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 15_000 };

export interface Timing {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export const realTiming: Timing = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** Full jitter (AWS architecture blog): a random wait in [0, min(cap, base·2^attempt)). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * `Retry-After` is either seconds or an HTTP date (RFC 9110 §10.2.3).
 * Returns milliseconds to wait, or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export type Attempt<T> = { type: 'done'; value: T } | { type: 'retry'; value: T; retryAfterMs?: number };

/**
 * Runs `attempt` until it is done, the attempts are used up or the next wait would pass the
 * deadline; returns the last value either way so the caller reports the real failure.
 */
export async function retrying<T>(
  attempt: (index: number) => Promise<Attempt<T>>,
  policy: RetryPolicy,
  timing: Timing,
  deadlineMs: number,
): Promise<T> {
  for (let index = 0; ; index++) {
    const result = await attempt(index);
    if (result.type === 'done' || index + 1 >= policy.attempts) return result.value;
    const wait = result.retryAfterMs ?? backoffDelay(policy, index, timing.random);
    if (timing.now() + wait >= deadlineMs) return result.value;
    await timing.sleep(wait);
  }
}
