// One cluster's section of the dashboard, from its latest snapshot (resources in scope, degraded
// resources, GitOps controllers) and what the reconcile job recorded (drift by cause, conflicts,
// ignored counts, open drift PRs). Pure: the caller loads both and passes `now`.
import { parseDuration, type ClusterConfig } from '../../core/config/index.js';
import { suspensionLabel } from '../../core/emergency/index.js';
import { screenObjects } from '../../core/k8s/object-names.js';
import { assessHealth, reconcilerStateOf } from '../../core/health/index.js';
import { keyOf, type KubeObject } from '../../core/model/index.js';
import { controllerStopped, notReconcilingReason, stoppedReason } from '../../core/plan/index.js';
import type { DashboardCluster } from '../../core/report/index.js';
import type { ClusterFigures } from '../metrics.js';
import type { ClusterState } from '../../store/state/index.js';

function inScope(object: KubeObject, namespaces: string[] | undefined): boolean {
  const namespace = object.metadata?.namespace ?? '';
  return !namespaces?.length || namespace === '' || namespaces.includes(namespace);
}

export function dashboardCluster(
  cluster: ClusterConfig,
  latest: { capturedAt: string; items: KubeObject[] } | undefined,
  state: ClusterState,
  now: string,
): { view: DashboardCluster; figures: ClusterFigures } {
  const live = (latest?.items ?? []).filter((object) => inScope(object, cluster.namespaces));
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const degraded: DashboardCluster['degraded'] = [];
  const reconcilers: DashboardCluster['reconcilers'] = [];
  let suspendedWorkloads = 0;
  for (const object of live) {
    const reconciler = reconcilerStateOf(object);
    if (reconciler) {
      // A controller that is not running is named as such, not blamed for what waits on it.
      const stopped = controllerStopped(object, reconciler, latest?.items ?? [], undefined, now);
      const reason =
        notReconcilingReason(reconciler, now, staleAfter) ?? (stopped ? stoppedReason(stopped) : undefined);
      reconcilers.push({ state: reconciler, ...optional('notReconcilingReason', reason) });
      continue;
    }
    const health = assessHealth(object);
    if (health.status === 'Degraded') degraded.push({ key: keyOf(object), ...optional('message', health.message) });
    if (health.status === 'Suspended') suspendedWorkloads += 1;
  }
  const driftByCause = state.drift?.byCause ?? {};
  const conflicts = (state.conflicts ?? []).map((c) => ({
    key: c.resource,
    path: c.path,
    ...(c.segments ? { segments: c.segments } : {}),
    manager: c.manager,
  }));
  const view: DashboardCluster = {
    name: cluster.name,
    ...optional('lastSnapshotAt', latest?.capturedAt),
    staleAfter: cluster.staleAfter,
    resourcesInScope: live.length,
    ...driftCounts(state),
    ...optional('sources', state.drift?.sources),
    ...optional('notChecked', state.drift?.notChecked),
    conflicts,
    ignored: state.ignored ?? [],
    reported: (state.drift?.reported ?? []).map((r) => ({
      key: r.resource,
      reason: r.reason,
      ...optional('path', r.field),
      ...optional('segments', r.segments),
      ...optional('manager', r.manager),
      ...optional('time', r.time),
    })),
    ...optional('risky', riskyOf(state)),
    ...optional('undo', nonEmpty(state.drift?.undo ?? [])),
    ...optional('undone', nonEmpty(state.drift?.undone ?? [])),
    degraded,
    reconcilers,
    openPullRequests: (state.openPullRequests ?? []).map((pull) => ({ number: pull.number })),
    ...optional('skipped', nonEmpty(screenObjects(latest?.items ?? []).skipped)),
    ...(state.suspensions
      ? {
          suspensions: state.suspensions.map((s) => ({
            resource: suspensionLabel(s.suspension),
            since: s.since,
            ...(s.suspension.who ? { who: s.suspension.who } : {}),
            ...(s.pullRequest !== undefined ? { pullRequest: s.pullRequest } : {}),
          })),
        }
      : {}),
  };
  const figures: ClusterFigures = {
    resources: live.length,
    degraded: degraded.length,
    suspended: suspendedWorkloads + reconcilers.filter((r) => r.state.suspended).length,
    conflicts: conflicts.length,
    driftByCause,
    riskByCode: state.drift?.riskByCode ?? {},
  };
  return { view, figures };
}

/** The drift counts the last reconcile recorded (the tally is absent in state recorded before it was kept). */
function driftCounts(state: ClusterState): Pick<DashboardCluster, 'driftByCause' | 'drift'> {
  const byCause = state.drift?.byCause ?? {};
  const { objects, changes } = state.drift ?? {};
  return {
    driftByCause: { human: byCause.human, controller: byCause.controller, unknown: byCause.unknown },
    ...(objects !== undefined && changes ? { drift: { objects, changes } } : {}),
  };
}

/** Risky drift as the last reconcile recorded it, for the dashboard's top. */
function riskyOf(state: ClusterState): DashboardCluster['risky'] {
  return state.drift?.risky?.map((r) => ({
    key: r.resource,
    ...optional('path', r.field),
    ...optional('segments', r.segments),
    ...optional('manager', r.manager),
    ...optional('time', r.time),
    risk: r.risk,
  }));
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length ? list : undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
