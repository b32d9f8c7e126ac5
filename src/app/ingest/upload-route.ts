// POST /api/v1/snapshots and GET /api/v1/clusters/<owner>/<repo>/<cluster> (DESIGN.md "Upload API").
// Ingest never waits on GitHub: it authenticates from the headers, then reads, validates, stores
// durably, enqueues and answers 202.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { screenObjects, skippedEntry, type SkippedObject } from '../../core/k8s/object-names.js';
import { capturedAtProblem, parseSnapshot, type Snapshot } from '../../core/model/index.js';
import type { Store } from '../../store/types.js';
import { pathOf, sendError, sendJson } from '../http.js';
import type { AppLogger } from '../logger.js';
import type { SnapshotResult } from '../metrics.js';
import { RECONCILE_QUEUE, reconcileKey, type JobQueue, type ReconcileJob } from '../queue/jobs.js';
import { authenticate } from './authenticate.js';
import { expectedSize, inflateBody, readRawBody } from './read-body.js';
import type { RateLimiter } from './rate-limit.js';
import type { ByteBudget } from './semaphore.js';

export interface UploadDeps {
  store: Store;
  queue: JobQueue;
  tokenSecret?: string;
  maxSnapshotBytes: number;
  rateLimiter: RateLimiter;
  /** Failed authentications per client address and per claimed cluster. */
  failures: RateLimiter;
  /** Reverse proxies in front of the App: client addresses come from their X-Forwarded-For entries. */
  proxyHops?: number;
  /** Bodies read at once (their raw bytes, until parsed), by declared size. */
  bodyReads: ByteBudget;
  /** Bytes of documents inflated and parsed at once (DRIFTBACK_INGEST_MEMORY). */
  parsing: ByteBudget;
  now: () => Date;
  log: AppLogger;
  onSnapshot?: (result: SnapshotResult) => void;
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

type Refusal = { status: number; message: string; retryAfterSeconds?: number };

/**
 * Everything the headers can settle, before the body is read: uploads switched on, the token, the
 * content type, the cluster's rate. The cluster the token is for, or the refusal (counted).
 */
function admit(
  deps: UploadDeps,
  req: IncomingMessage,
  nowMs: number,
): { type: 'ok'; repository: string; cluster: string } | { type: 'refused'; refusal: Refusal } {
  const count = deps.onSnapshot ?? (() => undefined);
  const refused = (refusal: Refusal) => ({ type: 'refused' as const, refusal });
  if (!deps.tokenSecret)
    return refused({ status: 503, message: 'uploads are disabled: the App has no DRIFTBACK_TOKEN_SECRET set' });
  const { failures, proxyHops } = deps;
  const who = authenticate({ tokenSecret: deps.tokenSecret, failures, proxyHops }, req, nowMs);
  if (who.type !== 'ok') {
    count('unauthorized');
    return refused(who);
  }
  const contentType = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (contentType !== 'application/json') {
    count('invalid');
    return refused({
      status: 415,
      message: `Content-Type ${contentType || '(none)'} is not accepted: send application/json (gzip with Content-Encoding: gzip)`,
    });
  }
  const limited = deps.rateLimiter.take(reconcileKey(who.repository, who.cluster), nowMs);
  if (limited.ok) return { type: 'ok', repository: who.repository, cluster: who.cluster };
  count('rate-limited');
  return refused({
    status: 429,
    message: `too many snapshots for ${who.repository} ${who.cluster}: retry after ${limited.retryAfterSeconds}s`,
    retryAfterSeconds: limited.retryAfterSeconds,
  });
}

async function handleUpload(deps: UploadDeps, req: IncomingMessage, res: ServerResponse): Promise<true> {
  const admitted = admit(deps, req, deps.now().getTime());
  if (admitted.type !== 'ok') return refuseUnread(res, admitted.refusal);
  const who = { repository: admitted.repository, cluster: admitted.cluster };
  // A body in memory stays counted until it is parsed, so bodies read at once stay bounded too.
  const declared = Number(req.headers['content-length']);
  const weight =
    Number.isFinite(declared) && declared > 0 ? Math.min(declared, deps.maxSnapshotBytes) : deps.maxSnapshotBytes;
  return deps.bodyReads.run(weight, async () => {
    const raw = await readRawBody(req, deps.maxSnapshotBytes);
    if (raw.type !== 'ok') return refuseBody(deps, res, raw);
    return deps.parsing.run(expectedSize(raw), async () => {
      const body = await inflateBody(raw, deps.maxSnapshotBytes);
      if (body.type !== 'ok') return refuseBody(deps, res, body);
      return storeUpload(deps, res, { raw: raw.raw, gzip: raw.gzip, json: body.body }, who);
    });
  });
}

/** The document as a snapshot for the authenticated cluster, or the 400 it was answered with. */
function readUpload(
  deps: UploadDeps,
  res: ServerResponse,
  json: Buffer,
  who: { repository: string; cluster: string },
): Snapshot | true {
  const count = deps.onSnapshot ?? (() => undefined);
  let document: unknown;
  try {
    document = JSON.parse(json.toString('utf8'));
  } catch (error) {
    count('invalid');
    const message =
      error instanceof RangeError ? 'the JSON is nested too deeply' : `invalid JSON: ${(error as Error).message}`;
    return sendError(res, 400, message, { problems: [{ path: '(body)', message }] });
  }
  const parsed = parseSnapshot(document);
  if (!parsed.ok) {
    count('invalid');
    return sendError(res, 400, 'the snapshot does not match driftback.dev/v1', { problems: parsed.problems });
  }
  const snapshot = parsed.value;
  const mismatch = identityProblems(snapshot, who);
  if (mismatch.length > 0) {
    count('invalid');
    return sendError(res, 400, 'the snapshot is for another cluster than its headers and token', {
      problems: mismatch,
    });
  }
  const future = capturedAtProblem(snapshot.capturedAt, deps.now());
  if (future) {
    count('invalid');
    return sendError(res, 400, 'the snapshot was captured in the future', { problems: [future] });
  }
  return snapshot;
}

async function storeUpload(
  deps: UploadDeps,
  res: ServerResponse,
  body: { raw: Buffer; gzip: boolean; json: Buffer },
  who: { repository: string; cluster: string },
): Promise<true> {
  const count = deps.onSnapshot ?? (() => undefined);
  const snapshot = readUpload(deps, res, body.json, who);
  if (snapshot === true) return true;
  // One object with a name no API server accepts, or no file name, is listed, never refused for.
  const screened = screenObjects(snapshot.items).skipped;
  const digest = 'sha256:' + createHash('sha256').update(body.json).digest('hex');
  let stored: Awaited<ReturnType<Store['putSnapshot']>>;
  try {
    // The agent's gzip is kept as is: no second serialisation of a large document.
    stored = await deps.store.putSnapshot(snapshot, {
      digest,
      receivedAt: deps.now().toISOString(),
      compressed: body.gzip ? body.raw : undefined,
    });
    if (stored.type === 'stored') await enqueueReconcile(deps, snapshot, stored.meta.id);
  } catch (error) {
    count('error');
    const fields = { err: error, repository: snapshot.repository, cluster: snapshot.cluster };
    deps.log.error(fields, 'could not store snapshot');
    const message = 'the snapshot could not be stored right now (database unavailable): retry later';
    return sendError(res, 503, message, {}, { 'retry-after': '30' });
  }
  return answerStored(deps, res, snapshot, stored, screened);
}

async function enqueueReconcile(deps: UploadDeps, snapshot: Snapshot, snapshotId: string): Promise<void> {
  const job: ReconcileJob = {
    repository: snapshot.repository,
    cluster: snapshot.cluster,
    snapshotId,
    reason: 'snapshot',
  };
  await deps.queue.enqueue(RECONCILE_QUEUE, reconcileKey(snapshot.repository, snapshot.cluster), { ...job });
}

/** The answer to a stored upload: queued, a duplicate, or stale (older than the latest), with what was skipped. */
function answerStored(
  deps: UploadDeps,
  res: ServerResponse,
  snapshot: Snapshot,
  stored: Awaited<ReturnType<Store['putSnapshot']>>,
  screened: SkippedObject[],
): true {
  const count = deps.onSnapshot ?? (() => undefined);
  const skipped = listed(screened);
  const fields = {
    repository: snapshot.repository,
    cluster: snapshot.cluster,
    snapshot: stored.meta.id,
    items: snapshot.items.length,
    ...(screened.length ? { skipped: screened.length } : {}),
  };
  if (stored.type === 'stale') {
    count('stale');
    deps.log.warn(fields, 'snapshot older than the latest one: stored, not used');
    return sendJson(res, 409, {
      id: stored.meta.id,
      status: 'stale',
      ...skipped,
      error: `capturedAt ${snapshot.capturedAt} is older than the latest snapshot (${latestTime(stored.latest)}): it does not replace newer state`,
    });
  }
  if (stored.type === 'duplicate') {
    count('duplicate');
    return sendJson(res, 202, { id: stored.meta.id, status: 'duplicate', ...skipped });
  }
  count('accepted');
  if (screened.length) deps.log.warn(fields, 'snapshot stored; objects listed in "skipped" are never written as files');
  else deps.log.info(fields, 'snapshot stored');
  return sendJson(res, 202, { id: stored.meta.id, status: 'queued', ...skipped });
}

/** At most this many skipped objects are listed in an answer; `skippedCount` says how many there are. */
const MAX_LISTED = 100;

/** The answer's `skipped` list (path, object, reason, whether it is still compared), when there is one. */
function listed(skipped: SkippedObject[]): { skipped?: object[]; skippedCount?: number } {
  if (skipped.length === 0) return {};
  const shown = skipped.slice(0, MAX_LISTED).map(skippedEntry);
  return { skipped: shown, ...(skipped.length > MAX_LISTED ? { skippedCount: skipped.length } : {}) };
}

/** When the latest snapshot sorts: its capture, or its receipt when its clock was ahead. */
function latestTime(latest: { capturedAt: string; receivedAt: string }): string {
  return Date.parse(latest.capturedAt) > Date.parse(latest.receivedAt)
    ? `received ${latest.receivedAt}; its capturedAt ${latest.capturedAt} was ahead of the App's clock`
    : latest.capturedAt;
}

/** The document must be for the repository and cluster its token was checked for. */
function identityProblems(
  snapshot: { repository: string; cluster: string },
  who: { repository: string; cluster: string },
): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  if (snapshot.repository.toLowerCase() !== who.repository.toLowerCase())
    problems.push({
      path: 'repository',
      message: `is ${snapshot.repository}, but X-Driftback-Repository and the token are for ${who.repository}: send the snapshot with its own repository's headers and token`,
    });
  if (snapshot.cluster !== who.cluster)
    problems.push({
      path: 'cluster',
      message: `is ${snapshot.cluster}, but X-Driftback-Cluster and the token are for ${who.cluster}: send the snapshot with its own cluster's headers and token`,
    });
  return problems;
}

/**
 * Answers without reading the body. The connection is closed after the answer, so a client that
 * keeps sending is cut off instead of the App draining what it refused.
 */
function refuseUnread(res: ServerResponse, refusal: Refusal): true {
  res.setHeader('connection', 'close');
  const headers: Record<string, string> =
    refusal.retryAfterSeconds !== undefined ? { 'retry-after': String(refusal.retryAfterSeconds) } : {};
  if (refusal.status === 401) headers['www-authenticate'] = 'Bearer realm="driftback"';
  return sendError(res, refusal.status, refusal.message, {}, headers);
}

function refuseBody(
  deps: UploadDeps,
  res: ServerResponse,
  body: { type: 'too-large'; limit: number } | { type: 'bad-encoding'; message: string },
): true {
  const count = deps.onSnapshot ?? (() => undefined);
  if (body.type === 'too-large') {
    count('too-large');
    res.setHeader('connection', 'close');
    return sendError(
      res,
      413,
      `snapshot larger than ${body.limit} bytes decompressed (MAX_SNAPSHOT_BYTES): narrow the agent's scope with DRIFTBACK_NAMESPACES or DRIFTBACK_EXCLUDE, or raise the limit`,
    );
  }
  count('invalid');
  return sendError(res, 400, body.message, { problems: [{ path: '(body)', message: body.message }] });
}

async function handleStatus(
  deps: UploadDeps,
  req: IncomingMessage,
  res: ServerResponse,
  repository: string,
  cluster: string,
): Promise<true> {
  if (!deps.tokenSecret) return sendError(res, 503, 'the App has no DRIFTBACK_TOKEN_SECRET set');
  const who = authenticate(
    { tokenSecret: deps.tokenSecret, failures: deps.failures, proxyHops: deps.proxyHops },
    req,
    deps.now().getTime(),
    { repository, cluster },
  );
  if (who.type !== 'ok') {
    const message =
      who.type === 'refused'
        ? `send the upload token of repository ${repository} cluster ${cluster} as Authorization: Bearer <token>`
        : who.message;
    return sendError(
      res,
      who.status,
      message,
      {},
      who.type === 'blocked' ? { 'retry-after': String(who.retryAfterSeconds) } : {},
    );
  }
  try {
    const latest = await deps.store.latestSnapshotMeta(repository, cluster);
    return sendJson(res, 200, {
      repository,
      cluster,
      latest: latest
        ? {
            id: latest.id,
            capturedAt: latest.capturedAt,
            receivedAt: latest.receivedAt,
            items: latest.items,
            digest: latest.digest,
          }
        : null,
    });
  } catch (error) {
    deps.log.error({ err: error, repository, cluster }, 'could not read cluster status');
    return sendError(res, 503, 'the status could not be read right now (database unavailable): retry later');
  }
}
