// What the dashboard and /metrics show for a cluster after a reconcile: drift by cause, conflicts,
// ignored counts with their reasons, degraded and suspended resources, drift reported and never codified,
// per-source results.
import { driftTally } from '../../core/classify/index.js';
import { neverCodified } from '../../core/codify/index.js';
import { riskCounts, riskyDrift } from '../../core/risk/index.js';
import {
  keyId,
  sourceReportLine,
  type DiffResult,
  type KubeObject,
  type NotRenderedSource,
  type ResourceKey,
} from '../../core/model/index.js';
import { describeNotRendered, undoneSince, watchedChanges } from '../../core/pipeline/index.js';
import { notesBesideNotRendered, undoGroups } from '../../core/report/index.js';
import type { SourceNote } from '../../core/render/index.js';
import type { Evaluation } from './evaluate.js';
import type { ClusterState } from './state.js';

/** At most this many "not checked" lines are kept for the dashboard. */
const NOT_CHECKED_KEPT = 50;

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

/**
 * The notes people act on, one line each (a source rendering an object twice is its own business), and
 * the parts of the tree that were not rendered (a Helm chart, a remote base, a plugin).
 */
function notChecked(notes: readonly SourceNote[], notRendered: readonly NotRenderedSource[]): string[] {
  return [
    ...notesBesideNotRendered(notes, notRendered)
      .filter((note) => note.code !== 'rendered-twice')
      .map((note) => `${note.source}: ${note.message}`),
    ...notRendered.map(describeNotRendered),
  ].slice(0, NOT_CHECKED_KEPT);
}

export function summarizeCluster(
  evaluation: Extract<Evaluation, { type: 'evaluated' }>,
): Pick<ClusterState, 'drift' | 'conflicts' | 'ignored'> {
  const { diff, drift } = evaluation;
  const withSources = evaluation.sources.some((source) => source.controller !== 'kubectl');
  const reported = reportedOf(evaluation);
  const ignored = ignoredCounts(diff, reported);
  const unchecked = notChecked(evaluation.notes, diff.notRendered?.sources ?? []);
  const risky = riskyDrift(drift);
  const autoscaled = evaluation.autoscaledReplicas
    .slice(0, REPORTED_KEPT)
    .map(({ key, ...rest }) => ({ resource: keyFields(key), ...rest }));
  return {
    drift: {
      byCause: driftByCause(drift),
      ...driftTally(drift.resources),
      pending: evaluation.pending,
      ...(withSources ? { sources: evaluation.sources.map(sourceReportLine) } : {}),
      ...(unchecked.length > 0 ? { notChecked: unchecked } : {}),
      ...(reported.length ? { reported } : {}),
      ...(risky.length ? { risky: riskyRowsOf(risky), riskByCode: riskCounts(risky) } : {}),
      ...(autoscaled.length ? { autoscaledReplicas: autoscaled } : {}),
    },
    conflicts: diff.resources.flatMap((resource) =>
      resource.conflicts.map((conflict) => ({
        resource: keyFields(resource.key),
        path: conflict.path,
        segments: conflict.segments,
        manager: conflict.manager,
      })),
    ),
    ignored: [...ignored].map(([reason, count]) => ({ reason, count })),
  };
}

/** Ignored changes counted by reason, leaving out those listed as reported: each item is shown once. */
function ignoredCounts(
  diff: Extract<Evaluation, { type: 'evaluated' }>['diff'],
  reported: ReportedRows,
): Map<string, number> {
  const listed = new Set(reported.map((row) => `${keyId(row.resource)}\u0000${row.field ?? ''}`));
  const ignored = new Map<string, number>();
  for (const resource of diff.resources)
    for (const change of resource.ignored) {
      if (listed.has(`${keyId(resource.key)}\u0000${change.path}`)) continue;
      ignored.set(change.ignored?.reason ?? '', (ignored.get(change.ignored?.reason ?? '') ?? 0) + 1);
    }
  return ignored;
}

const REPORTED_KEPT = 50;

type RiskyRows = NonNullable<NonNullable<ClusterState['drift']>['risky']>;

/** Risky drift as the dashboard lists it: undecided risks only, the first REPORTED_KEPT items. */
function riskyRowsOf(items: ReturnType<typeof riskyDrift>): RiskyRows {
  return items.slice(0, REPORTED_KEPT).map((item) => ({
    resource: keyFields(item.key),
    ...(item.change ? { field: item.change.path, segments: item.change.segments } : {}),
    ...(item.manager ? { manager: item.manager } : {}),
    ...(item.time ? { time: item.time } : {}),
    risk: item.risk.filter((entry) => !entry.allowed).map(({ code, why }) => ({ code, why })),
  }));
}

/** What the pull requests report, and what is never codified even when no pull request opens (once each). */
type ReportedRows = NonNullable<NonNullable<ClusterState['drift']>['reported']>;

function reportedOf(evaluation: Extract<Evaluation, { type: 'evaluated' }>): ReportedRows {
  // Risky drift has its own list (risky), shown first.
  const entries = [
    ...evaluation.groups.flatMap((group) => group.codify.reported),
    ...neverCodified(evaluation.diff),
  ].filter((entry) => !entry.risk);
  const seen = new Set<string>();
  const rows: ReportedRows = [];
  for (const entry of entries) {
    const id = `${keyId(entry.key)}\u0000${entry.change?.path ?? ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    rows.push({
      resource: keyFields(entry.key),
      ...(entry.change ? { field: entry.change.path, segments: entry.change.segments } : {}),
      reason: entry.reason,
      ...((entry.manager ?? entry.change?.manager) ? { manager: entry.manager ?? entry.change?.manager } : {}),
      ...((entry.time ?? entry.change?.time) ? { time: entry.time ?? entry.change?.time } : {}),
    });
  }
  return rows.slice(0, REPORTED_KEPT);
}

/** How long a change undone by its controller stays on the dashboard after it was seen undone. */
const UNDONE_KEPT_MS = 24 * 3600 * 1000;

/**
 * People's changes their controller is about to undo (shown with the remedy), the changes followed to the
 * next snapshot, and those the previous one followed that this snapshot shows undone (kept for a day).
 */
export function followUndone(
  evaluation: Extract<Evaluation, { type: 'evaluated' }>,
  previous: ClusterState['drift'],
  snapshot: { items: readonly KubeObject[]; capturedAt: string },
): Pick<NonNullable<ClusterState['drift']>, 'undo' | 'watch' | 'undone'> {
  const { capturedAt, items } = snapshot;
  const undo = undoGroups(evaluation.drift, capturedAt, UNDO_ROWS_KEPT);
  const watch = watchedChanges(evaluation.diff);
  const seen = undoneSince(previous?.watch ?? [], items, capturedAt, evaluation.effectiveConfig);
  const since = Date.parse(capturedAt) - UNDONE_KEPT_MS;
  const undone = [...seen, ...(previous?.undone ?? []).filter((entry) => Date.parse(entry.at) >= since)];
  return {
    ...(undo.length ? { undo } : {}),
    ...(watch.length ? { watch } : {}),
    ...(undone.length ? { undone: undone.slice(0, REPORTED_KEPT) } : {}),
  };
}

const UNDO_ROWS_KEPT = 20;
