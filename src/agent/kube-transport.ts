// Raw, authenticated GET requests to the Kubernetes API. @kubernetes/client-node supplies the
// configuration and authentication (bearer tokens, client certificates, exec plugins, the
// in-cluster CA) through `applyToHTTPSOptions`; the requests themselves are plain, because the
// typed clients drop unknown fields and the `continue` token of custom resources.
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { isPlainObject } from '../core/model/index.js';
import { DEFAULT_RETRY, parseRetryAfter, retrying, type RetryPolicy, type Timing } from './retry.js';

export type KubeResponse =
  | { type: 'ok'; body: unknown }
  /** The server answered with an error; `reason` and `message` come from its Status object. */
  | { type: 'status'; code: number; reason: string; message: string; retryAfterMs?: number }
  | { type: 'unreachable'; reason: 'Timeout' | 'NetworkError' | 'DeadlineExceeded'; message: string };

export interface KubeTransport {
  /** GET `path` with `query`; retried on timeouts, network errors, 429 and 5xx. */
  get(path: string, query?: Record<string, string | undefined>): Promise<KubeResponse>;
  readonly server: string;
}

export interface TransportOptions {
  /** Per-request timeout in milliseconds (default 30000). */
  requestTimeoutMs?: number;
  retry?: RetryPolicy;
  timing: Timing;
  /** Epoch milliseconds after which no request starts. */
  deadlineMs: number;
}

export function createKubeTransport(config: KubeConfig, options: TransportOptions): KubeTransport {
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster: set current-context or pass --context');
  const server = cluster.server.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 30_000;

  const once = async (url: URL): Promise<KubeResponse> => {
    if (options.timing.now() >= options.deadlineMs) {
      return {
        type: 'unreachable',
        reason: 'DeadlineExceeded',
        message: 'the run deadline passed before this request',
      };
    }
    const request: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
    // Called per request: exec plugins and token files refresh their credentials here.
    await config.applyToHTTPSOptions(request);
    // No request outlives the run: its timeout is cut to the time left.
    const remaining = Math.max(1, options.deadlineMs - options.timing.now());
    return send(url, request, Math.min(timeoutMs, remaining), options.timing.now);
  };

  return {
    server,
    get(path, query = {}) {
      const url = new URL(server + path);
      for (const [name, value] of Object.entries(query))
        if (value !== undefined && value !== '') url.searchParams.set(name, value);
      return retrying(
        async () => {
          const response = await once(url);
          const transient =
            (response.type === 'unreachable' && response.reason !== 'DeadlineExceeded') ||
            (response.type === 'status' && (response.code === 429 || response.code >= 500));
          return transient
            ? {
                type: 'retry',
                value: response,
                retryAfterMs: response.type === 'status' ? response.retryAfterMs : undefined,
              }
            : { type: 'done', value: response };
        },
        options.retry ?? DEFAULT_RETRY,
        options.timing,
        options.deadlineMs,
      );
    },
  };
}

function send(url: URL, request: https.RequestOptions, timeoutMs: number, now: () => number): Promise<KubeResponse> {
  return new Promise((resolve) => {
    const lib = url.protocol === 'http:' ? http : https;
    const req = lib.request(url, request, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => resolve({ type: 'unreachable', reason: 'NetworkError', message: error.message }));
      res.on('end', () =>
        resolve(
          toResponse(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), res.headers['retry-after'], now()),
        ),
      );
    });
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ type: 'unreachable', reason: 'Timeout', message: `no answer within ${timeoutMs} ms` });
    });
    req.on('error', (error) => resolve({ type: 'unreachable', reason: 'NetworkError', message: error.message }));
    req.end();
  });
}

function toResponse(code: number, text: string, retryAfter: string | undefined, nowMs: number): KubeResponse {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (code >= 200 && code < 300) {
    return body === undefined
      ? { type: 'status', code, reason: 'InvalidResponse', message: 'the answer was not JSON' }
      : { type: 'ok', body };
  }
  // Errors come as a Status object (kind: Status, reason, message); proxies may send anything.
  const status = isPlainObject(body) && body.kind === 'Status' ? body : undefined;
  return {
    type: 'status',
    code,
    reason: typeof status?.reason === 'string' && status.reason ? status.reason : reasonOf(code),
    message: typeof status?.message === 'string' ? status.message : text.slice(0, 200) || `HTTP ${code}`,
    retryAfterMs: parseRetryAfter(retryAfter, nowMs),
  };
}

function reasonOf(code: number): string {
  const reasons: Record<number, string> = {
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    410: 'Expired',
    429: 'TooManyRequests',
  };
  return reasons[code] ?? (code >= 500 ? 'InternalError' : `HTTP${code}`);
}
