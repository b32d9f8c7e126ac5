// Uploads a spooled, gzipped snapshot to the App (`POST /api/v1/snapshots`). Retries 5xx, 429
// and network errors, honouring `Retry-After`; a 4xx is final and gets a message that says
// what to change. The body is re-read from the spool file on each attempt, so memory stays flat.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { isPlainObject } from '../core/model/index.js';
import { DEFAULT_RETRY, parseRetryAfter, retrying, type RetryPolicy, type Timing } from './retry.js';

export interface UploadRequest {
  /** The App's base URL; the route is appended. */
  url: URL;
  token: string;
  repository: string;
  cluster: string;
  /** Path of the gzip-compressed snapshot document. */
  file: string;
  timing: Timing;
  deadlineMs: number;
  requestTimeoutMs: number;
  retry?: RetryPolicy;
  log(line: string): void;
}

export type UploadResult =
  /** `skipped`: objects the App listed as never written as files (`items[3].metadata.name: …`). */
  | { type: 'accepted'; id: string; status: string; attempts: number; skipped: string[] }
  | { type: 'rejected'; code: number; message: string }
  | { type: 'failed'; message: string };

type Answer =
  { type: 'answered'; code: number; body: string; retryAfter?: string } | { type: 'unreachable'; error: string };

export const UPLOAD_PATH = '/api/v1/snapshots';

export async function uploadSnapshot(request: UploadRequest): Promise<UploadResult> {
  // Relative to the base URL, so an App served under a path prefix works too.
  const target = new URL(
    UPLOAD_PATH.slice(1),
    request.url.href.endsWith('/') ? request.url : new URL(request.url.href + '/'),
  );
  const size = (await stat(request.file)).size;
  let attempts = 0;
  const answer = await retrying<Answer>(
    async (index) => {
      attempts = index + 1;
      const result = await post(target, request, size);
      if (result.type === 'unreachable') request.log(`upload attempt ${attempts} failed: ${result.error}`);
      else if (result.code === 429 || result.code >= 500)
        request.log(`upload attempt ${attempts}: the App answered ${result.code}`);
      const transient = result.type === 'unreachable' || result.code === 429 || result.code >= 500;
      const retryAfterMs =
        result.type === 'answered' ? parseRetryAfter(result.retryAfter, request.timing.now()) : undefined;
      return transient ? { type: 'retry', value: result, retryAfterMs } : { type: 'done', value: result };
    },
    request.retry ?? DEFAULT_RETRY,
    request.timing,
    request.deadlineMs,
  );
  return toResult(answer, request, attempts);
}

function toResult(answer: Answer, request: UploadRequest, attempts: number): UploadResult {
  if (answer.type === 'unreachable')
    return {
      type: 'failed',
      message: `the App at ${request.url.origin} could not be reached after ${attempts} attempts: ${answer.error}`,
    };
  const body = parseJson(answer.body);
  if (answer.code >= 200 && answer.code < 300) {
    const skipped = (Array.isArray(body?.skipped) ? body.skipped : [])
      .filter(isPlainObject)
      .map((entry) => `${String(entry.path)}: ${String(entry.message)}`);
    return {
      type: 'accepted',
      id: String(body?.id ?? ''),
      status: String(body?.status ?? 'queued'),
      attempts,
      skipped,
    };
  }
  return refusal(answer.code, answer.body, body, request, attempts);
}

/** A non-2xx answer: what the admin has to change (rejected), or that the App did not take it in time (failed). */
function refusal(
  code: number,
  text: string,
  body: Record<string, unknown> | undefined,
  { repository, cluster }: UploadRequest,
  attempts: number,
): UploadResult {
  switch (code) {
    case 401:
      return {
        type: 'rejected',
        code: 401,
        message: `the token is not valid for repository ${repository} cluster ${cluster}: create it with \`driftback token --repository ${repository} --cluster ${cluster}\` using the App's DRIFTBACK_TOKEN_SECRET, and store it in the agent's token Secret`,
      };
    case 413:
      return {
        type: 'rejected',
        code: 413,
        message:
          'the snapshot is larger than the App accepts (MAX_SNAPSHOT_BYTES): raise MAX_SNAPSHOT_BYTES on the App, or narrow the scope with DRIFTBACK_NAMESPACES, DRIFTBACK_LABEL_SELECTOR, DRIFTBACK_EXCLUDE or DRIFTBACK_SECRETS=omit',
      };
    case 400: {
      const problems = Array.isArray(body?.problems) ? (body.problems as unknown[]) : [];
      const listed = problems
        .slice(0, 5)
        .map((p) => (isPlainObject(p) ? `${String(p.path)}: ${String(p.message)}` : String(p)))
        .join('; ');
      return {
        type: 'rejected',
        code: 400,
        message: `the App refused the snapshot as invalid${listed ? `: ${listed}` : ''}`,
      };
    }
    case 429:
      return {
        type: 'failed',
        message: 'the App is still refusing uploads as too frequent (429): run the CronJob less often',
      };
    default:
      if (code >= 500)
        return {
          type: 'failed',
          message: `the App answered ${code} after ${attempts} attempts: ${text.slice(0, 200)}`,
        };
      return { type: 'rejected', code, message: `the App answered ${code}: ${text.slice(0, 200)}` };
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function post(target: URL, request: UploadRequest, size: number): Promise<Answer> {
  return new Promise((resolve) => {
    const lib = target.protocol === 'http:' ? http : https;
    const req = lib.request(target, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${request.token}`,
        // The App checks the token against these before it reads the body.
        'X-Driftback-Repository': request.repository,
        'X-Driftback-Cluster': request.cluster,
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'Content-Length': size,
      },
    });
    req.setTimeout(request.requestTimeoutMs, () =>
      req.destroy(new Error(`no answer within ${request.requestTimeoutMs} ms`)),
    );
    req.on('error', (error) => resolve({ type: 'unreachable', error: error.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => resolve({ type: 'unreachable', error: error.message }));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({
          type: 'answered',
          code: res.statusCode ?? 0,
          body: Buffer.concat(chunks)
            .toString('utf8')
            .slice(0, 64 * 1024),
          retryAfter,
        });
      });
    });
    const body = createReadStream(request.file);
    body.on('error', (error) => req.destroy(error));
    body.pipe(req);
  });
}
