// Sets a cluster's gauges from its state after a reconcile (labels: repository, cluster, cause).
import type { Metrics } from '../metrics.js';
import type { ClusterState } from './state.js';

const CAUSES = ['human', 'controller', 'applier', 'unknown'] as const;

export function recordClusterMetrics(metrics: Metrics, repository: string, cluster: string, state: ClusterState, now: Date): void {
  const labels = { repository: repository.toLowerCase(), cluster };
  if (state.snapshot) metrics.snapshotAge.set(labels, Math.max(0, (now.getTime() - Date.parse(state.snapshot.capturedAt)) / 1000));
  if (state.drift) for (const cause of CAUSES) metrics.driftResources.set({ ...labels, cause }, state.drift.byCause[cause] ?? 0);
  if (state.conflicts) metrics.conflicts.set(labels, state.conflicts.length);
  if (state.health) {
    metrics.degraded.set(labels, state.health.degraded);
    metrics.suspended.set(labels, state.health.suspended);
  }
}
