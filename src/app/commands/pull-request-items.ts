// Where a command's items come from: the cluster state each reconcile writes. A drift PR belongs to
// the one cluster whose branch it was opened from; any other pull request sees every cluster's items.
import type { CommandItem } from '../../core/commands/index.js';
import type { Store } from '../../store/types.js';
import { readClusterState } from '../reconcile/state.js';

export interface ClusterItems {
  /** The repository as the cluster's snapshots name it (decisions are kept under it). */
  repository: string;
  cluster: string;
  items: CommandItem[];
}

export interface PullRequestItems {
  /** Set when the pull request is a drift PR: its cluster, and only its branch's items. */
  drift?: ClusterItems & { branch: string };
  /** Every cluster of the repository with its items. */
  clusters: ClusterItems[];
}

export async function pullRequestItems(store: Store, repository: string, number: number): Promise<PullRequestItems> {
  const metas = (await store.listClusters()).filter(
    (meta) => meta.repository.toLowerCase() === repository.toLowerCase(),
  );
  const clusters: ClusterItems[] = [];
  let drift: PullRequestItems['drift'];
  for (const meta of metas) {
    const state = await readClusterState(store, meta.repository, meta.cluster);
    const items = state.items ?? [];
    clusters.push({ repository: meta.repository, cluster: meta.cluster, items });
    const branch = Object.entries(state.branches ?? {}).find(([, entry]) => entry.pullRequest === number)?.[0];
    if (branch !== undefined && !drift)
      drift = {
        repository: meta.repository,
        cluster: meta.cluster,
        branch,
        items: items.filter((i) => i.branch === branch),
      };
  }
  return { ...(drift ? { drift } : {}), clusters };
}
