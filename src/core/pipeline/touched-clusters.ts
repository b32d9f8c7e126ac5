// Which clusters a pull request touches: a changed file under the cluster's path, or any file its
// build read at head or at base (a shared base, a patch, a generator source, the config itself).
import type { ClusterConfig } from '../config/index.js';

export interface ClusterFiles {
  cluster: ClusterConfig;
  /** Files the cluster's build read at head and at base. */
  filesRead: Iterable<string>;
}

function under(path: string, dir: string): boolean {
  const root = dir.replace(/^\.\/?/, '').replace(/\/+$/, '');
  return root === '' || path === root || path.startsWith(`${root}/`);
}

export function touchedClusters(changed: readonly string[], clusters: readonly ClusterFiles[]): ClusterConfig[] {
  return clusters
    .filter(({ cluster, filesRead }) => {
      const read = new Set(filesRead);
      return changed.some((path) => read.has(path) || (cluster.path !== undefined && under(path, cluster.path)));
    })
    .map(({ cluster }) => cluster);
}
