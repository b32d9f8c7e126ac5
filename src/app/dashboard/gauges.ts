// Keeps the per-cluster gauges of /metrics current: figures after each dashboard refresh, snapshot
// ages at scrape time (an age is only right when it is read).
import type { Store } from '../../store/types.js';
import type { Metrics } from '../metrics.js';
import type { ClusterFigures } from './cluster-view.js';

const CAUSES = ['human', 'controller', 'unknown'] as const;

export function setClusterGauges(metrics: Metrics, repository: string, cluster: string, figures: ClusterFigures): void {
  const labels = { repository, cluster };
  metrics.degraded.set(labels, figures.degraded);
  metrics.suspended.set(labels, figures.suspended);
  metrics.conflicts.set(labels, figures.conflicts);
  for (const cause of CAUSES) metrics.driftResources.set({ ...labels, cause }, figures.driftByCause[cause] ?? 0);
}

/** For createMetricsHandler's beforeScrape: every cluster's age from its latest snapshot. */
export function snapshotAgeRefresher(metrics: Metrics, store: Pick<Store, 'listClusters'>, now: () => Date): () => Promise<void> {
  return async () => {
    const at = now().getTime();
    for (const meta of await store.listClusters()) {
      const captured = Date.parse(meta.capturedAt);
      if (Number.isFinite(captured)) metrics.snapshotAge.set({ repository: meta.repository, cluster: meta.cluster }, Math.max(0, (at - captured) / 1000));
    }
  };
}
