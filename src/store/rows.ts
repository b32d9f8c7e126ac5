// Row shapes shared by both SQL implementations, and their mapping to the public types.
import type { ItemAction, ItemDecision, StoredSnapshotMeta } from './types.js';

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
