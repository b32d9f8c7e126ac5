// How a snapshot is kept at rest: gzip of its JSON (snapshots are large and very repetitive), and
// an id derived from (repository, cluster, digest) so that an upload retried after a timeout, or
// raced by a second replica, lands on the same row without a lookup first.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Snapshot } from '../core/model/index.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export async function compressSnapshot(snapshot: Snapshot): Promise<Buffer> {
  return gzipAsync(Buffer.from(JSON.stringify(snapshot), 'utf8'));
}

export async function decompressSnapshot(body: Buffer): Promise<Snapshot> {
  const text = (await gunzipAsync(body)).toString('utf8');
  const snapshot = JSON.parse(text) as Snapshot;
  // Uploads are stored as the agent sent them; fill what validation defaults.
  snapshot.scope.errors ??= [];
  return snapshot;
}

export function snapshotIdFor(repository: string, cluster: string, digest: string): string {
  const hash = createHash('sha256').update(`${repository}\0${cluster}\0${digest}`).digest('hex');
  return `snp_${hash.slice(0, 26)}`;
}

/** Milliseconds since the epoch; capturedAt carries an offset, so string order is not time order. */
export function instantOf(timestamp: string): number {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms))
    throw new Error(`capturedAt "${timestamp}" is not a date-time; expected e.g. 2026-12-02T03:05:00Z`);
  return ms;
}

/**
 * Where a snapshot sorts among its cluster's: when it was captured, but never later than when the
 * App received it. A clock ahead (within the skew allowance) would otherwise make every honest upload
 * after it look older, and be refused, until real time caught up with it; such a snapshot is ordered
 * by its receipt instead.
 */
export function orderInstant(capturedAt: string, receivedAt: string): number {
  return Math.min(instantOf(capturedAt), instantOf(receivedAt));
}
