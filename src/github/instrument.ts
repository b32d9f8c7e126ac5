// Observes every GitHub request an Octokit makes: route template and status for metrics, and the
// rate-limit budget left, read from the response headers.
import type { GitHubClient } from './types.js';

export interface RequestObserver {
  /** `route` is the template (`GET /repos/{owner}/{repo}/git/trees/{tree_sha}`), so labels stay bounded. */
  onRequest?(route: string, status: number): void;
  onRateLimit?(remaining: number, resource: string): void;
}

type Headers = Record<string, string | number | undefined>;

function report(observer: RequestObserver, route: string, status: number, headers: Headers | undefined): void {
  observer.onRequest?.(route, status);
  const remaining = Number(headers?.['x-ratelimit-remaining']);
  if (headers?.['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining))
    observer.onRateLimit?.(remaining, String(headers['x-ratelimit-resource'] ?? 'core'));
}

/** Wraps the client's request hook; the status seen is the final one after any retries. */
export function observeRequests(octokit: Pick<GitHubClient, 'hook'>, observer: RequestObserver): void {
  octokit.hook.wrap('request', async (request, options) => {
    const route = `${String(options.method).toUpperCase()} ${String(options.url)}`;
    try {
      const response = await request(options);
      report(observer, route, response.status, response.headers as Headers);
      return response;
    } catch (error) {
      const failure = error as { status?: number; response?: { headers?: Headers } };
      report(observer, route, typeof failure.status === 'number' ? failure.status : 0, failure.response?.headers);
      throw error;
    }
  });
}
