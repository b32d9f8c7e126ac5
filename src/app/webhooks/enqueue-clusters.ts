// Enqueues a reconcile for every cluster of a repository that already has a snapshot: a push or
// a new installation changes the desired side, and only a stored snapshot gives the live side.
import type { JobQueue, Store } from '../../store/types.js';
import { RECONCILE_QUEUE, reconcileKey } from '../ingest/upload-route.js';
import type { ReconcileJob } from '../../store/types.js';

export async function enqueueClustersOf(store: Store, queue: JobQueue, repository: string, reason: ReconcileJob['reason']): Promise<string[]> {
  const clusters = (await store.listClusters()).filter((meta) => meta.repository.toLowerCase() === repository.toLowerCase());
  for (const meta of clusters) {
    await queue.enqueue(RECONCILE_QUEUE, reconcileKey(meta.repository, meta.cluster), { repository: meta.repository, cluster: meta.cluster, snapshotId: meta.id, reason });
  }
  return clusters.map((meta) => meta.cluster);
}
