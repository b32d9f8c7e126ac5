// The scheduled watch of one repository (the `alerts` job runs it for every repository with
// snapshots): alert issues for clusters not reporting and GitOps controllers not reconciling, the
// dashboard when what it shows changed, the gauges, and plan refreshes after new snapshots.
import type { Documents } from '../isolation/documents.js';
import { tenantOf } from '../isolation/index.js';
import type { ClusterConfig, ConfigResult } from '../../core/config/index.js';
import { dashboardCluster, dashboardFingerprint, decideDashboard, isStale } from '../../core/decide/index.js';
import type { TemplateOverrides } from '../../core/report/index.js';
import type { GitHubClient } from '../../github/index.js';
import { cachedConfigAt, readConfigAt, readTemplatesAt } from '../repository.js';
import { splitRepository } from '../github-client.js';
import { executeDashboard, gatherDashboard } from '../dashboard/index.js';
import { recordClusterFigures } from '../metrics.js';
import { refreshOpenPlans } from '../plan/refresh-open-plans.js';
import type { ReviewDeps } from '../plan/deps.js';
import { readClusterState, readRepositoryState, rememberedHead } from '../reconcile/state.js';
import { readWatchState, writeWatchState, type WatchState } from './alert-state.js';
import { checkNotReconciling } from './not-reconciling.js';
import { checkNotReporting } from './not-reporting.js';
import { checkFixesUndone } from './fix-undone.js';
import { checkSuspended } from './suspended.js';
import type { AlertChange, AlertWriter } from './execute-alerts.js';

export interface WatchDeps extends ReviewDeps {
  /** `<repository>#<cluster>` → the snapshot id this process last read (figures and reconcilers). */
  seen: Map<string, string>;
}

export interface WatchOutcome {
  repository: string;
  alerts: Array<{ cluster: string; type: string; issue?: number; resource?: string }>;
  dashboard: 'created' | 'updated' | 'reopened' | 'unchanged' | 'not-due';
  refreshed: number[];
}

/**
 * The config at the default branch's HEAD: from the cache while the HEAD the reconciles and push
 * webhooks remember is trusted (no GitHub call), else read from GitHub.
 */
async function configOf(
  deps: WatchDeps,
  octokit: GitHubClient,
  repository: string,
  now: Date,
): Promise<{ config: ConfigResult; defaultBranch: string }> {
  const known = rememberedHead(await readRepositoryState(deps.store, repository), now);
  if (known?.head && !known.stale) {
    const cached = await cachedConfigAt(deps.store, known.head.treeSha, now.getTime());
    if (cached) return { config: cached, defaultBranch: known.defaultBranch };
  }
  const ref = splitRepository(repository);
  const { data: repo } = await octokit.rest.repos.get(ref);
  return {
    config: await readConfigAt(octokit, { ...ref, sha: repo.default_branch }),
    defaultBranch: repo.default_branch,
  };
}

/** What every cluster of one watch shares: the client, the state, the clock, how alerts are written. */
interface Watch {
  deps: WatchDeps;
  repository: string;
  octokit: GitHubClient;
  ref: { owner: string; repo: string };
  now: Date;
  state: WatchState;
  outcome: WatchOutcome;
  writer: AlertWriter & { templates: () => Promise<TemplateOverrides>; documents: Documents };
  config: ConfigResult;
}

type SeenCluster = { name: string; snapshotId?: string; reconciledAt?: string; stale: boolean };

export async function watchRepository(deps: WatchDeps, repository: string): Promise<WatchOutcome> {
  const ref = splitRepository(repository);
  const octokit = await deps.clients.forRepository(repository);
  const now = deps.now();
  const { config, defaultBranch } = await configOf(deps, octokit, repository, now);
  const state = await readWatchState(deps.store, repository);
  const outcome: WatchOutcome = { repository, alerts: [], dashboard: 'not-due', refreshed: [] };
  // The repository's template overrides, read once and only when an issue is about to be written.
  let overrides: Promise<TemplateOverrides> | undefined;
  const templates = (): Promise<TemplateOverrides> =>
    (overrides ??= readTemplatesAt(octokit, { ...ref, ref: defaultBranch }, deps.store, now.getTime()));
  // Documents with a template override of the repository render in a job worker, as its share.
  const documents: Documents = (name, ...args) => deps.isolation.document(tenantOf(repository), name, ...args);
  const writer = { octokit, repo: ref, author: await deps.appIdentity(), templates, documents };
  const watch: Watch = { deps, repository, octokit, ref, now, state, outcome, writer, config };
  const seenClusters: SeenCluster[] = [];
  let newSnapshot = false;
  for (const cluster of config.ok ? (config.config.clusters ?? []) : []) {
    const seen = await watchCluster(watch, cluster);
    seenClusters.push(seen.cluster);
    newSnapshot ||= seen.newSnapshot;
  }
  await dashboardIfDue(watch, seenClusters);
  if (newSnapshot) outcome.refreshed = await refreshOpenPlans(octokit, deps.queue, repository);
  await writeWatchState(deps.store, repository, state);
  return outcome;
}

/** The alert changes of one cluster, as the watch's outcome lists them. */
function reportAlerts(watch: Watch, cluster: string, changes: readonly AlertChange[], withResource = true): void {
  for (const { type, issue, resource } of changes)
    watch.outcome.alerts.push({ cluster, type, issue, ...(withResource ? { resource } : {}) });
}

/** One cluster's alerts (not reporting, suspended, fix undone, not reconciling), figures and plan refresh. */
async function watchCluster(
  watch: Watch,
  cluster: ClusterConfig,
): Promise<{ cluster: SeenCluster; newSnapshot: boolean }> {
  const { deps, repository, state, now, writer } = watch;
  state.configuredAt = { [cluster.name]: now.toISOString(), ...state.configuredAt };
  const meta = await deps.store.latestSnapshotMeta(repository, cluster.name);
  reportAlerts(watch, cluster.name, await checkNotReporting(writer, cluster, meta, state, now), false);
  const stale = isStale({
    cluster,
    ...(meta ? { latestCapturedAt: meta.capturedAt } : {}),
    configuredAt: state.configuredAt[cluster.name]!,
    now: now.toISOString(),
  });
  const clusterState = await readClusterState(deps.store, repository, cluster.name);
  const emergency = watch.config.ok ? watch.config.config.emergency : undefined;
  const suspended = emergency
    ? await checkSuspended(writer, cluster.name, clusterState.suspensions ?? [], emergency, state, now)
    : [];
  const undone = await checkFixesUndone(writer, cluster.name, clusterState.emergencies ?? {}, state);
  reportAlerts(watch, cluster.name, [...suspended, ...undone]);
  const seen = { name: cluster.name, snapshotId: meta?.id, reconciledAt: clusterState.lastReconcileAt, stale };
  if (!meta) return { cluster: seen, newSnapshot: false };
  // A snapshot that brings a new live state (not merely a new capture time) refreshes the plans.
  const live = clusterState.liveDigest ?? meta.id;
  const newSnapshot = state.plannedSnapshots?.[cluster.name] !== live;
  if (newSnapshot) state.plannedSnapshots = { ...state.plannedSnapshots, [cluster.name]: live };
  if (!stale) await watchReconcilers(watch, cluster, meta.id, clusterState);
  return { cluster: seen, newSnapshot };
}

/** A new snapshot (or a controller already watched): the cluster's figures and its not-reconciling alerts. */
async function watchReconcilers(
  watch: Watch,
  cluster: ClusterConfig,
  snapshotId: string,
  clusterState: Awaited<ReturnType<typeof readClusterState>>,
): Promise<void> {
  const { deps, repository, state, now, writer } = watch;
  const memo = `${repository.toLowerCase()}#${cluster.name}`;
  const watched = (state.notReconciling?.[cluster.name]?.length ?? 0) > 0;
  if (deps.seen.get(memo) === snapshotId && !watched) return;
  const latest = await deps.store.latestSnapshot(repository, cluster.name);
  if (!latest) return;
  deps.seen.set(memo, snapshotId);
  const figures = dashboardCluster(cluster, latest.snapshot, clusterState, now.toISOString()).figures;
  recordClusterFigures(deps.metrics, repository, cluster.name, figures);
  const head = await headOf(deps, repository);
  const input = { items: latest.snapshot.items, ...(head ? { head } : {}) };
  reportAlerts(watch, cluster.name, await checkNotReconciling(writer, cluster, input, state, now));
}

/**
 * The dashboard, when something it reads moved (its fingerprint): gathered from the store, then
 * rewritten only when what it says changed (decideDashboard), not merely its times.
 */
async function dashboardIfDue(watch: Watch, seenClusters: SeenCluster[]): Promise<void> {
  const { config, state, writer } = watch;
  const configured = config.ok ? config.config.clusters : undefined;
  const fingerprint = dashboardFingerprint(configured, seenClusters, config.ok ? 0 : config.problems.length);
  if (fingerprint === state.dashboard) return;
  const view = await gatherDashboard(watch.deps, watch.repository, config);
  const decision = decideDashboard({ view, ...(state.dashboardDigest ? { written: state.dashboardDigest } : {}) });
  watch.outcome.dashboard = 'unchanged';
  for (const action of decision.actions) {
    const target = { ...writer, repository: watch.repository };
    watch.outcome.dashboard = (await executeDashboard(target, action, await writer.templates())).type;
    state.dashboardDigest = decision.digest;
  }
  state.dashboard = fingerprint;
}

/** The default branch's HEAD as the App last learned it, and when (what a source may be behind). */
async function headOf(deps: WatchDeps, repository: string): Promise<{ sha: string; at: string } | undefined> {
  const state = await readRepositoryState(deps.store, repository);
  return state.headSha && state.headAt ? { sha: state.headSha, at: state.headAt } : undefined;
}
