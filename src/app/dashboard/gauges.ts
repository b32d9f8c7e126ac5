// Snapshot ages and suspension ages of /metrics are only right when read: refreshed at scrape time,
// from the store (the suspensions as the last reconcile of each cluster recorded them), by kind.
import type { Store } from '../../store/types.js';
import { recordSnapshotAges, recordSuspendedSeconds, type Metrics } from '../metrics.js';

/** For createMetricsHandler's beforeScrape: every cluster's snapshot age and suspended sources. */
export function snapshotAgeRefresher(
  metrics: Metrics,
  store: Pick<Store, 'listClusters' | 'getState'>,
  now: () => Date,
): () => Promise<void> {
  return async () => {
    const clusters = await store.listClusters();
    const at = now();
    recordSnapshotAges(metrics, clusters, at);
    const suspended = [];
    for (const { repository, cluster } of clusters) {
      const state = (await store.getState({ kind: 'cluster', repository, cluster })) ?? {};
      for (const entry of state.suspensions ?? [])
        suspended.push({ repository, cluster, kind: entry.suspension.kind, since: entry.since });
    }
    recordSuspendedSeconds(metrics, suspended, at);
  };
}
