// The scheduled watch of one repository (the `alerts` job runs it for every repository with
// snapshots): alert issues for clusters not reporting and GitOps controllers not reconciling, the
// dashboard when what it shows changed, the gauges, and plan refreshes after new snapshots.
import type { Documents } from '../isolation/documents.js';
import { tenantOf } from '../isolation/index.js';
import type { ConfigResult } from '../../core/config/index.js';
import { dashboardDigest, type TemplateOverrides } from '../../core/report/index.js';
import type { GitHubClient } from '../../github/index.js';
import { cachedConfigAt, readConfigAt, readTemplatesAt } from '../repository.js';
import { splitRepository } from '../github-client.js';
import { dashboardCluster, dashboardFingerprint, dashboardView, updateDashboard } from '../dashboard/index.js';
import { recordClusterFigures } from '../metrics.js';
import { refreshOpenPlans } from '../plan/refresh-open-plans.js';
import type { ReviewDeps } from '../plan/deps.js';
import { readClusterState, readRepositoryState, rememberedHead } from '../reconcile/state.js';
import { readWatchState, writeWatchState, type WatchState } from './alert-state.js';
import { checkNotReconciling } from './not-reconciling.js';
import { checkNotReporting, isStale } from './not-reporting.js';
import { checkFixesUndone } from './fix-undone.js';
import { checkSuspended } from './suspended.js';

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

export async function watchRepository(deps: WatchDeps, repository: string): Promise<WatchOutcome> {
  const ref = splitRepository(repository);
  const octokit = await deps.clients.forRepository(repository);
  const now = deps.now();
  const { config, defaultBranch } = await configOf(deps, octokit, repository, now);
  const state = await readWatchState(deps.store, repository);
  const outcome: WatchOutcome = { repository, alerts: [], dashboard: 'not-due', refreshed: [] };
  const author = await deps.appIdentity();
  // The repository's template overrides, read once and only when an issue is about to be written.
  let overrides: Promise<TemplateOverrides> | undefined;
  const templates = (): Promise<TemplateOverrides> =>
    (overrides ??= readTemplatesAt(octokit, { ...ref, ref: defaultBranch }, deps.store, now.getTime()));
  // Documents with a template override of the repository render in a job worker, as its share.
  const documents: Documents = (name, ...args) => deps.isolation.document(tenantOf(repository), name, ...args);
  const seenClusters: Array<{ name: string; snapshotId?: string; reconciledAt?: string; stale: boolean }> = [];
  let newSnapshot = false;
  for (const cluster of config.ok ? (config.config.clusters ?? []) : []) {
    state.configuredAt = { [cluster.name]: now.toISOString(), ...state.configuredAt };
    const meta = await deps.store.latestSnapshotMeta(repository, cluster.name);
    const reporting = await checkNotReporting(octokit, ref, cluster, meta, state, now, author, templates, documents);
    if (reporting.type !== 'reporting' && reporting.type !== 'still-open')
      outcome.alerts.push({ cluster: cluster.name, type: reporting.type, issue: reporting.issue });
    const stale = isStale(cluster, meta, state.configuredAt[cluster.name], now);
    const clusterState = await readClusterState(deps.store, repository, cluster.name);
    const emergency = config.ok ? config.config.emergency : undefined;
    const suspensions = clusterState.suspensions ?? [];
    const suspendedAlerts = emergency
      ? await checkSuspended(
          octokit,
          ref,
          cluster.name,
          suspensions,
          emergency,
          state,
          now,
          author,
          templates,
          documents,
        )
      : [];
    const undone = await checkFixesUndone(
      octokit,
      ref,
      cluster.name,
      clusterState.emergencies ?? {},
      state,
      author,
      templates,
      documents,
    );
    for (const change of [...suspendedAlerts, ...undone]) {
      outcome.alerts.push({ cluster: cluster.name, type: change.type, issue: change.issue, resource: change.resource });
    }
    seenClusters.push({ name: cluster.name, snapshotId: meta?.id, reconciledAt: clusterState.lastReconcileAt, stale });
    if (!meta) continue;
    // A snapshot that brings a new live state (not merely a new capture time) refreshes the plans.
    const live = clusterState.liveDigest ?? meta.id;
    if (state.plannedSnapshots?.[cluster.name] !== live) {
      newSnapshot = true;
      state.plannedSnapshots = { ...state.plannedSnapshots, [cluster.name]: live };
    }
    const memo = `${repository.toLowerCase()}#${cluster.name}`;
    const watched = (state.notReconciling?.[cluster.name]?.length ?? 0) > 0;
    if (stale || (deps.seen.get(memo) === meta.id && !watched)) continue;
    const latest = await deps.store.latestSnapshot(repository, cluster.name);
    if (!latest) continue;
    deps.seen.set(memo, meta.id);
    recordClusterFigures(
      deps.metrics,
      repository,
      cluster.name,
      dashboardCluster(cluster, latest.snapshot, clusterState, now.toISOString()).figures,
    );
    const head = await headOf(deps, repository);
    for (const change of await checkNotReconciling(
      octokit,
      ref,
      cluster,
      { items: latest.snapshot.items, ...(head ? { head } : {}) },
      state,
      now,
      author,
      templates,
      documents,
    )) {
      if (change.type !== 'pending')
        outcome.alerts.push({
          cluster: cluster.name,
          type: change.type,
          issue: change.issue,
          resource: change.resource,
        });
    }
  }
  const fingerprint = dashboardFingerprint(
    config.ok ? config.config : undefined,
    seenClusters,
    config.ok ? 0 : config.problems.length,
  );
  if (fingerprint !== state.dashboard) {
    outcome.dashboard = await refreshDashboard(deps, octokit, repository, config, state, () =>
      templates().then((overrides) => ({ overrides, documents })),
    );
    state.dashboard = fingerprint;
  }
  if (newSnapshot) outcome.refreshed = await refreshOpenPlans(octokit, deps.queue, repository);
  await writeWatchState(deps.store, repository, state);
  return outcome;
}

/**
 * Something the dashboard reads moved: it is rewritten only when what it says changed (its digest),
 * not merely its times. Records the digest written in `state`.
 */
async function refreshDashboard(
  deps: WatchDeps,
  octokit: GitHubClient,
  repository: string,
  config: ConfigResult,
  state: WatchState,
  rendering: () => Promise<{ overrides: TemplateOverrides; documents: Documents }>,
): Promise<WatchOutcome['dashboard']> {
  const view = await dashboardView(deps, repository, config);
  const digest = dashboardDigest(view);
  if (digest === state.dashboardDigest) return 'unchanged';
  const { overrides, documents } = await rendering();
  const written = await updateDashboard(deps, octokit, repository, config, overrides, documents, view);
  state.dashboardDigest = digest;
  return written.type;
}

/** The default branch's HEAD as the App last learned it, and when (what a source may be behind). */
async function headOf(deps: WatchDeps, repository: string): Promise<{ sha: string; at: string } | undefined> {
  const state = await readRepositoryState(deps.store, repository);
  return state.headSha && state.headAt ? { sha: state.headSha, at: state.headAt } : undefined;
}
