// What the App keeps per cluster (and per repository) between reconciles: the branches and pull
// requests it owns, the commits it wrote, and what the dashboard shows (counts, problems, PRs).
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
}

export type ReconcileOutcomeType =
  | 'codified' | 'no-drift' | 'not-configured' | 'config-invalid' | 'manifest-problems' | 'self-check-failed' | 'out-of-scope' | 'not-installed' | 'no-snapshot';

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
