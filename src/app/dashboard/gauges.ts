// Keeps the per-cluster gauges of /metrics current: figures after each dashboard refresh, snapshot
// ages at scrape time (an age is only right when it is read).
import type { Store } from '../../store/types.js';
import { readClusterState } from '../reconcile/state.js';
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

/**
 * For createMetricsHandler's beforeScrape: every cluster's age from its latest snapshot, and how long
 * each of its sources has been suspended (as of the last reconcile's suspensions; a resumed source's
 * series is dropped).
 */
export function snapshotAgeRefresher(
  metrics: Metrics, store: Pick<Store, 'listClusters' | 'getState'>, now: () => Date,
): () => Promise<void> {
  return async () => {
    const at = now().getTime();
    metrics.suspendedSeconds.reset();
    for (const meta of await store.listClusters()) {
      const labels = { repository: meta.repository, cluster: meta.cluster };
      const captured = Date.parse(meta.capturedAt);
      if (Number.isFinite(captured)) metrics.snapshotAge.set(labels, Math.max(0, (at - captured) / 1000));
      const state = await readClusterState(store as Store, meta.repository, meta.cluster);
      for (const suspended of state.suspensions ?? []) {
        const since = Date.parse(suspended.since);
        if (!Number.isFinite(since)) continue;
        metrics.suspendedSeconds.set({ ...labels, source: suspended.suspension.id }, Math.max(0, (at - since) / 1000));
      }
    }
  };
}
