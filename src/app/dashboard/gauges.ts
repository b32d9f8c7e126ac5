// Snapshot ages of /metrics are only right when read: refreshed at scrape time, from the store.
import type { Store } from '../../store/types.js';
import { recordSnapshotAges, type Metrics } from '../metrics.js';

/** For createMetricsHandler's beforeScrape: every cluster's age from its latest snapshot. */
export function snapshotAgeRefresher(
  metrics: Metrics, store: Pick<Store, 'listClusters'>, now: () => Date,
): () => Promise<void> {
  return async () => recordSnapshotAges(metrics, await store.listClusters(), now());
}
