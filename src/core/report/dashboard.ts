// The `driftback dashboard` issue body. The view model is what the App gathers per cluster; the
// renderer only formats it (ages are computed from `now`, passed in).
import type { UndoneRow } from './undo-rows.js';
import { createHash } from 'node:crypto';
import type { SkippedObject } from '../k8s/object-names.js';
import {
  counted,
  displayKey,
  driftAmount,
  keyId,
  showTime,
  type PathSegment,
  type ReconcilerState,
  type ResourceKey,
  type SourceProblem,
} from '../model/index.js';
import { AUTOSCALED_PATH, fieldPath } from '../k8s/index.js';
import { formatAge, secondsBetween } from '../plan/age.js';
import { hpaReplicasMessage } from '../plan/index.js';
import { parseDuration } from '../config/index.js';
import { GITHUB_BODY_LIMIT, MARKER_RESERVE } from './budget.js';
import { renderDocument, type TemplateOverrides } from './template-engine.js';
import type { DashboardClusterModel, DashboardModel, UndoGroupModel } from './models/index.js';

export interface DashboardCluster {
  name: string;
  /** When the latest snapshot was taken; undefined when none arrived yet. */
  lastSnapshotAt?: string;
  staleAfter: string;
  resourcesInScope: number;
  /** Drifted resources by cause (human, controller, unknown). */
  driftByCause: Partial<Record<'human' | 'controller' | 'unknown', number>>;
  /** Drifted objects and their live changes by cause. Default: read from `driftByCause`. */
  drift?: { objects: number; changes: Record<string, number> };
  /** One line per GitOps source (`flux-system/apps: 1 object, 4 live changes`), from the last reconcile. Default: none. */
  sources?: string[];
  /** What the sources' render could not check or does not support, one line each. Default: none. */
  notChecked?: string[];
  /** `path` is the JSON pointer; `segments` (keyed items by key), when known, name list items by key. */
  conflicts: Array<{ key: ResourceKey; path: string; segments?: PathSegment[]; manager: string }>;
  ignored: Array<{ reason: string; count: number }>;
  /** Drift reported and never codified (imperative actions, autoscaled replicas, hand changes on chart output). */
  reported?: Array<{
    key: ResourceKey;
    path?: string;
    segments?: PathSegment[];
    reason: string;
    manager?: string;
    time?: string;
  }>;
  /** Security-relevant drift waiting for a person's decision; `segments` name keyed list items by key. Default: none. */
  risky?: Array<{
    key: ResourceKey;
    path?: string;
    segments?: PathSegment[];
    manager?: string;
    time?: string;
    risk: Array<{ code: string; why: string }>;
  }>;
  degraded: Array<{ key: ResourceKey; message?: string }>;
  /** Workloads whose manifest declares replicas while an HPA (`namespace/name`) targets them. Default: none. */
  autoscaledReplicas?: Array<{ key: ResourceKey; hpa: string; file?: string; line?: number }>;
  /** Reconcilers (Flux Kustomization/HelmRelease, Argo CD Application) in the snapshot. */
  reconcilers: Array<{ state: ReconcilerState; notReconcilingReason?: string }>;
  /**
   * Suspensions as the last reconcile recorded them (who, since, emergency PR); when absent, the
   * suspended reconcilers of the snapshot are listed instead.
   */
  suspensions?: Array<{ resource: string; since: string; who?: string; pullRequest?: number }>;
  openPullRequests: Array<{ number: number; title?: string }>;
  /** Live objects of the latest snapshot whose identity is at fault: listed, never written as files. */
  skipped?: SkippedObject[];
  /** People's changes the controller is about to undo, as the last reconcile grouped them. Default: none. */
  undo?: UndoGroupModel[];
  /** People's changes a controller undid since (about when: `at`; `exact` when its own write says). Default: none. */
  undone?: UndoneRow[];
  /** Decisions made with comment commands on the cluster's drift pull requests, oldest first. Default: none. */
  decisions?: DashboardDecision[];
}

/** A decision made with `/driftback ignore` or `/driftback allow`, as the store keeps it. */
export interface DashboardDecision {
  action: 'ignore' | 'allow';
  /** `Deployment/shop/cart`; `field` as people read it ('' = the whole object). */
  object: string;
  field: string;
  reason: string;
  by: string;
  decidedAt: string;
  pullRequest: number;
}

/** The dashboard lists at most this many decisions per cluster: the newest; `/driftback explain` shows the rest. */
export const DECISIONS_SHOWN = 20;

export interface DashboardView {
  /** The moment the body is rendered (ISO 8601). */
  now: string;
  clusters: DashboardCluster[];
  configErrors: SourceProblem[];
}

function reconcilerName(state: ReconcilerState): string {
  const kind =
    state.kind === 'argocd-application'
      ? 'Application'
      : state.kind === 'flux-helmrelease'
        ? 'HelmRelease'
        : 'Kustomization';
  return `${kind}/${state.namespace}/${state.name}`;
}

function suspendedOf(cluster: DashboardCluster, now: string): DashboardClusterModel['suspended'] {
  if (!cluster.suspensions) {
    const suspended = cluster.reconcilers.filter((r) => r.state.suspended);
    return suspended.map((r) => ({
      resource: reconcilerName(r.state),
      ...(r.state.since ? { since: showTime(r.state.since, now) } : {}),
    }));
  }
  return cluster.suspensions.map((s) => {
    const age = secondsBetween(s.since, now);
    return {
      resource: s.resource,
      since: showTime(s.since, now),
      ...(age === undefined ? {} : { age: formatAge(age) }),
      ...(s.who ? { who: s.who } : {}),
      ...(s.pullRequest !== undefined ? { pullRequest: s.pullRequest } : {}),
    };
  });
}

function clusterView(cluster: DashboardCluster, now: string, max: number): DashboardClusterModel {
  const age = cluster.lastSnapshotAt ? secondsBetween(cluster.lastSnapshotAt, now) : undefined;
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const cap = <T>(list: T[]): T[] => list.slice(0, max);
  return {
    name: cluster.name,
    snapshotAge: age === undefined ? undefined : formatAge(age),
    capturedAt: cluster.lastSnapshotAt ? showTime(cluster.lastSnapshotAt, now) : undefined,
    stale: age !== undefined && age > staleAfter,
    staleAfter: cluster.staleAfter,
    resources: cluster.resourcesInScope,
    ...driftOf(cluster),
    pullRequests: cluster.openPullRequests,
    sources: cluster.sources ?? [],
    notChecked: cluster.notChecked ?? [],
    conflicts: cap(conflictsOf(cluster)),
    autoscaled: cap(autoscaledOf(cluster)),
    ignored: cluster.ignored,
    reported: cap(reportedOf(cluster, now)),
    ignoredTotal: cluster.ignored.reduce((n, i) => n + i.count, 0),
    ...decisionsOf(cluster, now, Math.min(max, DECISIONS_SHOWN)),
    degraded: cap(cluster.degraded.map((d) => ({ resource: displayKey(d.key), message: d.message }))),
    suspended: cap(suspendedOf(cluster, now)),
    skipped: cap(
      (cluster.skipped ?? []).map((o) => ({ item: o.item, kind: o.id.kind, message: o.message, compared: o.compared })),
    ),
    undo: cluster.undo ?? [],
    undone: cap(undoneOf(cluster)),
    notReconciling: cap(
      cluster.reconcilers
        .filter((r) => r.notReconcilingReason && !r.state.suspended)
        .map((r) => ({ resource: reconcilerName(r.state), reason: r.notReconcilingReason })),
    ),
    outOfSync: cap(outOfSyncOf(cluster)),
  };
}

/** The latest decision on each object and field, newest first (a decision per live value would repeat an item). */
function decisionsOf(
  cluster: DashboardCluster,
  now: string,
  max: number,
): Pick<DashboardClusterModel, 'decisions' | 'decisionsOmitted' | 'decisionsTotal'> {
  const latest = new Map<string, DashboardDecision>();
  for (const decision of cluster.decisions ?? []) {
    const item = decision.field ? `${decision.object} ${decision.field}` : decision.object;
    latest.delete(item);
    latest.set(item, decision);
  }
  const newest = [...latest].reverse();
  return {
    decisions: newest.slice(0, max).map(([item, d]) => ({
      verb: d.action === 'ignore' ? 'ignored' : 'allowed',
      item,
      by: d.by,
      when: showTime(d.decidedAt, now),
      reason: d.reason,
      pullRequest: d.pullRequest,
    })),
    decisionsOmitted: Math.max(0, newest.length - max),
    decisionsTotal: newest.length,
  };
}

/** Conflicts on the fields Git declares; replicas an HPA fights over are listed with the fix instead (once). */
function conflictsOf(cluster: DashboardCluster): DashboardClusterModel['conflicts'] {
  const autoscaled = new Set((cluster.autoscaledReplicas ?? []).map((a) => keyId(a.key)));
  const listed = cluster.conflicts.filter((c) => !(c.path === AUTOSCALED_PATH && autoscaled.has(keyId(c.key))));
  return listed.map((c) => ({
    resource: displayKey(c.key),
    field: fieldPath(c.segments?.length ? c.segments : c.path, c.key),
    pointer: c.path,
    manager: c.manager,
  }));
}

/** An HPA and Git both setting a workload's replicas: where Git declares them, and the plan's fix text. */
function autoscaledOf(cluster: DashboardCluster): DashboardClusterModel['autoscaled'] {
  return (cluster.autoscaledReplicas ?? []).map((a) => ({
    resource: displayKey(a.key),
    ...(a.file ? { where: `${a.file}${a.line ? `:${a.line}` : ''}` } : {}),
    message: hpaReplicasMessage(a.hpa),
  }));
}

function reportedOf(cluster: DashboardCluster, now: string): DashboardClusterModel['reported'] {
  return (cluster.reported ?? []).map((r) => ({
    resource: displayKey(r.key),
    field: r.path ? fieldPath(r.segments?.length ? r.segments : r.path, r.key) : '',
    pointer: r.path ?? '',
    who: r.manager ?? '',
    when: r.time ? showTime(r.time, now) : '',
    reason: r.reason,
  }));
}

/** Changes a controller took back, with who made them and when it undid them (shown at the snapshot's day). */
function undoneOf(cluster: DashboardCluster): DashboardClusterModel['undone'] {
  return (cluster.undone ?? []).map((u) => ({
    resource: displayKey(u.key),
    field: fieldPath(u.segments?.length ? u.segments : u.path, u.key),
    who: u.manager ?? 'not recorded',
    when: u.time ? showTime(u.time, cluster.lastSnapshotAt) : 'not recorded',
    by: u.by,
    at: showTime(u.at, cluster.lastSnapshotAt),
    exact: u.exact,
  }));
}

/**
 * Argo CD Applications reporting OutOfSync and nothing worse: Argo CD sees the drift listed here (a
 * hand change, often), which is not a failure to reconcile.
 */
function outOfSyncOf(cluster: DashboardCluster): string[] {
  return cluster.reconcilers
    .filter((r) => r.state.outOfSync && !r.state.suspended && !r.notReconcilingReason)
    .map((r) => reconcilerName(r.state));
}

/** Drift in the unit every output uses, with its causes (`1 object, 4 live changes` and `4 human`). */
function driftOf(cluster: DashboardCluster): Pick<DashboardClusterModel, 'drift'> {
  const byCause = cluster.drift?.changes ?? cluster.driftByCause;
  const causes = (['human', 'controller', 'unknown'] as const).filter((cause) => byCause[cause]);
  if (causes.length === 0) return {};
  const changes = causes.reduce((n, cause) => n + byCause[cause]!, 0);
  const objects = cluster.drift?.objects ?? Math.max(...causes.map((cause) => cluster.driftByCause[cause] ?? 0));
  const amount = driftAmount(Math.max(1, objects), changes);
  return { drift: { amount, causes: causes.map((cause) => `${byCause[cause]} ${cause}`).join(', ') } };
}

/** A cluster's one status line atop the dashboard (its open drift pull requests follow it). */
export function clusterStatus(cluster: DashboardClusterModel): string {
  if (cluster.snapshotAge === undefined) return '⚠️ unknown (no snapshot yet)';
  const drift = cluster.drift ? [cluster.drift.amount] : [];
  const conflicts = cluster.conflicts.length + cluster.autoscaled.length;
  const problems = [
    ...(conflicts ? [counted(conflicts, 'conflict')] : []),
    ...(cluster.suspended.length ? [`${cluster.suspended.length} suspended`] : []),
    ...(cluster.notReconciling.length ? [`${cluster.notReconciling.length} not reconciling`] : []),
    ...(cluster.degraded.length ? [counted(cluster.degraded.length, 'degraded resource')] : []),
  ];
  const state = [
    drift.length ? `drift: ${drift.join(', ')}` : 'no drift',
    ...(problems.length ? [problems.join(', ')] : []),
  ].join('; ');
  if (cluster.stale) return `⚠️ not reporting; as of its last snapshot (${cluster.capturedAt}): ${state}`;
  return `${drift.length || problems.length ? '⚠️' : '✅'} ${state}`;
}

/** Every cluster's risky drift, for the section atop the dashboard. */
function riskyOf(clusters: readonly DashboardCluster[], now: string): DashboardModel['risky'] {
  return clusters.flatMap((cluster) =>
    (cluster.risky ?? []).map((r) => ({
      cluster: cluster.name,
      resource: displayKey(r.key),
      field: r.path ? fieldPath(r.segments?.length ? r.segments : r.path, r.key) : '',
      pointer: r.path ?? '',
      who: r.manager ?? 'not recorded',
      when: r.time ? showTime(r.time, now) : 'not recorded',
      ...(r.time ? { time: r.time } : {}),
      codes: [...new Set(r.risk.map((entry) => entry.code))].join(', '),
      risks: r.risk.map(({ code, why }) => ({ code, why })),
    })),
  );
}

export function dashboardModel(view: DashboardView, max = Infinity): DashboardModel {
  const configErrors = view.configErrors.map((e) => ({
    where: `${e.file}${e.line ? `:${e.line}` : ''}`,
    message: `${e.field ? e.field + ': ' : ''}${e.message}`,
  }));
  const risky = riskyOf(view.clusters, view.now);
  return {
    risky: risky.slice(0, max),
    riskyOmitted: Math.max(0, risky.length - max),
    configErrors,
    clusters: view.clusters
      .map((c) => clusterView(c, view.now, max))
      .map((cluster) => ({ ...cluster, status: clusterStatus(cluster) })),
  };
}

/**
 * What the dashboard says, without what only the clock moves (ages, and the capture time of a
 * snapshot that arrived on time): the same digest means a rewrite would only refresh times, which
 * would cost a GitHub write per snapshot. The built-in template shows none of those values.
 */
export function dashboardDigest(view: DashboardView): string {
  const model = dashboardModel(view);
  const clusters = model.clusters.map(({ snapshotAge: _age, capturedAt, suspended, ...rest }) => ({
    ...rest,
    ...(rest.stale ? { capturedAt } : {}),
    suspended: suspended.map(({ age: _since, ...suspension }) => suspension),
  }));
  return createHash('sha256')
    .update(JSON.stringify({ ...model, clusters }))
    .digest('hex');
}

export function renderDashboard(view: DashboardView, options: { templates?: TemplateOverrides } = {}): string {
  const levels = [Infinity, 50, 5, 0].map((max) => () => dashboardModel(view, max));
  return renderDocument('dashboard', levels, GITHUB_BODY_LIMIT - MARKER_RESERVE, options.templates);
}

export const DASHBOARD_TITLE = 'driftback dashboard';
