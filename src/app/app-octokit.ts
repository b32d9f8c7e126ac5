// The App's GitHub client class. Probot retries a primary rate limit twice but only logs a
// secondary one, so a burst of writes would fail the whole reconcile; here a secondary rate limit
// is waited out (GitHub's retry-after) and retried twice before the job queue's backoff takes over.
import { ProbotOctokit } from 'probot';

type ThrottleHandler = (
  retryAfter: number,
  request: { method: string; url: string },
  octokit: { log: { warn(message: string): void } },
  retryCount: number,
) => boolean;

const retrySecondaryTwice: ThrottleHandler = (retryAfter, request, octokit, retryCount) => {
  octokit.log.warn(
    `secondary rate limit on ${request.method} ${request.url}: retrying in ${retryAfter}s (attempt ${retryCount + 1} of 2)`,
  );
  return retryCount < 2;
};

export const AppOctokit = ProbotOctokit.defaults((options: Record<string, any>) => ({
  ...options,
  throttle: { ...options.throttle, onSecondaryRateLimit: retrySecondaryTwice },
}));
