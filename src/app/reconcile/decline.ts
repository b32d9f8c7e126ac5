// A drift PR closed without merge is a decision: its fingerprints are stored so the same drift
// (same live values) is not proposed again. The PR is found through the cluster states.
import type { Store } from '../../store/types.js';
import { readClusterState, writeClusterState } from './state.js';

export type DeclineResult =
  | { type: 'recorded'; cluster: string; fingerprints: number }
  | { type: 'not-ours'; reason: string };

export async function recordDeclinedPullRequest(store: Store, input: { repository: string; branch: string; number: number; decidedAt: string }): Promise<DeclineResult> {
  const clusters = (await store.listClusters()).filter((meta) => meta.repository.toLowerCase() === input.repository.toLowerCase());
  for (const meta of clusters) {
    const state = await readClusterState(store, meta.repository, meta.cluster);
    const branch = state.branches?.[input.branch];
    if (!branch || branch.pullRequest !== input.number) continue;
    await store.recordDecisions(branch.fingerprints.map((fingerprint) => ({ repository: meta.repository, cluster: meta.cluster, fingerprint, pullRequest: input.number, decidedAt: input.decidedAt })));
    // The branch stays known (its commits are the App's) but no longer has a PR to update.
    const { pullRequest: _closed, ...rest } = branch;
    const openPullRequests = (state.openPullRequests ?? []).filter((pr) => pr.number !== input.number);
    await writeClusterState(store, meta.repository, meta.cluster, {
      ...state, branches: { ...state.branches, [input.branch]: { ...rest, fingerprints: [] } }, openPullRequests,
      openPullRequest: openPullRequests[0]?.number,
    });
    return { type: 'recorded', cluster: meta.cluster, fingerprints: branch.fingerprints.length };
  }
  return { type: 'not-ours', reason: `no cluster of ${input.repository} has #${input.number} open on ${input.branch}` };
}
