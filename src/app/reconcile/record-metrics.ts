// A cluster's gauges after a reconcile: the figures the dashboard shows, from the same snapshot and
// state, through the same writers, so a reconcile and the next watch never disagree.
import type { ClusterConfig } from '../../core/config/index.js';
import type { KubeObject } from '../../core/model/index.js';
import { dashboardCluster } from '../../core/decide/index.js';
import { recordClusterFigures, recordSnapshotAges, type Metrics } from '../metrics.js';
import type { ClusterState } from './state.js';

export function recordClusterMetrics(
  metrics: Metrics,
  repository: string,
  cluster: ClusterConfig,
  snapshot: { capturedAt: string; items: KubeObject[] },
  state: ClusterState,
  now: Date,
): void {
  recordSnapshotAges(metrics, [{ repository, cluster: cluster.name, capturedAt: snapshot.capturedAt }], now);
  const { figures } = dashboardCluster(cluster, snapshot, state, now.toISOString());
  recordClusterFigures(metrics, repository, cluster.name, figures);
}
