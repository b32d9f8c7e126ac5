// A cluster's desired state: its path in the repository rendered (plain manifests or a kustomization
// root), namespaced manifests that name none put in the cluster's default namespace.
import type { ClusterConfig } from '../config/index.js';
import { renderManifests, type ParseCache, type RenderBudget, type UnfollowedKind } from '../manifests/index.js';
import type { RenderResult } from '../model/index.js';

export interface RenderClusterOptions {
  /** Files parsed once for several renders (head and base of every cluster). */
  cache?: ParseCache;
  /** Symlinks and submodules of the tree: named as such when a kustomization refers to one. */
  unfollowed?: ReadonlyMap<string, UnfollowedKind>;
  /** Nodes and time the render may use. */
  budget?: RenderBudget;
}

/**
 * A cluster's path as a directory inside the repository (`./apps/prod/` → `apps/prod`). A path that
 * leaves the repository stays as written, so the renderer refuses it instead of rendering the root.
 */
export function clusterRoot(path: string): string {
  const root = path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  // `.` and `./` are the repository's root.
  return root === '.' ? '' : root;
}

export function renderCluster(
  files: ReadonlyMap<string, string>,
  cluster: Pick<ClusterConfig, 'path' | 'defaultNamespace'>,
  options: RenderClusterOptions = {},
): RenderResult {
  return renderManifests(files, clusterRoot(cluster.path), {
    defaultNamespace: cluster.defaultNamespace,
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.unfollowed ? { unfollowed: options.unfollowed } : {}),
    ...(options.budget ? { budget: options.budget } : {}),
  });
}
