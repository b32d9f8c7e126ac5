// The dashboard issue as data. Each cluster's section comes from its latest snapshot (resources in
// scope, degraded resources, GitOps controllers) and what the reconcile job recorded (drift by cause,
// conflicts, ignored counts, open drift PRs); the App gathers both from its store and passes `now`.
// The decision is a rewrite only when what the dashboard says changed (its digest), not its times.
import { parseDuration, type ClusterConfig } from '../config/index.js';
import { suspensionLabel, type Suspension } from '../emergency/index.js';
import { assessHealth, reconcilerStateOf } from '../health/index.js';
import { screenObjects } from '../k8s/object-names.js';
import {
  keyOf,
  type KubeObject,
  type PathSegment,
  type ResourceKey,
  type RiskCode,
  type SourceProblem,
} from '../model/index.js';
import { controllerStopped, notReconcilingReason, stoppedReason } from '../plan/index.js';
import {
  dashboardDigest,
  DASHBOARD_TITLE,
  type DashboardCluster,
  type DashboardDecision,
  type DashboardView,
} from '../report/index.js';
import { SECURITY_LABEL } from './pull-request-face.js';

/** What the last reconcile of a cluster recorded that the dashboard shows. */
export interface DashboardRecord {
  drift?: {
    byCause: Record<string, number>;
    objects?: number;
    changes?: Record<string, number>;
    sources?: string[];
    notChecked?: string[];
    reported?: Array<{
      resource: ResourceKey;
      field?: string;
      segments?: PathSegment[];
      reason: string;
      manager?: string;
      time?: string;
    }>;
    risky?: Array<{
      resource: ResourceKey;
      field?: string;
      segments?: PathSegment[];
      manager?: string;
      time?: string;
      risk: Array<{ code: string; why: string }>;
    }>;
    riskByCode?: Record<string, number>;
    undo?: NonNullable<DashboardCluster['undo']>;
    undone?: NonNullable<DashboardCluster['undone']>;
    autoscaledReplicas?: Array<{ resource: ResourceKey; hpa: string; file?: string; line?: number }>;
  };
  conflicts?: Array<{ resource: ResourceKey; path: string; segments?: PathSegment[]; manager: string }>;
  ignored?: Array<{ reason: string; count: number }>;
  openPullRequests?: Array<{ number: number }>;
  suspensions?: ReadonlyArray<{ suspension: Suspension; since: string; pullRequest?: number }>;
  problems?: SourceProblem[];
}

/** A cluster's gauges (driftback_* per cluster), from the same snapshot and record as its section. */
export interface ClusterFigures {
  resources: number;
  degraded: number;
  /** Suspended reconcilers and workloads (a CronJob with suspend: true). */
  suspended: number;
  conflicts: number;
  driftByCause: Record<string, number>;
  /** Undecided risky items by risk code. Default: none. */
  riskByCode?: Partial<Record<RiskCode, number>>;
}

type ClusterOf = Pick<ClusterConfig, 'name' | 'staleAfter' | 'namespaces'>;
type Snapshot = { capturedAt: string; items: KubeObject[] };

function inScope(object: KubeObject, namespaces: string[] | undefined): boolean {
  const namespace = object.metadata?.namespace ?? '';
  return !namespaces?.length || namespace === '' || namespaces.includes(namespace);
}

/** What the snapshot shows of a cluster: its objects in scope, the degraded ones, its reconcilers. */
function liveSection(cluster: ClusterOf, latest: Snapshot | undefined, now: string) {
  const live = (latest?.items ?? []).filter((object) => inScope(object, cluster.namespaces));
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const degraded: DashboardCluster['degraded'] = [];
  const reconcilers: DashboardCluster['reconcilers'] = [];
  let suspendedWorkloads = 0;
  for (const object of live) {
    const reconciler = reconcilerStateOf(object);
    if (reconciler) {
      // A controller that is not running is named as such, not blamed for what waits on it.
      const stopped = controllerStopped({
        source: object,
        state: reconciler,
        items: latest?.items ?? [],
        head: undefined,
        now,
      });
      const reason =
        notReconcilingReason(reconciler, now, staleAfter) ?? (stopped ? stoppedReason(stopped) : undefined);
      reconcilers.push({ state: reconciler, ...optional('notReconcilingReason', reason) });
      continue;
    }
    const health = assessHealth(object);
    if (health.status === 'Degraded') degraded.push({ key: keyOf(object), ...optional('message', health.message) });
    if (health.status === 'Suspended') suspendedWorkloads += 1;
  }
  return { live, degraded, reconcilers, suspendedWorkloads };
}

/** Drift reported and never codified, as the last reconcile recorded it. */
function reportedOf(record: DashboardRecord): NonNullable<DashboardCluster['reported']> {
  return (record.drift?.reported ?? []).map((r) => ({
    key: r.resource,
    reason: r.reason,
    ...optional('path', r.field),
    ...optional('segments', r.segments),
    ...optional('manager', r.manager),
    ...optional('time', r.time),
  }));
}

/** Risky drift as the last reconcile recorded it, for the dashboard's top. */
function riskyOf(record: DashboardRecord): DashboardCluster['risky'] {
  return record.drift?.risky?.map((r) => ({
    key: r.resource,
    ...optional('path', r.field),
    ...optional('segments', r.segments),
    ...optional('manager', r.manager),
    ...optional('time', r.time),
    risk: r.risk,
  }));
}

/** Workloads an HPA and Git both scale, as the last reconcile recorded them. */
function autoscaledOf(record: DashboardRecord): DashboardCluster['autoscaledReplicas'] {
  return record.drift?.autoscaledReplicas?.map(({ resource, ...rest }) => ({ key: resource, ...rest }));
}

function suspensionsOf(record: DashboardRecord): Pick<DashboardCluster, 'suspensions'> {
  if (!record.suspensions) return {};
  const suspensions = record.suspensions.map((s) => ({
    resource: suspensionLabel(s.suspension),
    since: s.since,
    ...(s.suspension.who ? { who: s.suspension.who } : {}),
    ...(s.pullRequest !== undefined ? { pullRequest: s.pullRequest } : {}),
  }));
  return { suspensions };
}

/** What the last reconcile recorded, as the dashboard's cluster section shows it. */
function recordedSection(record: DashboardRecord) {
  const driftByCause = record.drift?.byCause ?? {};
  const { objects, changes } = record.drift ?? {};
  const conflicts = (record.conflicts ?? []).map((c) => ({
    key: c.resource,
    path: c.path,
    ...(c.segments ? { segments: c.segments } : {}),
    manager: c.manager,
  }));
  return {
    driftByCause: { human: driftByCause.human, controller: driftByCause.controller, unknown: driftByCause.unknown },
    ...(objects !== undefined && changes ? { drift: { objects, changes } } : {}),
    ...optional('sources', record.drift?.sources),
    ...optional('notChecked', record.drift?.notChecked),
    conflicts,
    ignored: record.ignored ?? [],
    reported: reportedOf(record),
    ...optional('risky', riskyOf(record)),
    ...optional('undo', nonEmpty(record.drift?.undo ?? [])),
    ...optional('undone', nonEmpty(record.drift?.undone ?? [])),
    ...optional('autoscaledReplicas', autoscaledOf(record)),
  };
}

/** One cluster's section of the dashboard and its gauges. */
export function dashboardCluster(
  cluster: ClusterOf,
  latest: Snapshot | undefined,
  record: DashboardRecord,
  now: string,
  decisions: readonly DashboardDecision[] = [],
): { view: DashboardCluster; figures: ClusterFigures } {
  const { live, degraded, reconcilers, suspendedWorkloads } = liveSection(cluster, latest, now);
  const recorded = recordedSection(record);
  const view: DashboardCluster = {
    name: cluster.name,
    ...optional('lastSnapshotAt', latest?.capturedAt),
    staleAfter: cluster.staleAfter,
    resourcesInScope: live.length,
    ...recorded,
    degraded,
    reconcilers,
    openPullRequests: (record.openPullRequests ?? []).map((pull) => ({ number: pull.number })),
    ...optional('skipped', nonEmpty(screenObjects(latest?.items ?? []).skipped)),
    ...suspensionsOf(record),
    ...optional('decisions', nonEmpty(decisions.map((decision) => ({ ...decision })))),
  };
  const figures: ClusterFigures = {
    resources: live.length,
    degraded: degraded.length,
    suspended: suspendedWorkloads + reconcilers.filter((r) => r.state.suspended).length,
    conflicts: recorded.conflicts.length,
    driftByCause: record.drift?.byCause ?? {},
    riskByCode: record.drift?.riskByCode ?? {},
  };
  return { view, figures };
}

/** A configured cluster as the App gathered it: its latest snapshot (none yet) and its last reconcile's record. */
export interface GatheredCluster {
  cluster: ClusterOf;
  latest?: Snapshot;
  record: DashboardRecord;
  /** Decisions made with comment commands on its items, oldest first. Default: none. */
  decisions?: readonly DashboardDecision[];
}

/**
 * The whole dashboard: each configured cluster's section, and the problems of the config and of
 * each cluster's sources. `figures`: the gauges of each cluster that reported (none for the others).
 */
export function dashboardOf(
  gathered: readonly GatheredCluster[],
  configProblems: readonly SourceProblem[],
  now: string,
): { view: DashboardView; figures: Array<{ cluster: string; figures: ClusterFigures }> } {
  const configErrors = [...configProblems];
  const clusters: DashboardCluster[] = [];
  const figures: Array<{ cluster: string; figures: ClusterFigures }> = [];
  for (const { cluster, latest, record, decisions } of gathered) {
    const section = dashboardCluster(cluster, latest, record, now, decisions);
    // A cluster that never reported has no series: the config alone cannot make one.
    if (latest) figures.push({ cluster: cluster.name, figures: section.figures });
    clusters.push(section.view);
    configErrors.push(...(record.problems ?? []));
  }
  return { view: { now, clusters, configErrors }, figures };
}

/** What the dashboard shows that can change between looks; a new value means a look is due. */
export function dashboardFingerprint(
  clusters: ReadonlyArray<Pick<ClusterConfig, 'name' | 'path' | 'staleAfter'>> | undefined,
  seen: ReadonlyArray<{ name: string; snapshotId?: string; reconciledAt?: string; stale: boolean }>,
  configProblems: number,
): string {
  return JSON.stringify({
    clusters: seen.map((c) => [c.name, c.snapshotId ?? '', c.reconciledAt ?? '', c.stale]),
    configProblems,
    configured: clusters?.map((c) => [c.name, c.path, c.staleAfter]) ?? [],
  });
}

export const DASHBOARD_KEY = 'dashboard';
export const DASHBOARD_LABELS = ['driftback'];

/** The dashboard issue written (created, updated or reopened: found by its key) with the view rendered. */
export interface DashboardWrite {
  kind: 'dashboard.write';
  key: string;
  title: string;
  labels: string[];
  /** The security label follows the risky drift: on while any cluster has some waiting for a decision. */
  stateLabels: { add: string[]; remove: string[] };
  view: DashboardView;
  why: string;
}

/**
 * The dashboard, from its gathered view and the digest last written: one write when what it says
 * changed (the digest), none when only times moved. `digest`: what to remember once written.
 */
export function decideDashboard(input: { view: DashboardView; written?: string }): {
  actions: DashboardWrite[];
  digest: string;
} {
  const digest = dashboardDigest(input.view);
  if (digest === input.written) return { actions: [], digest };
  const security = input.view.clusters.some((cluster) => cluster.risky?.length);
  const write: DashboardWrite = {
    kind: 'dashboard.write',
    key: DASHBOARD_KEY,
    title: DASHBOARD_TITLE,
    labels: DASHBOARD_LABELS,
    stateLabels: security ? { add: [SECURITY_LABEL], remove: [] } : { add: [], remove: [SECURITY_LABEL] },
    view: input.view,
    why: input.written === undefined ? 'no dashboard written yet' : 'what the dashboard says changed',
  };
  return { actions: [write], digest };
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length ? list : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
