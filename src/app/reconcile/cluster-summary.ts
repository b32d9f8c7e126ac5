// What the dashboard and /metrics show for a cluster after a reconcile: drift by cause, conflicts,
// ignored counts with their reasons, degraded and suspended resources, reported drift.
import type { DiffResult, ResourceKey } from '../../core/model/index.js';
import type { Evaluation } from './evaluate.js';
import type { ClusterState } from './state.js';

/** The key's own fields only: what is stored is exactly a ResourceKey. */
function keyFields(key: ResourceKey): ResourceKey {
  return { group: key.group, kind: key.kind, namespace: key.namespace, name: key.name };
}

export function driftByCause(drift: DiffResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const resource of drift.resources) {
    const causes = new Set(resource.changes.map((change) => change.cause));
    if (resource.status === 'extra') causes.add(resource.createdBy?.cause ?? 'unknown');
    for (const cause of causes) counts[cause] = (counts[cause] ?? 0) + 1;
  }
  return counts;
}

export function summarizeCluster(evaluation: Extract<Evaluation, { type: 'evaluated' }>): Pick<ClusterState, 'drift' | 'conflicts' | 'ignored'> {
  const { diff, drift } = evaluation;
  const ignored = new Map<string, number>();
  for (const resource of diff.resources) for (const change of resource.ignored) ignored.set(change.ignored?.reason ?? '', (ignored.get(change.ignored?.reason ?? '') ?? 0) + 1);
  return {
    drift: {
      byCause: driftByCause(drift),
      pending: evaluation.pending,
    },
    conflicts: diff.resources.flatMap((resource) => resource.conflicts.map((conflict) => ({
      resource: keyFields(resource.key), path: conflict.path, segments: conflict.segments, manager: conflict.manager,
    }))),
    ignored: [...ignored].map(([reason, count]) => ({ reason, count })),
  };
}
