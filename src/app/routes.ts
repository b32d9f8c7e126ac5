// The App's own HTTP routes beside Probot's webhooks and /ping: the upload API and /metrics.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';
import { bearerToken, pathOf, sendError } from './http.js';

/** Constant-time comparison of a presented bearer token with the expected one. */
function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const given = Buffer.from(presented);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * GET /metrics. The series name every installation's repositories and clusters, so on an App shared
 * by several organisations `token` (METRICS_TOKEN) keeps them to whoever holds it.
 */
export function createMetricsHandler(
  metrics: Metrics,
  beforeScrape: () => Promise<void> = async () => undefined,
  token?: string,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (pathOf(req) !== '/metrics' || req.method !== 'GET') return false;
    if (token && !sameToken(bearerToken(req), token)) {
      return sendError(
        res,
        401,
        "send the App's METRICS_TOKEN as Authorization: Bearer <token> (Prometheus: authorization.credentials in the scrape config)",
        {},
        { 'www-authenticate': 'Bearer realm="metrics"' },
      );
    }
    await beforeScrape().catch(() => undefined);
    const text = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(text);
    return true;
  };
}
