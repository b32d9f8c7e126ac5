// Where a command's items come from: the cluster state each reconcile writes. A drift PR belongs to
// the one cluster whose branch it was opened from; so does the cluster's emergency switch issue, whose
// items are the switches it lists; any other pull request sees every cluster's items.
import type { CommandItem } from '../../core/commands/index.js';
import { keyId } from '../../core/model/index.js';
import type { Store } from '../../store/types.js';
import { readClusterState } from '../reconcile/state.js';

export interface ClusterItems {
  /** The repository as the cluster's snapshots name it (decisions are kept under it). */
  repository: string;
  cluster: string;
  items: CommandItem[];
}

export interface PullRequestItems {
  /**
   * Set when the pull request is a drift PR (its cluster, and only its branch's items) or the issue is
   * the cluster's emergency switch issue (`switchIssue`: only the switches it lists).
   */
  drift?: ClusterItems & { branch?: string; switchIssue?: true };
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
    const { repository: name, cluster } = meta;
    if (branch !== undefined && !drift)
      drift = { repository: name, cluster, branch, items: items.filter((i) => i.branch === branch) };
    else if (state.switchIssue?.issue === number && !drift) {
      const listed = new Set(state.switchIssue.switches.map((entry) => `${keyId(entry.key)} ${entry.path}`));
      const switches = items.filter((item) => listed.has(`${keyId(item.key)} ${item.path}`));
      drift = { repository: name, cluster, switchIssue: true, items: switches };
    }
  }
  return { ...(drift ? { drift } : {}), clusters };
}

/** Whether the issue is one of the repository's emergency switch issues (comment commands work there). */
export async function isSwitchIssue(store: Store, repository: string, number: number): Promise<boolean> {
  for (const meta of await store.listClusters()) {
    if (meta.repository.toLowerCase() !== repository.toLowerCase()) continue;
    const state = await readClusterState(store, meta.repository, meta.cluster);
    if (state.switchIssue?.issue === number) return true;
  }
  return false;
}
