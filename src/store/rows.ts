// Row shapes shared by both SQL implementations, and their mapping to the public types.
import type { StoredSnapshotMeta } from './types.js';

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
