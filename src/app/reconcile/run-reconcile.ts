// The reconcile job: the newest snapshot of a cluster against the default branch's HEAD, ending in
// a drift PR opened, updated, left alone or closed. Each early return records why, in the cluster
// state (the dashboard reads it) and the log.
import { JobLimitExceeded, tenantOf, type Isolation } from '../isolation/index.js';
import type { Documents } from '../isolation/documents.js';
import type { AppIdentity } from '../../github/index.js';
import { liveStateDigest } from '../../core/classify/index.js';
import { findCluster } from '../../core/config/index.js';
import type { DriftInput } from '../../core/pipeline/index.js';
import type { SourceProblem } from '../../core/model/index.js';
import { templateOverrides } from '../../core/report/index.js';
import type { UnfollowedKind } from '../../core/manifests/index.js';
import type { Store } from '../../store/types.js';
import { NotInstalledError, splitRepository, type InstallationClients } from '../github-client.js';
import type { AppLogger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { keepRead, loadRepositoryAt, type KnownHead } from '../repository.js';
import { withFilesRead } from './read-as-needed.js';
import { summarizeCluster } from './cluster-summary.js';
import type { Evaluation } from './evaluate.js';
import { recordClusterMetrics } from './record-metrics.js';
import {
  readClusterState,
  readRepositoryState,
  recordHeadRead,
  rememberedHead,
  writeClusterState,
  type ClusterState,
  type RepositoryState,
  type ReconcileOutcomeType,
} from './state.js';
import { syncDriftBranches } from './sync-branches.js';
import { publishSecurityCheck } from './publish-security-check.js';
import {
  emergencySections,
  followEmergencies,
  recordEmergencies,
  suspensionStates,
  withPullRequests,
} from './follow-emergency.js';

export interface ReconcileDeps {
  store: Store;
  clients: InstallationClients;
  /** The App's id and bot login (`<slug>[bot]`, when it can be known): what it wrote is recognised by them. */
  appIdentity: () => Promise<AppIdentity>;
  metrics: Metrics;
  now: () => Date;
  log: AppLogger;
  /** Job workers: the render and a repository's template overrides run there, under the App's limits. */
  isolation: Isolation;
}

export interface ReconcileTarget {
  repository: string;
  cluster: string;
  /** Read the default branch's name and HEAD again (a push or installation may bring new ones). */
  refreshDefaultBranch?: boolean;
}

/**
 * What the repository state lets the load skip. Within the hour after the default branch was last
 * read from GitHub, its HEAD as last read or as the push webhooks since named it is trusted: nothing
 * is read. A push that did not follow on makes HEAD be checked (one tree call); once the hour is up,
 * or on an installation job, everything is read again: the safety net for a webhook never delivered.
 */
function remembered(
  state: RepositoryState,
  target: ReconcileTarget,
  now: Date,
): { defaultBranch?: string; knownHead?: KnownHead; trustedHead?: KnownHead } {
  const known = target.refreshDefaultBranch ? undefined : rememberedHead(state, now);
  if (!known) return {};
  if (!known.head) return { defaultBranch: known.defaultBranch };
  return {
    defaultBranch: known.defaultBranch,
    ...(known.stale ? { knownHead: known.head } : { trustedHead: known.head }),
  };
}

export type ReconcileOutcome = {
  type: ReconcileOutcomeType;
  message?: string;
  events?: Array<{ branch: string; event: string; number?: number }>;
};

export async function reconcileCluster(deps: ReconcileDeps, target: ReconcileTarget): Promise<ReconcileOutcome> {
  const { store, log } = deps;
  const { repository, cluster } = target;
  const latest = await store.latestSnapshot(repository, cluster);
  if (!latest) return { type: 'no-snapshot', message: 'no snapshot stored for this cluster' };
  const previous = await readClusterState(store, repository, cluster);
  const base: ClusterState = {
    ...previous,
    lastReconcileAt: deps.now().toISOString(),
    liveDigest: liveStateDigest(latest.snapshot.items),
  };
  const stop = async (
    type: ReconcileOutcomeType,
    message: string,
    problems: SourceProblem[] = [],
  ): Promise<ReconcileOutcome> => {
    log.warn({ repository, cluster, outcome: type, problems }, message);
    await writeClusterState(store, repository, cluster, { ...base, outcome: { type, message }, problems });
    return { type, message };
  };

  let octokit;
  try {
    octokit = await deps.clients.forRepository(repository);
  } catch (error) {
    if (error instanceof NotInstalledError) return stop('not-installed', error.message);
    throw error;
  }
  const { owner, repo } = splitRepository(repository);
  const startedAt = deps.now();
  const repositoryState = await readRepositoryState(store, repository);
  const known = remembered(repositoryState, target, startedAt);
  // What the render read last time is fetched up front; a first run fetches every manifest.
  const readBefore = new Set(previous.filesRead ?? []);
  const loaded = await loadRepositoryAt(
    octokit,
    {
      owner,
      repo,
      ...known,
      ...(readBefore.size > 0 ? { fetch: (path: string) => readBefore.has(path) } : {}),
      now: startedAt.getTime(),
    },
    store,
  );
  const checkedAt = deps.now().toISOString();
  if (!known.trustedHead)
    await recordHeadRead(
      store,
      repository,
      {
        headSha: loaded.headSha,
        treeSha: loaded.treeSha,
        defaultBranch: loaded.defaultBranch,
        defaultBranchRead: loaded.defaultBranchRead,
      },
      startedAt,
    );
  if (!loaded.config.ok)
    return stop(
      'config-invalid',
      `.github/driftback.yml at ${loaded.headSha.slice(0, 7)} has problems: fix them and push`,
      loaded.config.problems,
    );
  const config = loaded.config.config;
  const clusterConfig = findCluster(config, cluster);
  if (!clusterConfig) {
    return stop(
      'not-configured',
      `a snapshot arrived for cluster "${cluster}", which .github/driftback.yml does not list: add it under clusters (name and path), or check the agent's DRIFTBACK_CLUSTER`,
    );
  }

  const history = (await store.observationHistory(repository, cluster, config.drift.minSnapshots)).filter(
    (entry) => entry.snapshotId !== latest.meta.id,
  );
  const declined = await store.declinedFingerprints(repository, cluster);
  const input: Omit<DriftInput, 'renderBudget' | 'files'> = {
    snapshot: latest.snapshot,
    config,
    cluster: clusterConfig,
    unfollowed: unfollowedIn(loaded.entries),
    history: history.map((entry) => entry.fingerprints),
    declined,
  };
  let evaluation: Evaluation;
  try {
    evaluation = await evaluateInWorker(deps, repository, octokit, loaded, input);
  } catch (error) {
    if (!(error instanceof JobLimitExceeded)) throw error;
    return stop('manifest-problems', error.message, [{ file: clusterConfig.path ?? '.', message: error.message }]);
  }
  const filesRead = filesReadBy(evaluation);
  await keepRead(store, loaded, filesRead, startedAt.getTime());
  if (evaluation.type === 'manifest-problems') {
    await writeClusterState(store, repository, cluster, { ...base, filesRead });
    return stop(
      'manifest-problems',
      `the manifests under ${clusterConfig.path} do not render: fix them and push`,
      evaluation.problems,
    );
  }
  if (evaluation.type === 'out-of-scope') return stop('out-of-scope', evaluation.message);
  await store.recordObservations(repository, cluster, latest.meta.id, latest.meta.capturedAt, evaluation.fingerprints);

  const suspensions = suspensionStates(evaluation.suspensions, previous.suspensions, latest.meta.capturedAt);
  const emergency = emergencySections(evaluation.emergency, evaluation.groups, suspensions, previous.emergencies);
  const ctx = {
    octokit,
    owner,
    repo,
    defaultBranch: loaded.defaultBranch,
    baseSha: loaded.headSha,
    baseListing: loaded.listing,
    config,
    cluster,
    snapshot: { id: latest.meta.id, capturedAt: latest.meta.capturedAt },
    ...(await identityFields(deps)),
    branchEvents: repositoryState.branchEvents,
    now: deps.now,
    log,
    templates: templateOverrides(loaded.files),
    documents: ((name, ...args) => deps.isolation.document(tenantOf(repository), name, ...args)) as Documents,
    emergency,
  };
  const sync = await syncDriftBranches(ctx, evaluation.groups, previous.branches ?? {});
  const followed = await followEmergencies(ctx, recordEmergencies(emergency, sync.branches, previous.emergencies), {
    items: latest.snapshot.items,
    diff: evaluation.diff,
    suspended: new Set(suspensions.map((state) => state.suspension.id)),
  });
  if (sync.decisions.length > 0) {
    await store.recordDecisions(
      sync.decisions.map((decision) => ({ ...decision, repository, cluster, decidedAt: checkedAt })),
    );
  }
  const open = Object.values(sync.branches).filter((branch) => branch.pullRequest !== undefined && !branch.foreign);
  const failed = sync.selfCheckFailures[0];
  const outcome: ReconcileOutcome = failed
    ? {
        type: 'self-check-failed',
        message: `${failed.branch}: the edits did not pass the self-check, nothing was written: ${failed.reason}`,
        events: sync.events,
      }
    : {
        type: evaluation.groups.length > 0 ? 'codified' : 'no-drift',
        events: [
          ...sync.events,
          ...followed.events.map((e) => ({ branch: e.source, event: e.event, number: e.number })),
        ],
      };
  const state: ClusterState = {
    ...base,
    ...summarizeCluster(evaluation),
    problems: [],
    branches: sync.branches,
    filesRead,
    outcome: { type: outcome.type, ...(outcome.message ? { message: outcome.message } : {}) },
    openPullRequests: open.map((branch) => ({ number: branch.pullRequest! })),
    suspensions: withPullRequests(suspensions, followed.records),
    emergencies: followed.records,
    securityCheck: await publishSecurityCheck(ctx, evaluation.drift, previous.securityCheck),
  };
  await writeClusterState(store, repository, cluster, state);
  recordClusterMetrics(deps.metrics, repository, clusterConfig, latest.snapshot, state, deps.now());
  log.info(
    { repository, cluster, outcome: outcome.type, events: sync.events, blobsFetched: loaded.blobsFetched },
    outcome.message ?? 'reconciled',
  );
  return outcome;
}

/**
 * The drift pipeline in a job worker, under one budget and one time limit for the whole job, every
 * round of reading files the render asked for included.
 */
async function evaluateInWorker(
  deps: ReconcileDeps,
  repository: string,
  octokit: Parameters<typeof withFilesRead>[0],
  loaded: Parameters<typeof withFilesRead>[1],
  input: Omit<DriftInput, 'renderBudget' | 'files'>,
): Promise<Evaluation> {
  const { limits } = deps.isolation;
  const deadline = deps.now().getTime() + limits.timeMs;
  const compute = async (files: ReadonlyMap<string, string>): Promise<Evaluation> => {
    const left = Math.max(1, deadline - deps.now().getTime());
    const work = { drift: { ...input, files }, render: limits.render };
    return (await deps.isolation.render('reconcile', work, tenantOf(repository), left)) as Evaluation;
  };
  return withFilesRead(octokit, loaded, compute, filesReadBy);
}

function filesReadBy(evaluation: Evaluation): string[] {
  return evaluation.type === 'out-of-scope' ? [] : evaluation.filesRead;
}

async function identityFields(deps: ReconcileDeps): Promise<{ app: AppIdentity; appLogin: string | undefined }> {
  const app = await deps.appIdentity();
  return { app, appLogin: app.login };
}

/** Symlinks and submodules of the tree, which are listed but never read. */
function unfollowedIn(entries: ReadonlyMap<string, { kind: string }>): Map<string, UnfollowedKind> {
  const unfollowed = new Map<string, UnfollowedKind>();
  for (const [path, entry] of entries)
    if (entry.kind === 'symlink' || entry.kind === 'submodule') unfollowed.set(path, entry.kind);
  return unfollowed;
}
