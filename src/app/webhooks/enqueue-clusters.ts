// Enqueues a reconcile for every cluster of a repository that already has a snapshot: a push or
// a new installation changes the desired side, and only a stored snapshot gives the live side.
import type { Store } from '../../store/types.js';
import { RECONCILE_QUEUE, reconcileKey, type JobQueue, type ReconcileJob } from '../queue/jobs.js';

export async function enqueueClustersOf(
  store: Store,
  queue: JobQueue,
  repository: string,
  reason: ReconcileJob['reason'],
): Promise<string[]> {
  const clusters = (await store.listClusters()).filter(
    (meta) => meta.repository.toLowerCase() === repository.toLowerCase(),
  );
  for (const meta of clusters) {
    const job: ReconcileJob = { repository: meta.repository, cluster: meta.cluster, snapshotId: meta.id, reason };
    await queue.enqueue(RECONCILE_QUEUE, reconcileKey(meta.repository, meta.cluster), { ...job });
  }
  return clusters.map((meta) => meta.cluster);
}
