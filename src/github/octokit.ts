// An Octokit with GitHub's retry (5xx) and throttling (primary and secondary rate limits)
// plugins, for the CLI and tests. The App uses Probot's, which carries the same plugins.
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import { observeRequests, type RequestObserver } from './instrument.js';
import type { GitHubClient } from './types.js';

const RetryingOctokit = Octokit.plugin(retry, throttling);

export interface CreateOctokitOptions extends RequestObserver {
  auth?: string;
  /** Default https://api.github.com. */
  baseUrl?: string;
  /** Attempts after the first for 5xx and rate limits (default 3). */
  retries?: number;
  /**
   * Milliseconds one "second" of back-off lasts (default 1000). Tests shrink it so the plugins'
   * real schedule (1, 4, 9 … units; retry-after; the rate-limit reset) runs in milliseconds.
   */
  backoffUnitMs?: number;
  /** Spacing between writes (default 1000 ms, GitHub's advice against secondary limits). */
  writeSpacingMs?: number;
  userAgent?: string;
  log?: {
    debug(...args: unknown[]): void;
    info(...args: unknown[]): void;
    warn(...args: unknown[]): void;
    error(...args: unknown[]): void;
  };
}

export function createOctokit(options: CreateOctokitOptions = {}): GitHubClient {
  const retries = options.retries ?? 3;
  const unit = options.backoffUnitMs ?? 1000;
  const spacing = options.writeSpacingMs ?? 1000;
  const retryWhile = (_after: number, _request: unknown, _octokit: unknown, retryCount: number): boolean =>
    retryCount < retries;
  // The plugin's default limiter groups are shared by the whole process and fixed at 1–3 s spacing;
  // each client gets its own so the spacing is configurable.
  const groups = {
    global: new Bottleneck.Group({ maxConcurrent: 10 }),
    auth: new Bottleneck.Group({ maxConcurrent: 1 }),
    search: new Bottleneck.Group({ maxConcurrent: 1, minTime: 2 * spacing }),
    write: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacing }),
    notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 3 * spacing }),
  };
  const octokit = new RetryingOctokit({
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    userAgent: options.userAgent ?? 'driftback',
    ...(options.log ? { log: options.log } : {}),
    retry: { retries, retryAfterBaseValue: unit },
    throttle: {
      ...groups,
      retryAfterBaseValue: unit,
      fallbackSecondaryRateRetryAfter: 60,
      onRateLimit: retryWhile,
      onSecondaryRateLimit: retryWhile,
    },
  });
  if (options.onRequest || options.onRateLimit) observeRequests(octokit, options);
  return octokit;
}
