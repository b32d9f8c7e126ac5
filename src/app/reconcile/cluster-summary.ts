// What the dashboard and /metrics show for a cluster after a reconcile: drift by cause, conflicts,
// ignored counts with their reasons, degraded and suspended resources, reported drift.
import { neverCodified } from '../../core/codify/index.js';
import { displayKey, type DiffResult } from '../../core/model/index.js';
import type { Evaluation } from './evaluate.js';
import type { ClusterState } from './state.js';

const REPORTED_KEPT = 50;

export function driftByCause(drift: DiffResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const resource of drift.resources) {
    const causes = new Set(resource.changes.map((change) => change.cause));
    if (resource.status === 'extra') causes.add(resource.createdBy?.cause ?? 'unknown');
    for (const cause of causes) counts[cause] = (counts[cause] ?? 0) + 1;
  }
  return counts;
}

export function summarizeCluster(evaluation: Extract<Evaluation, { type: 'evaluated' }>): Pick<ClusterState, 'drift' | 'conflicts' | 'ignored' | 'health'> {
  const { diff, drift } = evaluation;
  const ignored = new Map<string, number>();
  for (const resource of diff.resources) for (const change of resource.ignored) ignored.set(change.ignored?.reason ?? '', (ignored.get(change.ignored?.reason ?? '') ?? 0) + 1);
  // What the pull requests report, and what is never codified even when no pull request opens.
  const entries = [...evaluation.groups.flatMap((group) => group.codify.reported), ...neverCodified(diff)];
  const seen = new Set<string>();
  const reported = entries.flatMap((entry) => {
    const row = {
      resource: displayKey(entry.key), ...(entry.change ? { field: entry.change.path } : {}), reason: entry.reason,
      ...(entry.change?.manager ? { manager: entry.change.manager } : {}),
      ...(entry.change?.time ? { time: entry.change.time } : {}),
    };
    const id = `${row.resource}\u0000${row.field ?? ''}`;
    if (seen.has(id)) return [];
    seen.add(id);
    return [row];
  });
  return {
    drift: {
      byCause: driftByCause(drift),
      resources: drift.resources.filter((resource) => resource.status === 'extra' || resource.changes.length > 0).length,
      pending: evaluation.pending,
      declined: evaluation.declined,
      reported: reported.slice(0, REPORTED_KEPT),
    },
    conflicts: diff.resources.flatMap((resource) => resource.conflicts.map((conflict) => ({
      resource: displayKey(resource.key), path: conflict.path, segments: conflict.segments, manager: conflict.manager, fix: conflict.fix,
    }))),
    ignored: [...ignored].map(([reason, count]) => ({ reason, count })),
    health: {
      degraded: diff.resources.filter((resource) => resource.health?.status === 'Degraded').length,
      suspended: diff.resources.filter((resource) => resource.health?.status === 'Suspended').length,
    },
  };
}
