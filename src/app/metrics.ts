// Prometheus metrics (GET /metrics). Labels are bounded: a repository and cluster (only clusters that
// uploaded with their token, and at most MAX_CLUSTER_SERIES of them), a kind from a closed set,
// causes, risk codes, routes and statuses. Nothing a snapshot or a repository names (an object, a namespace, a
// configured cluster that never reported) becomes a label: per-object detail is in the logs and the
// dashboard, so one tenant cannot grow the series without bound.
//
// Every metric has one writer, below; the rest of the App calls these functions and never sets a
// metric itself. One label rule holds for all of them: `clusterLabels` (a repository is named in
// lower case, as GitHub compares names), so `Acme/Platform` and `acme/platform` are one series.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ClusterFigures } from '../core/decide/index.js';
import { RISK_CODES, type Cause } from '../core/model/index.js';

/** driftback_risky_drift, by risk code: a closed set of four, so the label stays bounded. */
function riskyDriftGauge(registry: Registry) {
  return new Gauge({
    name: 'driftback_risky_drift',
    help: "Security-relevant drift waiting for a person's decision, by risk code",
    labelNames: ['repository', 'cluster', 'code'] as const,
    registers: [registry],
  });
}

/** Clusters with per-cluster series in one App process; further clusters are counted, not exported. */
export const MAX_CLUSTER_SERIES = 2000;

/** What a suspension suspends (core/emergency `Suspension.kind`): a closed set, so a bounded label. */
export type SuspendedKind = 'flux-kustomization' | 'flux-helmrelease' | 'argocd-application' | 'object';

const CLUSTER = ['repository', 'cluster'] as const;

/** What each cluster's latest snapshot and reconcile showed: one series per cluster (and cause or kind). */
function clusterGauges(registry: Registry) {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  return {
    snapshotAge: gauge(
      'driftback_snapshot_age_seconds',
      'Seconds since the latest snapshot of a cluster was captured',
      CLUSTER,
    ),
    driftResources: gauge('driftback_drift_resources', 'Resources with persistent drift, by cause', [
      ...CLUSTER,
      'cause',
    ]),
    riskyDrift: riskyDriftGauge(registry),
    conflicts: gauge('driftback_conflicts', 'Fields Git declares that a controller owns', CLUSTER),
    suspended: gauge('driftback_suspended_resources', 'Suspended reconcilers and workloads', CLUSTER),
    suspendedSeconds: gauge(
      'driftback_suspended_seconds',
      'Seconds the longest suspension of each kind (Flux suspend, Argo CD automated sync off) has lasted, at scrape time',
      [...CLUSTER, 'kind'],
    ),
    degraded: gauge('driftback_degraded_resources', 'Resources whose health is Degraded', CLUSTER),
  };
}

/** The App's own work: reconcile jobs, GitHub requests, uploads, and per-cluster writes left out. */
function workMetrics(registry: Registry, maxClusterSeries: number) {
  const registers = [registry];
  return {
    seriesDropped: new Counter({
      name: 'driftback_metric_series_dropped_total',
      help: `Per-cluster writes left out because ${maxClusterSeries} clusters already have series`,
      registers,
    }),
    reconcileDuration: new Histogram({
      name: 'driftback_reconcile_duration_seconds',
      help: 'Duration of reconcile jobs',
      labelNames: ['result'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    reconcileErrors: new Counter({
      name: 'driftback_reconcile_errors_total',
      help: 'Reconcile jobs that failed',
      labelNames: CLUSTER,
      registers,
    }),
    githubRequests: new Counter({
      name: 'driftback_github_requests_total',
      help: 'GitHub API requests',
      labelNames: ['route', 'status'],
      registers,
    }),
    githubRateLimitRemaining: new Gauge({
      name: 'driftback_github_rate_limit_remaining',
      help: 'x-ratelimit-remaining of the last GitHub response',
      registers,
    }),
    snapshotsReceived: new Counter({
      name: 'driftback_snapshots_received_total',
      help: 'Snapshot uploads by result',
      labelNames: ['result'],
      registers,
    }),
  };
}

export function createMetrics(options: { maxClusterSeries?: number } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'driftback_process_' });
  const max = options.maxClusterSeries ?? MAX_CLUSTER_SERIES;
  /** The clusters that have series (`repository#cluster`), up to the cap. */
  const clusters = { known: new Set<string>(), max };
  return { registry, ...clusterGauges(registry), ...workMetrics(registry, max), clusters };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The one label rule of per-cluster series; undefined (and counted) for a cluster beyond the cap,
 * so its writes are left out.
 */
function clusterLabels(
  metrics: Metrics,
  repository: string,
  cluster: string,
): { repository: string; cluster: string } | undefined {
  const labels = { repository: repository.toLowerCase(), cluster };
  const key = `${labels.repository}#${cluster}`;
  if (!metrics.clusters.known.has(key)) {
    if (metrics.clusters.known.size >= metrics.clusters.max) {
      metrics.seriesDropped.inc();
      return undefined;
    }
    metrics.clusters.known.add(key);
  }
  return labels;
}

const CAUSES: readonly Cause[] = ['human', 'controller', 'applier', 'unknown'];

/** driftback_degraded_resources, _suspended_resources, _conflicts, _drift_resources and _risky_drift of one cluster. */
export function recordClusterFigures(
  metrics: Metrics,
  repository: string,
  cluster: string,
  figures: Omit<ClusterFigures, 'resources'>,
): void {
  const labels = clusterLabels(metrics, repository, cluster);
  if (!labels) return;
  metrics.degraded.set(labels, figures.degraded);
  metrics.suspended.set(labels, figures.suspended);
  metrics.conflicts.set(labels, figures.conflicts);
  for (const cause of CAUSES) metrics.driftResources.set({ ...labels, cause }, figures.driftByCause[cause] ?? 0);
  for (const code of RISK_CODES) metrics.riskyDrift.set({ ...labels, code }, figures.riskByCode?.[code] ?? 0);
}

/** driftback_snapshot_age_seconds: how old each cluster's latest snapshot is at `now`. */
export function recordSnapshotAges(
  metrics: Metrics,
  latest: Iterable<{ repository: string; cluster: string; capturedAt: string }>,
  now: Date,
): void {
  for (const { repository, cluster, capturedAt } of latest) {
    const captured = Date.parse(capturedAt);
    if (!Number.isFinite(captured)) continue;
    const labels = clusterLabels(metrics, repository, cluster);
    if (labels) metrics.snapshotAge.set(labels, Math.max(0, (now.getTime() - captured) / 1000));
  }
}

/**
 * driftback_suspended_seconds: per cluster and kind of suspension, how long the longest one has
 * lasted at `now`. Which sources they are is on the dashboard and in the logs. The series are
 * rewritten as a whole, so a kind with no suspension left has none.
 */
export function recordSuspendedSeconds(
  metrics: Metrics,
  suspended: Iterable<{ repository: string; cluster: string; kind: SuspendedKind; since: string }>,
  now: Date,
): void {
  const longest = new Map<string, { repository: string; cluster: string; kind: SuspendedKind; seconds: number }>();
  for (const { repository, cluster, kind, since } of suspended) {
    const at = Date.parse(since);
    if (!Number.isFinite(at)) continue;
    const seconds = Math.max(0, (now.getTime() - at) / 1000);
    const key = `${repository.toLowerCase()}#${cluster}#${kind}`;
    if ((longest.get(key)?.seconds ?? -1) < seconds) longest.set(key, { repository, cluster, kind, seconds });
  }
  metrics.suspendedSeconds.reset();
  for (const { repository, cluster, kind, seconds } of longest.values()) {
    const labels = clusterLabels(metrics, repository, cluster);
    if (labels) metrics.suspendedSeconds.set({ ...labels, kind }, seconds);
  }
}

/** driftback_reconcile_duration_seconds: starts timing one reconcile; call the result with how it ended. */
export function timeReconcile(metrics: Metrics): (result: string) => void {
  const stop = metrics.reconcileDuration.startTimer();
  return (result) => void stop({ result });
}

/** driftback_reconcile_errors_total */
export function countReconcileError(metrics: Metrics, repository: string, cluster: string): void {
  const labels = clusterLabels(metrics, repository, cluster);
  if (labels) metrics.reconcileErrors.inc(labels);
}

/** driftback_github_requests_total */
export function countGitHubRequest(metrics: Metrics, route: string, status: number): void {
  metrics.githubRequests.inc({ route, status: String(status) });
}

/** driftback_github_rate_limit_remaining */
export function recordRateLimitRemaining(metrics: Metrics, remaining: number): void {
  metrics.githubRateLimitRemaining.set(remaining);
}

export type SnapshotResult =
  'accepted' | 'duplicate' | 'stale' | 'invalid' | 'unauthorized' | 'too-large' | 'rate-limited' | 'error';

/** driftback_snapshots_received_total */
export function countSnapshot(metrics: Metrics, result: SnapshotResult): void {
  metrics.snapshotsReceived.inc({ result });
}
