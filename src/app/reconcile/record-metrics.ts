// A cluster's gauges after a reconcile, from the state it recorded (the same writers the dashboard
// uses, so the series are the same).
import { recordClusterFigures, recordSnapshotAges, type Metrics } from '../metrics.js';
import type { ClusterState } from './state.js';

export function recordClusterMetrics(
  metrics: Metrics, repository: string, cluster: string, state: ClusterState, now: Date,
): void {
  if (state.snapshot) {
    recordSnapshotAges(metrics, [{ repository, cluster, capturedAt: state.snapshot.capturedAt }], now);
  }
  if (!state.drift || !state.conflicts || !state.health) return;
  recordClusterFigures(metrics, repository, cluster, {
    degraded: state.health.degraded, suspended: state.health.suspended,
    conflicts: state.conflicts.length, driftByCause: state.drift.byCause,
  });
}
