// What the dashboard and /metrics show for a cluster after a reconcile: drift by cause, conflicts,
// ignored counts with their reasons, degraded and suspended resources, reported drift.
import { displayKey, sourceReportLine, type DiffResult } from '../../core/model/index.js';
import type { SourceNote } from '../../core/sources/index.js';
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

/** The notes people act on, one line each, at most REPORTED_KEPT (a source rendering an object twice is its own business). */
function notChecked(notes: readonly SourceNote[]): string[] {
  return notes.filter((note) => note.code !== 'rendered-twice').map((note) => `${note.source}: ${note.message}`).slice(0, REPORTED_KEPT);
}

export function summarizeCluster(evaluation: Extract<Evaluation, { type: 'evaluated' }>): Pick<ClusterState, 'drift' | 'conflicts' | 'ignored' | 'health'> {
  const { diff, drift } = evaluation;
  const ignored = new Map<string, number>();
  for (const resource of diff.resources) for (const change of resource.ignored) ignored.set(change.ignored?.reason ?? '', (ignored.get(change.ignored?.reason ?? '') ?? 0) + 1);
  const reported = evaluation.groups.flatMap((group) => group.codify.reported).map((entry) => ({ resource: displayKey(entry.key), ...(entry.change ? { field: entry.change.path } : {}), reason: entry.reason }));
  return {
    drift: {
      byCause: driftByCause(drift),
      resources: drift.resources.filter((resource) => resource.status === 'extra' || resource.changes.length > 0).length,
      pending: evaluation.pending,
      declined: evaluation.declined,
      reported: reported.slice(0, REPORTED_KEPT),
      ...(evaluation.sources.some((source) => source.controller !== 'kubectl') ? { sources: evaluation.sources.map(sourceReportLine) } : {}),
      ...(evaluation.notes.length > 0 ? { notChecked: notChecked(evaluation.notes) } : {}),
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
