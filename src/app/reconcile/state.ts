// What the App keeps per cluster (and per repository) between reconciles: the branches and pull
// requests it owns, the commits it wrote, and what the dashboard shows (counts, problems, PRs).
import type { Checklist, EmergencyChange, Suspension } from '../../core/emergency/index.js';
import type { PathSegment, SourceProblem } from '../../core/model/index.js';
import type { Store } from '../../store/types.js';

/** One drift branch (one per cluster, or per namespace with `groupBy: namespace`). */
export interface BranchState {
  branch: string;
  /** The namespace the branch codifies with `groupBy: namespace`; '' for the whole cluster. */
  group: string;
  pullRequest?: number;
  pullRequestUrl?: string;
  /** Fingerprints the open PR codifies: stored as decisions when it is closed unmerged. */
  fingerprints: string[];
  /** The last commit (and its tree) the App wrote on the branch. */
  lastWritten?: { commitSha: string; treeSha: string };
  /** Every commit the App wrote on the branch: anything else on it is someone's work. */
  appCommits: string[];
  /** Someone else committed on the branch: the App no longer writes it. */
  foreign?: { commits: string[]; since: string };
  /**
   * The open drift PR as the App last read or left it: head, title, body hash, labels, and when it was
   * last read from GitHub. A reconcile that changes nothing trusts it (no PR read) for an hour,
   * unless a webhook about the branch or its PR arrived since (RepositoryState.branchEvents).
   */
  pullRequestSeen?: { headSha: string; title: string; bodyHash: string; labels: string[]; verifiedAt: string };
}

export type ReconcileOutcomeType =
  | 'codified' | 'no-drift' | 'not-configured' | 'config-invalid' | 'manifest-problems' | 'self-check-failed' | 'out-of-scope' | 'not-installed' | 'no-snapshot'
  /** The queue gave the job up (its last attempt failed, or the App did not survive it). */
  | 'failed';

export interface ClusterState {
  lastReconcileAt?: string;
  outcome?: { type: ReconcileOutcomeType; message?: string };
  snapshot?: { id: string; capturedAt: string };
  headSha?: string;
  drift?: {
    /** Resources with persistent drift, by the cause of their changes (a resource counts once per cause). */
    byCause: Record<string, number>;
    resources: number;
    /** Changes seen but not yet in enough consecutive snapshots. */
    pending: number;
    /** Changes declined earlier (a drift PR closed unmerged). */
    declined: number;
    /** Drift reported instead of codified, with the reason. */
    reported: Array<{ resource: string; field?: string; reason: string }>;
  };
  /** `segments` name keyed list items by key, for the dashboard's field paths. */
  conflicts?: Array<{ resource: string; path: string; segments?: PathSegment[]; manager: string; fix: string }>;
  ignored?: Array<{ reason: string; count: number }>;
  health?: { degraded: number; suspended: number };
  /** Open drift PRs (the first one is the cluster's PR with `groupBy: cluster`). */
  openPullRequests?: Array<{ number: number; url?: string; branch: string }>;
  openPullRequest?: number;
  problems?: SourceProblem[];
  branches?: Record<string, BranchState>;
  /** The files the last render read: fetched up front by the next reconcile. */
  filesRead?: string[];
  /** Sources told to stop reconciling in the latest snapshot (dashboard, metric, deadline alert). */
  suspensions?: SuspensionState[];
  /** Emergency changes followed from their drift PR to "verified" (or "undone"), by suspension id. */
  emergencies?: Record<string, EmergencyRecord>;
}

export interface SuspensionState {
  suspension: Suspension;
  /** When it was written, or (sinceSeen) the first snapshot that showed it. */
  since: string;
  sinceSeen?: boolean;
  /** The emergency drift PR of changes made under it (until verified or undone). */
  pullRequest?: number;
  /** That PR is merged: what is left is the resume. */
  merged?: boolean;
}

export interface EmergencyRecord {
  suspension: Suspension;
  since: string;
  sinceSeen?: boolean;
  branch: string;
  pullRequest: number;
  /** What the fix set, field by field: checked against live after the resume. */
  changes: EmergencyChange[];
  checklist: Checklist;
  /** The merge commit, once the PR is merged. */
  mergeSha?: string;
  /** Capture time of the first snapshot that showed the source reconciling again. */
  resumedAt?: string;
  outcome?: 'verified' | 'undone';
  /** The "fix undone" alert issue. */
  alertIssue?: number;
}

/**
 * Repository-wide state (cluster ''): the config problems of the default branch's HEAD, and what
 * lets the next reconcile skip reads: the default branch's name and the HEAD last read (its tree).
 */
export interface RepositoryState {
  configCheckedAt?: string;
  headSha?: string;
  /** The root tree of `headSha`. */
  headTreeSha?: string;
  configProblems?: SourceProblem[];
  defaultBranch?: string;
  /** When `defaultBranch` was last read from GitHub. */
  defaultBranchCheckedAt?: string;
  /** When `headSha` was learned: read from GitHub, or from a push to the default branch. */
  headAt?: string;
  /** A push webhook did not follow on from `headSha` (one missed, or out of order): read HEAD again. */
  headStale?: boolean;
  /** Branch → when the last pull_request or push webhook about it (or its PR) arrived. */
  branchEvents?: Record<string, string>;
}

export async function readRepositoryState(store: Store, repository: string): Promise<RepositoryState> {
  return (await store.getState<RepositoryState>(repository.toLowerCase(), '')) ?? {};
}

export async function readClusterState(store: Store, repository: string, cluster: string): Promise<ClusterState> {
  return (await store.getState<ClusterState>(repository.toLowerCase(), cluster)) ?? {};
}

export async function writeClusterState(store: Store, repository: string, cluster: string, state: ClusterState): Promise<void> {
  await store.setState(repository.toLowerCase(), cluster, state);
}

export async function updateRepositoryState(store: Store, repository: string, state: RepositoryState): Promise<void> {
  const current = await readRepositoryState(store, repository);
  await store.setState(repository.toLowerCase(), '', { ...current, ...state });
}

/**
 * Records the HEAD a reconcile read from GitHub, unless a push learned a newer one while it read
 * (the push's job comes next and must not start from the older HEAD).
 */
export async function recordHeadRead(store: Store, repository: string, read: { headSha: string; treeSha: string; defaultBranch: string; defaultBranchRead: boolean }, readAt: Date): Promise<void> {
  const current = await readRepositoryState(store, repository);
  const newer = current.headAt !== undefined && Date.parse(current.headAt) > readAt.getTime();
  const at = readAt.toISOString();
  await store.setState(repository.toLowerCase(), '', {
    ...current,
    ...(newer ? {} : { headSha: read.headSha, headTreeSha: read.treeSha, headAt: at, headStale: false, defaultBranch: read.defaultBranch }),
    ...(read.defaultBranchRead && !newer ? { defaultBranchCheckedAt: at } : {}),
  });
}

/**
 * A push to the default branch names its new HEAD (commit and tree): recorded, so the reconcile it
 * starts reads nothing. One that does not follow on from the HEAD known (a push missed, webhooks out
 * of order, a branch deleted) makes the next reconcile read HEAD from GitHub instead.
 */
export async function recordPushedHead(store: Store, repository: string, push: { defaultBranch: string; before: string; after: string; treeSha?: string }, at: Date): Promise<'recorded' | 'stale'> {
  const current = await readRepositoryState(store, repository);
  if (current.headSha === push.after && current.headTreeSha === push.treeSha) return 'recorded';
  const follows = push.treeSha !== undefined && current.headSha === push.before && current.defaultBranch === push.defaultBranch;
  const next: RepositoryState = follows
    ? { ...current, headSha: push.after, headTreeSha: push.treeSha, headAt: at.toISOString(), headStale: false }
    : { ...current, headStale: true };
  await store.setState(repository.toLowerCase(), '', next);
  return follows ? 'recorded' : 'stale';
}

/**
 * A pull_request or push webhook about a branch (its PR edited, closed, labelled, pushed to): what
 * the App remembers of the branch's PR is read from GitHub again before it is relied on.
 */
export async function recordBranchEvent(store: Store, repository: string, branch: string, at: Date): Promise<void> {
  const current = await readRepositoryState(store, repository);
  await store.setState(repository.toLowerCase(), '', { ...current, branchEvents: { ...current.branchEvents, [branch]: at.toISOString() } });
}
