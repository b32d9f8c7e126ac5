// The "<namespace>/<name> is not reconciling" alert: decided in core (decideNotReconciling). The App
// gathers what the decision reads first — the snapshot's objects, HEAD, and from GitHub the commits
// between each stopped source's applied revision and HEAD (commitsToCompare) — then executes the
// issues it opens and closes, and records the reconcilers it keeps watching.
import type { ClusterConfig } from '../../core/config/index.js';
import {
  commitsToCompare,
  decideNotReconciling,
  withReconcilerIssues,
  type Comparison,
  type NotReconcilingInput,
} from '../../core/decide/index.js';
import type { GitHubClient, RepoRef } from '../../github/index.js';
import type { WatchState } from './alert-state.js';
import { executeAlertActions, type AlertChange, type AlertWriter } from './execute-alerts.js';

/** What the snapshot and the repository show: the live objects, and HEAD and when the App learned it. */
export type ReconcilingInput = Pick<NotReconcilingInput, 'items' | 'head'>;

/** GitHub lists at most this many changed files in a comparison: a full list may be cut. */
const COMPARE_FILES_LIMIT = 300;

/**
 * GitHub's comparison of `base` with `head`: the commits in between, or 'unrelated' when HEAD does not
 * follow it; and the files it changes (old and new names), unless GitHub's list may be cut.
 */
async function compare(
  octokit: GitHubClient,
  repo: RepoRef,
  base: string,
  head: string,
): Promise<{ commits: Comparison; files?: string[] }> {
  try {
    const { data } = await octokit.rest.repos.compareCommits({ ...repo, base, head });
    if (data.status !== 'ahead') return { commits: 'unrelated' };
    const commits = data.commits.map((commit) => ({ sha: commit.sha, message: commit.commit.message }));
    const listed = data.files ?? [];
    if (listed.length >= COMPARE_FILES_LIMIT) return { commits };
    const files = listed.flatMap((file) => [
      file.filename,
      ...(file.previous_filename ? [file.previous_filename] : []),
    ]);
    return { commits, files };
  } catch {
    // A revision GitHub does not know here (another repository, a rewritten history).
    return { commits: 'unrelated' };
  }
}

/** Gathers the comparisons the decision reads, decides, executes, and records what stays watched. */
export async function checkNotReconciling(
  writer: AlertWriter,
  cluster: ClusterConfig,
  gathered: ReconcilingInput,
  state: WatchState,
  now: Date,
): Promise<AlertChange[]> {
  const previous = state.notReconciling?.[cluster.name] ?? [];
  const input: NotReconcilingInput = { cluster, ...gathered, previous, now: now.toISOString() };
  const comparisons: Record<string, Comparison> = {};
  const changedFiles: Record<string, string[]> = {};
  for (const applied of commitsToCompare(input)) {
    const compared = await compare(writer.octokit, writer.repo, applied, input.head!.sha);
    comparisons[applied] = compared.commits;
    if (compared.files) changedFiles[applied] = compared.files;
  }
  const decision = decideNotReconciling(input, comparisons, changedFiles);
  const { changes, opened } = await executeAlertActions(writer, decision.actions);
  const next = withReconcilerIssues(cluster.name, decision.next, opened);
  const { [cluster.name]: _replaced, ...others } = state.notReconciling ?? {};
  state.notReconciling = next.length > 0 ? { ...others, [cluster.name]: next } : others;
  return changes;
}
