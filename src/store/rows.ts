// Row shapes shared by both SQL implementations, and their mapping to the public types.
import type { Snapshot } from '../core/model/index.js';
import { compressSnapshot, orderInstant, snapshotIdFor } from './snapshot-codec.js';
import type { ItemAction, ItemDecision, PutSnapshotResult, StoredSnapshotMeta } from './types.js';

export interface SnapshotMetaRow {
  id: string;
  repository: string;
  cluster: string;
  captured_at: string;
  received_at: string;
  digest: string;
  items: number;
  bytes: number;
}

export const SNAPSHOT_META_COLUMNS = 'id, repository, cluster, captured_at, received_at, digest, items, bytes';

export function metaFromRow(row: SnapshotMetaRow): StoredSnapshotMeta {
  return {
    id: row.id,
    repository: row.repository,
    cluster: row.cluster,
    capturedAt: row.captured_at,
    receivedAt: row.received_at,
    digest: row.digest,
    items: Number(row.items),
    bytes: Number(row.bytes),
  };
}

/** A snapshot on its way into the table: when it counts as taken, its compressed body, and its meta. */
export interface SnapshotInsert {
  capturedMs: number;
  body: Buffer;
  meta: StoredSnapshotMeta;
}

export async function snapshotInsert(
  snapshot: Snapshot,
  options: { digest: string; receivedAt: string; compressed?: Buffer },
): Promise<SnapshotInsert> {
  const { repository, cluster } = snapshot;
  const body = options.compressed ?? (await compressSnapshot(snapshot));
  return {
    capturedMs: orderInstant(snapshot.capturedAt, options.receivedAt),
    body,
    meta: {
      id: snapshotIdFor(repository, cluster, options.digest),
      repository,
      cluster,
      capturedAt: snapshot.capturedAt,
      receivedAt: options.receivedAt,
      digest: options.digest,
      items: snapshot.items.length,
      bytes: body.length,
    },
  };
}

export const SNAPSHOT_INSERT_COLUMNS =
  'id, repository, cluster, captured_at, captured_ms, received_at, digest, items, bytes, stale, body';

/** The values in SNAPSHOT_INSERT_COLUMNS' order; `stale` as the database writes a boolean. */
export function snapshotInsertValues({ meta, capturedMs, body }: SnapshotInsert, stale: boolean | number): unknown[] {
  const { id, repository, cluster, capturedAt, receivedAt, digest, items } = meta;
  return [id, repository, cluster, capturedAt, capturedMs, receivedAt, digest, items, body.length, stale, body];
}

/**
 * A snapshot taken before the newest stored one is stale: stored, but kept out of the latest state.
 * `latest` is the newest stored row of the cluster before this one.
 */
export function putOutcome(
  insert: SnapshotInsert,
  latest: SnapshotMetaRow | undefined,
): { stale: boolean; result: PutSnapshotResult } {
  const stale = latest !== undefined && insert.capturedMs < orderInstant(latest.captured_at, latest.received_at);
  const { meta } = insert;
  return { stale, result: stale ? { type: 'stale', meta, latest: metaFromRow(latest) } : { type: 'stored', meta } };
}

export interface ItemDecisionRow {
  repository: string;
  cluster: string;
  fingerprint: string;
  action: string;
  object: string;
  field: string;
  reason: string;
  decided_by: string;
  decided_at: string;
  pull_request: number | string;
  comment_id: number | string;
}

/** Columns in insert order; the values of a decision in the same order. */
export const ITEM_DECISION_COLUMNS =
  'repository, cluster, fingerprint, action, object, field, reason, decided_by, decided_at, pull_request, comment_id';

export function itemDecisionValues(d: ItemDecision): Array<string | number> {
  return [
    d.repository,
    d.cluster,
    d.fingerprint,
    d.action,
    d.object,
    d.field,
    d.reason,
    d.by,
    d.decidedAt,
    d.pullRequest,
    d.commentId,
  ];
}

/** A later decision on the same item replaces the earlier one. */
export const ITEM_DECISION_UPSERT = `ON CONFLICT (repository, cluster, fingerprint) DO UPDATE SET action = excluded.action,
  object = excluded.object, field = excluded.field, reason = excluded.reason, decided_by = excluded.decided_by,
  decided_at = excluded.decided_at, pull_request = excluded.pull_request, comment_id = excluded.comment_id`;

export function itemDecisionFromRow(row: ItemDecisionRow): ItemDecision {
  return {
    repository: row.repository,
    cluster: row.cluster,
    fingerprint: row.fingerprint,
    action: row.action as ItemAction,
    object: row.object,
    field: row.field,
    reason: row.reason,
    by: row.decided_by,
    decidedAt: row.decided_at,
    pullRequest: Number(row.pull_request),
    commentId: Number(row.comment_id),
  };
}
