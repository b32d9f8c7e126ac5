// The reconcile job: the newest snapshot of a cluster against the default branch's HEAD, ending in
// a drift PR opened, updated, left alone or closed. Each early return records why, in the cluster
// state (the dashboard reads it) and the log.
import { createHash } from 'node:crypto';
import { JobLimitExceeded, tenantOf, type Isolation, type JobLimits } from '../isolation/index.js';
import type { Documents } from '../isolation/documents.js';
import type { AppIdentity } from '../../github/index.js';
import { liveStateDigest } from '../../core/classify/index.js';
import { findCluster, type ClusterConfig, type Config } from '../../core/config/index.js';
import type { DriftInput } from '../../core/pipeline/index.js';
import { showTime, type SourceProblem } from '../../core/model/index.js';
import { templateOverrides } from '../../core/report/index.js';
import type { UnfollowedKind } from '../../core/manifests/index.js';
import { commandItemsOf } from '../../core/commands/index.js';
import type { ItemDecision, Store } from '../../store/types.js';
import { decisionsByBranch, riskDecisionsOf, withIgnored } from './item-decisions.js';
import { NotInstalledError, splitRepository, type InstallationClients } from '../github-client.js';
import type { AppLogger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { keepRead, loadRepositoryAt, type KnownHead } from '../repository.js';
import { withFilesRead } from '../read-as-needed.js';
import { followUndone, summarizeCluster } from './cluster-summary.js';
import type { Evaluation } from './evaluate.js';
import { recordClusterMetrics } from './record-metrics.js';
import {
  readClusterState,
  readRepositoryState,
  recordHeadRead,
  rememberedHead,
  writeClusterState,
  type BranchState,
  type ClusterState,
  type RepositoryState,
  type SuspensionState,
  type ReconcileOutcomeType,
} from './state.js';
import { actionLine, decideReconcile, type ActionOf, type ReconcileAction } from '../../core/decide/index.js';
import { branchHead } from '../../github/index.js';
import { executeReconcile, type Executed } from './execute-actions.js';
import type { GitHubContext } from './github-context.js';
import { emergencySections, suspensionStates, withPullRequests } from './follow-emergency.js';

/** The summary's drift with what the controller is about to undo and what it undid. */
function withUndone(
  summary: ReturnType<typeof summarizeCluster>,
  undo: ReturnType<typeof followUndone>,
): ReturnType<typeof summarizeCluster> {
  return summary.drift ? { ...summary, drift: { ...summary.drift, ...undo } } : summary;
}

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

/** What every stage of one reconcile shares: the target, the snapshot, the state before, and how to stop. */
interface Run {
  deps: ReconcileDeps;
  repository: string;
  cluster: string;
  latest: NonNullable<Awaited<ReturnType<Store['latestSnapshot']>>>;
  previous: ClusterState;
  /** The cluster state every outcome starts from. */
  base: ClusterState;
  /** Records an early outcome (state and log) and returns it. */
  stop: (
    type: ReconcileOutcomeType,
    message: string,
    problems?: SourceProblem[],
    state?: Partial<ClusterState>,
  ) => Promise<ReconcileOutcome>;
}

type Stage<T> = T | { outcome: ReconcileOutcome };
const stopped = <T extends object>(stage: Stage<T>): stage is { outcome: ReconcileOutcome } => 'outcome' in stage;

/**
 * The stages, in the order their side effects happen: the snapshot and the state before; the
 * repository at HEAD and its config; the drift pipeline (in a worker); the decision, a list of
 * actions (core/decide); the actions executed in their order, the cluster state recorded last.
 */
export async function reconcileCluster(deps: ReconcileDeps, target: ReconcileTarget): Promise<ReconcileOutcome> {
  const run = await startRun(deps, target);
  if (stopped(run)) return run.outcome;
  const repository = await readRepository(run, target);
  if (stopped(repository)) return repository.outcome;
  const evaluated = await evaluateCluster(run, repository);
  if (stopped(evaluated)) return evaluated.outcome;
  return execute(run, repository, evaluated, await decide(run, repository, evaluated));
}

async function startRun(deps: ReconcileDeps, target: ReconcileTarget): Promise<Stage<Run>> {
  const { store, log } = deps;
  const { repository, cluster } = target;
  const latest = await store.latestSnapshot(repository, cluster);
  if (!latest) return { outcome: { type: 'no-snapshot', message: 'no snapshot stored for this cluster' } };
  const previous = await readClusterState(store, repository, cluster);
  // A render a limit stopped is remembered only until the next outcome.
  const { limitStopped: _stopped, ...kept } = previous;
  const base: ClusterState = {
    ...kept,
    lastReconcileAt: deps.now().toISOString(),
    liveDigest: liveStateDigest(latest.snapshot.items),
  };
  const stop = async (
    type: ReconcileOutcomeType,
    message: string,
    problems: SourceProblem[] = [],
    state: Partial<ClusterState> = {},
  ) => {
    log.warn({ repository, cluster, outcome: type, problems }, message);
    await writeClusterState(store, repository, cluster, { ...base, ...state, outcome: { type, message }, problems });
    return { type, message };
  };
  return { deps, repository, cluster, latest, previous, base, stop };
}

interface RepositoryRead {
  octokit: Awaited<ReturnType<InstallationClients['forRepository']>>;
  owner: string;
  repo: string;
  startedAt: Date;
  checkedAt: string;
  repositoryState: RepositoryState;
  loaded: Awaited<ReturnType<typeof loadRepositoryAt>>;
  config: Config;
  clusterConfig: ClusterConfig;
}

/** The repository at the default branch's HEAD (what the last run read fetched up front), and its config. */
async function readRepository(run: Run, target: ReconcileTarget): Promise<Stage<RepositoryRead>> {
  const { deps, repository, cluster, previous, stop } = run;
  const { store } = deps;
  let octokit;
  try {
    octokit = await deps.clients.forRepository(repository);
  } catch (error) {
    if (error instanceof NotInstalledError) return { outcome: await stop('not-installed', error.message) };
    throw error;
  }
  const { owner, repo } = splitRepository(repository);
  const startedAt = deps.now();
  const repositoryState = await readRepositoryState(store, repository);
  const known = remembered(repositoryState, target, startedAt);
  // What the render read last time is fetched up front; a first run fetches every manifest.
  const readBefore = new Set(previous.filesRead ?? []);
  const fetch = readBefore.size > 0 ? { fetch: (path: string) => readBefore.has(path) } : {};
  const maxBytes = deps.isolation.limits.render?.maxBytes;
  const reading = { ...known, ...fetch, now: startedAt.getTime(), ...(maxBytes === undefined ? {} : { maxBytes }) };
  const loaded = await loadRepositoryAt(octokit, { owner, repo, ...reading }, store);
  const checkedAt = deps.now().toISOString();
  if (!known.trustedHead) {
    const { headSha, treeSha, defaultBranch, defaultBranchRead } = loaded;
    await recordHeadRead(store, repository, { headSha, treeSha, defaultBranch, defaultBranchRead }, startedAt);
  }
  if (!loaded.config.ok) {
    const message = `.github/driftback.yml at ${loaded.headSha.slice(0, 7)} has problems: fix them and push`;
    return { outcome: await stop('config-invalid', message, loaded.config.problems) };
  }
  const config = loaded.config.config;
  const clusterConfig = findCluster(config, cluster);
  if (!clusterConfig) {
    const message = `a snapshot arrived for cluster "${cluster}", which .github/driftback.yml does not list: add it under clusters (name and path), or check the agent's DRIFTBACK_CLUSTER`;
    return { outcome: await stop('not-configured', message) };
  }
  return { octokit, owner, repo, startedAt, checkedAt, repositoryState, loaded, config, clusterConfig };
}

interface Evaluated {
  evaluation: Exclude<Evaluation, { type: 'manifest-problems' } | { type: 'out-of-scope' }>;
  filesRead: string[];
  /** Decisions people made on single items with PR comment commands. */
  decisions: ItemDecision[];
}

/** The drift pipeline on the snapshot, its history and the decisions; the observation recorded. */
async function evaluateCluster(run: Run, read: RepositoryRead): Promise<Stage<Evaluated>> {
  const { deps, repository, cluster, latest, base, stop } = run;
  const { store } = deps;
  const { config, clusterConfig, loaded } = read;
  // The snapshots before this one that the gate reads: the same ones when this snapshot is reconciled again.
  const history = (await store.observationHistory(repository, cluster, config.drift.minSnapshots))
    .filter((entry) => entry.snapshotId !== latest.meta.id)
    .slice(0, Math.max(0, config.drift.minSnapshots - 1));
  // What people decided: PRs closed unmerged and `ignore` commands are not proposed again; `allow` lets risky drift be codified.
  const decisions = await store.itemDecisions(repository, cluster);
  const declined = withIgnored(await store.declinedFingerprints(repository, cluster), decisions);
  const input: Omit<DriftInput, 'renderBudget' | 'files'> = {
    snapshot: latest.snapshot,
    config,
    cluster: clusterConfig,
    unfollowed: unfollowedIn(loaded.entries),
    history: history.map((entry) => entry.fingerprints),
    declined,
    riskDecisions: riskDecisionsOf(decisions),
  };
  const limitKey = renderInputsKey(loaded.treeSha, run.base.liveDigest, deps.isolation.limits);
  const limited = (message: string, at: string, stoppedBy = message) => {
    const problems = [{ file: clusterConfig.path ?? '.', message }];
    return stop('manifest-problems', message, problems, { limitStopped: { key: limitKey, message: stoppedBy, at } });
  };
  const memo = run.previous.limitStopped;
  if (memo && stillStopped(memo, limitKey, read.startedAt)) {
    const retry = new Date(Date.parse(memo.at) + LIMIT_MEMO_MS).toISOString();
    const again = `not rendered again with the same HEAD and live state: tried again at ${showTime(retry, memo.at)}, or at once when either changes`;
    return { outcome: await limited(`${memo.message} (${again})`, memo.at, memo.message) };
  }
  let evaluation: Evaluation;
  try {
    evaluation = await evaluateInWorker(deps, repository, read.octokit, loaded, input);
  } catch (error) {
    if (!(error instanceof JobLimitExceeded)) throw error;
    return { outcome: await limited(error.message, read.startedAt.toISOString()) };
  }
  const filesRead = filesReadBy(evaluation);
  await keepRead(store, loaded, filesRead, read.startedAt.getTime());
  if (evaluation.type === 'manifest-problems') {
    await writeClusterState(store, repository, cluster, { ...base, filesRead });
    const message = `the manifests under ${clusterConfig.path} do not render: fix them and push`;
    return { outcome: await stop('manifest-problems', message, evaluation.problems) };
  }
  if (evaluation.type === 'out-of-scope') return { outcome: await stop('out-of-scope', evaluation.message) };
  await store.recordObservations(repository, cluster, latest.meta.id, latest.meta.capturedAt, evaluation.fingerprints);
  return { evaluation, filesRead, decisions };
}

/** How long a render a job limit stopped is not tried again with the same inputs. */
const LIMIT_MEMO_MS = 60 * 60_000;

/** What a reconcile's render depends on: HEAD's tree, the live state, and the limits it ran under. */
function renderInputsKey(treeSha: string, liveDigest: string | undefined, limits: JobLimits): string {
  return createHash('sha256')
    .update(JSON.stringify([treeSha, liveDigest ?? '', limits]))
    .digest('hex');
}

/** True while a render stopped by a limit, with these inputs, is not to be tried again. */
function stillStopped(memo: { key: string; at: string }, key: string, now: Date): boolean {
  return memo.key === key && now.getTime() - Date.parse(memo.at) < LIMIT_MEMO_MS;
}

/**
 * The decision (core/decide): the actions of this reconcile, from the drift groups, the branches and
 * emergency records before and which of the branches left to a person GitHub still has.
 */
async function decide(run: Run, read: RepositoryRead, evaluated: Evaluated) {
  const { cluster, latest, previous } = run;
  const { evaluation } = evaluated;
  const suspensions = suspensionStates(evaluation.suspensions, previous.suspensions, latest.meta.capturedAt);
  const emergency = emergencySections(
    evaluation.emergency,
    evaluation.groups,
    suspensions,
    previous.emergencies,
    read.config.emergency.resumeWithin,
  );
  const ctx = await actionContext(run, read, evaluated, emergency);
  const branches = previous.branches ?? {};
  const actions = decideReconcile({
    cluster,
    config: read.config,
    headSha: read.loaded.headSha,
    groups: evaluation.groups,
    drift: evaluation.drift,
    compared: evaluation.diff,
    previous: {
      branches,
      securityCheck: previous.securityCheck,
      emergencies: previous.emergencies,
      ...(previous.switchIssue ? { switchIssue: previous.switchIssue } : {}),
    },
    foreignBranches: await foreignBranchesLeft(ctx, evaluation.groups, branches),
    emergency,
  });
  return { ctx, actions, suspensions };
}

/** What executing this reconcile's actions needs: the repository read, the cluster, templates and decisions. */
async function actionContext(
  run: Run,
  read: RepositoryRead,
  evaluated: Evaluated,
  emergency: ReturnType<typeof emergencySections>,
) {
  const { deps, cluster, latest, previous } = run;
  const { evaluation } = evaluated;
  return {
    octokit: read.octokit,
    owner: read.owner,
    repo: read.repo,
    defaultBranch: read.loaded.defaultBranch,
    baseSha: read.loaded.headSha,
    baseListing: read.loaded.listing,
    config: read.config,
    cluster,
    snapshot: { id: latest.meta.id, capturedAt: latest.meta.capturedAt },
    ...(await identityFields(deps)),
    branchEvents: read.repositoryState.branchEvents,
    now: deps.now,
    log: deps.log,
    templates: templateOverrides(read.loaded.files),
    documents: ((name, ...args) => deps.isolation.document(tenantOf(run.repository), name, ...args)) as Documents,
    emergency,
    decisions: decisionsByBranch(
      evaluated.decisions,
      previous.branches ?? {},
      evaluation.groups,
      previous.switchIssue?.issue,
    ),
  };
}

/** The branches recorded as someone else's that GitHub still has (one read each; a deleted one is the App's again). */
async function foreignBranchesLeft(
  ctx: GitHubContext,
  groups: readonly { branch: string }[],
  branches: Readonly<Record<string, BranchState>>,
): Promise<Set<string>> {
  const grouped = new Set(groups.map((group) => group.branch));
  const left = new Set<string>();
  for (const [branch, before] of Object.entries(branches)) {
    const managed = grouped.has(branch) || branch.startsWith(ctx.config.pullRequests.branchPrefix);
    if (!before.foreign || !managed) continue;
    if ((await branchHead(ctx.octokit, { owner: ctx.owner, repo: ctx.repo }, branch)) !== undefined) left.add(branch);
  }
  return left;
}

/** The actions executed in their order; the last one records the cluster state. */
async function execute(
  run: Run,
  read: RepositoryRead,
  evaluated: Evaluated,
  decided: Awaited<ReturnType<typeof decide>>,
): Promise<ReconcileOutcome> {
  const { deps, repository, cluster, latest, previous } = run;
  const { evaluation } = evaluated;
  let outcome: ReconcileOutcome | undefined;
  await executeReconcile(
    {
      ctx: decided.ctx,
      previous: {
        branches: previous.branches ?? {},
        emergencies: previous.emergencies,
        ...(previous.switchIssue ? { switchIssue: previous.switchIssue } : {}),
      },
      follow: {
        items: latest.snapshot.items,
        diff: evaluation.diff,
        suspended: new Set(decided.suspensions.map((state) => state.suspension.id)),
      },
      recordDecisions: (decisions) =>
        deps.store.recordDecisions(
          decisions.map((decision) => ({ ...decision, repository, cluster, decidedAt: read.checkedAt })),
        ),
      recordState: async (executed, action) => {
        outcome = await recordReconcile(run, read, evaluated, { ...executed, ...decided, action });
      },
    },
    decided.actions,
  );
  return outcome!;
}

function outcomeOf(evaluated: Evaluated, executed: Executed): ReconcileOutcome {
  const { sync, followed } = executed;
  const failed = sync.selfCheckFailures[0];
  if (failed) {
    const message = `${failed.branch}: the edits did not pass the self-check, nothing was written: ${failed.reason}`;
    return { type: 'self-check-failed', message, events: sync.events };
  }
  const emergencyEvents = followed.events.map((e) => ({ branch: e.source, event: e.event, number: e.number }));
  const events = [...sync.events, ...emergencyEvents];
  const { groups } = evaluated.evaluation;
  if (groups.length === 0) return { type: 'no-drift', events };
  if (groups.some((group) => group.codify.edits.size > 0)) return { type: 'codified', events };
  return { type: 'reported', message: reportedOnly(groups, executed.switchIssue), events };
}

/** What a run whose drift writes nothing into Git did: a switch waits on its issue, or the changes are only reported. */
function reportedOnly(groups: Evaluated['evaluation']['groups'], switchIssue: Executed['switchIssue']): string {
  if (switchIssue) return `emergency switch waiting for a decision on #${switchIssue.issue}`;
  const reported = groups.reduce((count, group) => count + group.codify.reported.length, 0);
  return `${reported} ${reported === 1 ? 'change' : 'changes'} reported, nothing to codify`;
}

/** The cluster state, metrics and log line of the run. */
async function recordReconcile(
  run: Run,
  read: RepositoryRead,
  evaluated: Evaluated,
  done: Executed & {
    suspensions: SuspensionState[];
    action: ActionOf<'state.record'>;
    actions: readonly ReconcileAction[];
  },
): Promise<ReconcileOutcome> {
  const { deps, repository, cluster, latest, previous, base } = run;
  const { evaluation, filesRead } = evaluated;
  const { sync, followed, suspensions } = done;
  const open = Object.values(sync.branches).filter((branch) => branch.pullRequest !== undefined && !branch.foreign);
  const outcome = outcomeOf(evaluated, done);
  const state: ClusterState = {
    ...base,
    ...withUndone(summarizeCluster(evaluation), followUndone(evaluation, previous.drift, latest.snapshot)),
    problems: [],
    branches: sync.branches,
    filesRead,
    outcome: { type: outcome.type, ...(outcome.message ? { message: outcome.message } : {}) },
    openPullRequests: open.map((branch) => ({ number: branch.pullRequest! })),
    suspensions: withPullRequests(suspensions, followed.records),
    emergencies: followed.records,
    securityCheck: done.action.securityCheck,
    switchIssue: done.switchIssue,
    items: commandItemsOf(evaluation.groups),
  };
  await writeClusterState(deps.store, repository, cluster, state);
  recordClusterMetrics(deps.metrics, repository, read.clusterConfig, latest.snapshot, state, deps.now());
  const blobsFetched = read.loaded.blobsFetched;
  deps.log.info(
    {
      repository,
      cluster,
      outcome: outcome.type,
      events: sync.events,
      blobsFetched,
      // The decision executed, as `driftback reconcile --dry-run` prints it.
      actions: done.actions.map((each) => actionLine(each, false).summary),
    },
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
