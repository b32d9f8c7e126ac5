// A drift PR closed without merge is a decision: its fingerprints are stored so the same drift
// (same live values) is not proposed again. The PR is found through the cluster states.
import type { GitHubClient } from '../../github/index.js';
import type { Store } from '../../store/types.js';
import { splitRepository } from '../github-client.js';
import { readClusterState, writeClusterState } from './state.js';

export type DeclineResult =
  { type: 'recorded'; cluster: string; fingerprints: number } | { type: 'not-ours'; reason: string };

/**
 * A webhook only says a pull request was closed; the decision it records outlives the PR, so the PR
 * is read from GitHub first: still closed, not merged, and still from the drift branch.
 */
export async function confirmClosedUnmerged(
  octokit: GitHubClient,
  input: { repository: string; branch: string; number: number },
): Promise<DeclineResult | undefined> {
  const { owner, repo } = splitRepository(input.repository);
  const { data: pull } = await octokit.rest.pulls.get({ owner, repo, pull_number: input.number });
  const notOurs = (reason: string): DeclineResult => ({
    type: 'not-ours',
    reason: `#${input.number} on GitHub ${reason}: no decision recorded`,
  });
  if (pull.state !== 'closed') return notOurs(`is ${pull.state}`);
  if (pull.merged_at) return notOurs('was merged');
  if (pull.head.ref !== input.branch || pull.head.repo?.full_name?.toLowerCase() !== input.repository.toLowerCase()) {
    return notOurs(
      `comes from ${pull.head.repo?.full_name ?? '(deleted repository)'}:${pull.head.ref}, not ${input.branch}`,
    );
  }
  return undefined;
}

/** `confirm` runs once the PR is known as a drift PR, before anything is recorded; a result stops it. */
export async function recordDeclinedPullRequest(
  store: Store,
  input: { repository: string; branch: string; number: number; decidedAt: string },
  confirm: () => Promise<DeclineResult | undefined> = async () => undefined,
): Promise<DeclineResult> {
  const clusters = (await store.listClusters()).filter(
    (meta) => meta.repository.toLowerCase() === input.repository.toLowerCase(),
  );
  for (const meta of clusters) {
    const state = await readClusterState(store, meta.repository, meta.cluster);
    const branch = state.branches?.[input.branch];
    if (!branch || branch.pullRequest !== input.number) continue;
    const refused = await confirm();
    if (refused) return refused;
    await store.recordDecisions(
      branch.fingerprints.map((fingerprint) => ({
        repository: meta.repository,
        cluster: meta.cluster,
        fingerprint,
        pullRequest: input.number,
        decidedAt: input.decidedAt,
      })),
    );
    // The branch stays known (its commits are the App's) but no longer has a PR to update.
    const { pullRequest: _closed, ...rest } = branch;
    const openPullRequests = (state.openPullRequests ?? []).filter((pr) => pr.number !== input.number);
    await writeClusterState(store, meta.repository, meta.cluster, {
      ...state,
      branches: { ...state.branches, [input.branch]: { ...rest, fingerprints: [] } },
      openPullRequests,
    });
    return { type: 'recorded', cluster: meta.cluster, fingerprints: branch.fingerprints.length };
  }
  return { type: 'not-ours', reason: `no cluster of ${input.repository} has #${input.number} open on ${input.branch}` };
}
