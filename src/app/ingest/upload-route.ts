// POST /api/v1/snapshots and GET /api/v1/clusters/<owner>/<repo>/<cluster> (DESIGN.md "Upload API").
// Ingest never waits on GitHub: it verifies, validates, stores durably, enqueues, answers 202.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { capturedAtProblem, parseSnapshot } from '../../core/model/index.js';
import { verifyToken } from '../../core/token/index.js';
import type { JobQueue, Store } from '../../store/types.js';
import { bearerToken, pathOf, sendError, sendJson } from '../http.js';
import { expectedSize, inflateBody, readRawBody } from './read-body.js';
import type { RateLimiter } from './rate-limit.js';
import type { ByteBudget } from './semaphore.js';

export interface UploadDeps {
  store: Store;
  queue: JobQueue;
  tokenSecret?: string;
  maxSnapshotBytes: number;
  rateLimiter: RateLimiter;
  /** Bytes of documents inflated and parsed at once (DRIFTBACK_INGEST_MEMORY). */
  parsing: ByteBudget;
  now: () => Date;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  onSnapshot?: (result: 'accepted' | 'duplicate' | 'stale' | 'invalid' | 'unauthorized' | 'too-large' | 'rate-limited' | 'error') => void;
}

export const RECONCILE_QUEUE = 'reconcile';

export function reconcileKey(repository: string, cluster: string): string {
  return `${repository.toLowerCase()}#${cluster}`;
}

/** Returns true when it answered the request. */
export function createUploadHandler(deps: UploadDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = pathOf(req);
    if (path === '/api/v1/snapshots') {
      if (req.method !== 'POST') return sendError(res, 405, 'use POST to upload a snapshot', {}, { allow: 'POST' });
      return handleUpload(deps, req, res);
    }
    const status = /^\/api\/v1\/clusters\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(path);
    if (status) {
      if (req.method !== 'GET') return sendError(res, 405, 'use GET', {}, { allow: 'GET' });
      const [owner, repo, cluster] = status.slice(1).map(decodeURIComponent);
      return handleStatus(deps, req, res, `${owner}/${repo}`, cluster);
    }
    return false;
  };
}

async function handleUpload(deps: UploadDeps, req: IncomingMessage, res: ServerResponse): Promise<true> {
  const count = deps.onSnapshot ?? (() => undefined);
  if (!deps.tokenSecret) {
    req.resume();
    return sendError(res, 503, 'uploads are disabled: the App has no DRIFTBACK_TOKEN_SECRET set');
  }
  const token = bearerToken(req);
  if (!token) {
    req.resume();
    count('unauthorized');
    return sendError(res, 401, 'missing token: send Authorization: Bearer <token> (driftback token --repository <owner/name> --cluster <name>)');
  }
  const contentType = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    req.resume();
    count('invalid');
    return sendError(res, 415, `Content-Type ${contentType || '(none)'} is not accepted: send application/json (gzip with Content-Encoding: gzip)`);
  }
  const raw = await readRawBody(req, deps.maxSnapshotBytes);
  if (raw.type !== 'ok') return refuseBody(deps, res, raw);
  return deps.parsing.run(expectedSize(raw), async () => {
    const body = await inflateBody(raw, deps.maxSnapshotBytes);
    if (body.type !== 'ok') return refuseBody(deps, res, body);
    let document: unknown;
    try {
      document = JSON.parse(body.body.toString('utf8'));
    } catch (error) {
      count('invalid');
      const message = error instanceof RangeError ? 'the JSON is nested too deeply' : `invalid JSON: ${(error as Error).message}`;
      return sendError(res, 400, message, { problems: [{ path: '(body)', message }] });
    }
    const parsed = parseSnapshot(document);
    if (!parsed.ok) {
      count('invalid');
      return sendError(res, 400, 'the snapshot does not match driftback.dev/v1', { problems: parsed.problems });
    }
    const snapshot = parsed.value;
    if (!verifyToken(deps.tokenSecret!, token, snapshot.repository, snapshot.cluster)) {
      count('unauthorized');
      return sendError(res, 401, `the token is not valid for repository ${snapshot.repository} cluster ${snapshot.cluster}: create it with driftback token --repository ${snapshot.repository} --cluster ${snapshot.cluster}`);
    }
    const nowMs = deps.now().getTime();
    const future = capturedAtProblem(snapshot.capturedAt, deps.now());
    if (future) {
      count('invalid');
      return sendError(res, 400, 'the snapshot was captured in the future', { problems: [future] });
    }
    const limited = deps.rateLimiter.take(reconcileKey(snapshot.repository, snapshot.cluster), nowMs);
    if (!limited.ok) {
      count('rate-limited');
      return sendError(res, 429, `too many snapshots for ${snapshot.repository} ${snapshot.cluster}: retry after ${limited.retryAfterSeconds}s`, {}, { 'retry-after': String(limited.retryAfterSeconds) });
    }
    const digest = 'sha256:' + createHash('sha256').update(body.body).digest('hex');
    try {
      // The agent's gzip is kept as is: no second serialisation of a large document.
      const stored = await deps.store.putSnapshot(snapshot, { digest, receivedAt: deps.now().toISOString(), compressed: raw.gzip ? raw.raw : undefined });
      const fields = { repository: snapshot.repository, cluster: snapshot.cluster, snapshot: stored.meta.id, items: snapshot.items.length };
      if (stored.type === 'stale') {
        count('stale');
        deps.log.warn(fields, 'snapshot older than the latest one: stored, not used');
        return sendJson(res, 409, {
          id: stored.meta.id,
          status: 'stale',
          error: `capturedAt ${snapshot.capturedAt} is older than the latest snapshot (${stored.latest.capturedAt}): it does not replace newer state`,
        });
      }
      if (stored.type === 'duplicate') {
        count('duplicate');
        return sendJson(res, 202, { id: stored.meta.id, status: 'duplicate' });
      }
      await deps.queue.enqueue(RECONCILE_QUEUE, reconcileKey(snapshot.repository, snapshot.cluster), {
        repository: snapshot.repository,
        cluster: snapshot.cluster,
        snapshotId: stored.meta.id,
        reason: 'snapshot',
      });
      count('accepted');
      deps.log.info(fields, 'snapshot stored');
      return sendJson(res, 202, { id: stored.meta.id, status: 'queued' });
    } catch (error) {
      count('error');
      deps.log.error({ err: error, repository: snapshot.repository, cluster: snapshot.cluster }, 'could not store snapshot');
      return sendError(res, 503, 'the snapshot could not be stored right now (database unavailable): retry later', {}, { 'retry-after': '30' });
    }
  });
}

function refuseBody(deps: UploadDeps, res: ServerResponse, body: { type: 'too-large'; limit: number } | { type: 'bad-encoding'; message: string }): true {
  const count = deps.onSnapshot ?? (() => undefined);
  if (body.type === 'too-large') {
    count('too-large');
    res.setHeader('connection', 'close');
    return sendError(res, 413, `snapshot larger than ${body.limit} bytes decompressed (MAX_SNAPSHOT_BYTES): narrow the agent's scope with DRIFTBACK_NAMESPACES or DRIFTBACK_EXCLUDE, or raise the limit`);
  }
  count('invalid');
  return sendError(res, 400, body.message, { problems: [{ path: '(body)', message: body.message }] });
}

async function handleStatus(deps: UploadDeps, req: IncomingMessage, res: ServerResponse, repository: string, cluster: string): Promise<true> {
  const token = bearerToken(req);
  if (!deps.tokenSecret || !token || !verifyToken(deps.tokenSecret, token, repository, cluster)) {
    return sendError(res, 401, `send the upload token of repository ${repository} cluster ${cluster} as Authorization: Bearer <token>`);
  }
  try {
    const latest = await deps.store.latestSnapshotMeta(repository, cluster);
    return sendJson(res, 200, {
      repository,
      cluster,
      latest: latest ? { id: latest.id, capturedAt: latest.capturedAt, receivedAt: latest.receivedAt, items: latest.items, digest: latest.digest } : null,
    });
  } catch (error) {
    deps.log.error({ err: error, repository, cluster }, 'could not read cluster status');
    return sendError(res, 503, 'the status could not be read right now (database unavailable): retry later');
  }
}
