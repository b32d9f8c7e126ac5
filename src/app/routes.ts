// The App's own HTTP routes beside Probot's webhooks and /ping: the upload API and /metrics.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';
import { pathOf } from './http.js';

export function createMetricsHandler(metrics: Metrics, beforeScrape: () => Promise<void> = async () => undefined) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (pathOf(req) !== '/metrics' || req.method !== 'GET') return false;
    await beforeScrape().catch(() => undefined);
    const text = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(text);
    return true;
  };
}
