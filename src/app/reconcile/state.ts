// What the App keeps per cluster (and per repository) between reconciles: the branches and pull
// requests it owns, the commits it wrote, and what the dashboard shows (counts, problems, PRs).
import type { Store } from '../../store/types.js';
import type { ClusterState, RepositoryState } from '../../store/state/index.js';

// The shapes live with their schemas in src/store/state/schemas.ts: add a field there.
export type {
  BranchState,
  ClusterState,
  EmergencyRecord,
  ReconcileOutcomeType,
  RepositoryState,
  SuspensionState,
} from '../../store/state/index.js';

type StateStore = Pick<Store, 'getState' | 'setState'>;

export async function readRepositoryState(
  store: Pick<Store, 'getState'>,
  repository: string,
): Promise<RepositoryState> {
  return (await store.getState({ kind: 'repository', repository })) ?? {};
}

async function writeRepositoryState(
  store: Pick<Store, 'setState'>,
  repository: string,
  state: RepositoryState,
): Promise<void> {
  await store.setState({ kind: 'repository', repository }, state);
}

// A default branch switched to another existing branch sends no push to the old one, and a
// force-push can give the same tree a new commit; both are read afresh at least this often.
const REMEMBERED_MAX_AGE_MS = 60 * 60 * 1000;

export interface RememberedHead {
  defaultBranch: string;
  /** The HEAD as last read or as the push webhooks since named it (commit and root tree). */
  head?: { commitSha: string; treeSha: string };
  /** A push did not follow on from the remembered HEAD: HEAD must be checked. */
  stale: boolean;
}

/**
 * The default branch's name and HEAD as remembered, within the hour after they were last read from
 * GitHub; undefined once the hour is up (the safety net for a webhook never delivered).
 */
export function rememberedHead(state: RepositoryState, now: Date): RememberedHead | undefined {
  const checkedAt = state.defaultBranchCheckedAt ? Date.parse(state.defaultBranchCheckedAt) : Number.NaN;
  if (state.defaultBranch === undefined || !(now.getTime() - checkedAt < REMEMBERED_MAX_AGE_MS)) return undefined;
  const head =
    state.headSha && state.headTreeSha ? { commitSha: state.headSha, treeSha: state.headTreeSha } : undefined;
  return { defaultBranch: state.defaultBranch, ...(head ? { head } : {}), stale: state.headStale === true };
}

export async function readClusterState(
  store: Pick<Store, 'getState'>,
  repository: string,
  cluster: string,
): Promise<ClusterState> {
  return (await store.getState({ kind: 'cluster', repository, cluster })) ?? {};
}

export async function writeClusterState(
  store: Pick<Store, 'setState'>,
  repository: string,
  cluster: string,
  state: ClusterState,
): Promise<void> {
  await store.setState({ kind: 'cluster', repository, cluster }, state);
}

/**
 * Records the HEAD a reconcile read from GitHub, unless a push learned a newer one while it read
 * (the push's job comes next and must not start from the older HEAD).
 */
export async function recordHeadRead(
  store: StateStore,
  repository: string,
  read: { headSha: string; treeSha: string; defaultBranch: string; defaultBranchRead: boolean },
  readAt: Date,
): Promise<void> {
  const current = await readRepositoryState(store, repository);
  const newer = current.headAt !== undefined && Date.parse(current.headAt) > readAt.getTime();
  const at = readAt.toISOString();
  await writeRepositoryState(store, repository, {
    ...current,
    ...(newer
      ? {}
      : {
          headSha: read.headSha,
          headTreeSha: read.treeSha,
          headAt: at,
          headStale: false,
          defaultBranch: read.defaultBranch,
        }),
    ...(read.defaultBranchRead && !newer ? { defaultBranchCheckedAt: at } : {}),
  });
}

/**
 * A push to the default branch names its new HEAD (commit and tree): recorded, so the reconcile it
 * starts reads nothing. One that does not follow on from the HEAD known (a push missed, webhooks out
 * of order, a branch deleted) makes the next reconcile read HEAD from GitHub instead.
 */
export async function recordPushedHead(
  store: StateStore,
  repository: string,
  push: { defaultBranch: string; before: string; after: string; treeSha?: string },
  at: Date,
): Promise<'recorded' | 'stale'> {
  const current = await readRepositoryState(store, repository);
  if (current.headSha === push.after && current.headTreeSha === push.treeSha) return 'recorded';
  const follows =
    push.treeSha !== undefined && current.headSha === push.before && current.defaultBranch === push.defaultBranch;
  const next: RepositoryState = follows
    ? { ...current, headSha: push.after, headTreeSha: push.treeSha, headAt: at.toISOString(), headStale: false }
    : { ...current, headStale: true };
  await writeRepositoryState(store, repository, next);
  return follows ? 'recorded' : 'stale';
}

/**
 * A pull_request or push webhook about a branch (its PR edited, closed, labelled, pushed to): what
 * the App remembers of the branch's PR is read from GitHub again before it is relied on.
 */
export async function recordBranchEvent(
  store: StateStore,
  repository: string,
  branch: string,
  at: Date,
): Promise<void> {
  const current = await readRepositoryState(store, repository);
  await writeRepositoryState(store, repository, {
    ...current,
    branchEvents: { ...current.branchEvents, [branch]: at.toISOString() },
  });
}
