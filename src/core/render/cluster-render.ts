// A cluster's desired state: what its sources apply. The cluster's path (when configured) is rendered
// (plain manifests or a kustomization root); the Flux Kustomizations and Argo CD Applications it
// declares, and those the snapshot holds, are followed to every path of this repository they apply,
// each rendered with its transforms and stamps (core/sources). Without controller objects the path
// is what kubectl applies. Namespaced manifests that name none go to the cluster's default namespace.
import { apiVersionsOf, type ChartCapabilities, type ChartRenderer } from '../charts/index.js';
import type { ClusterConfig, Config } from '../config/index.js';
import { renderBudget, type ParseCache, type RenderBudget, type UnfollowedKind } from '../manifests/index.js';
import { isClusterScopedKind, kindScopesOf, type KindScopes } from '../k8s/index.js';
import { keyId, type ResourceKey } from '../model/index.js';
import { setHooksAside } from '../sources/index.js';
import { renderClusterSources, type ClusterSourcesRender } from './source-worklist.js';
import type { LiveState } from '../model/index.js';

export interface RenderClusterOptions {
  /** Files parsed once for several renders (head and base of every cluster). */
  cache?: ParseCache;
  /** Symlinks and submodules of the tree: named as such when a kustomization refers to one. */
  unfollowed?: ReadonlyMap<string, UnfollowedKind>;
  /**
   * The job's budget (nodes, documents, bytes, time), shared with the job's other renders; default:
   * one for this render of the cluster (every source, every file) alone.
   */
  budget?: RenderBudget;
  /**
   * The cluster's live state: its Kustomizations and Applications (sources the repository does not
   * declare, their status), the ConfigMaps Flux substitutes from, argocd-cm's tracking method.
   * Default: none (the repository alone).
   */
  live?: LiveState;
  /**
   * Runs Helm for the charts the sources declare (an edge supplies it: src/helm). Default: none, and
   * every chart is reported, not rendered ("helm not found").
   */
  charts?: ChartRenderer;
}

/** What renderCluster needs of a cluster's config. */
export type ClusterTarget = Pick<ClusterConfig, 'defaultNamespace'> &
  Partial<Pick<ClusterConfig, 'name' | 'path' | 'controller'>>;

export type ClusterRender = ClusterSourcesRender;

/**
 * A cluster's path as a directory inside the repository (`./apps/prod/` → `apps/prod`; none: the root).
 * A path that leaves the repository stays as written, so the renderer refuses it instead of rendering the root.
 */
export function clusterRoot(path: string | undefined): string {
  const root = (path ?? '').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  // `.` and `./` are the repository's root.
  return root === '.' ? '' : root;
}

export function renderCluster(
  files: ReadonlyMap<string, string>,
  cluster: ClusterTarget,
  options: RenderClusterOptions = {},
): ClusterRender {
  const live = options.live?.items ?? [];
  // Which kinds are namespaced: the snapshot's discovery, its CRDs and objects (the repository's CRDs
  // are asked by each render, and once more below for those another source renders).
  const kindScopes = kindScopesOf({ served: options.live?.server?.resources ?? [], live });
  const rendered = renderClusterSources({
    files,
    live,
    ...(cluster.path !== undefined ? { path: clusterRoot(cluster.path) } : {}),
    ...(cluster.controller ? { controller: cluster.controller } : {}),
    cluster: cluster.name ?? '',
    defaultNamespace: cluster.defaultNamespace,
    kindScopes,
    ...(options.live?.repository ? { repository: options.live.repository } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.unfollowed ? { unfollowed: options.unfollowed } : {}),
    budget: options.budget ?? renderBudget(),
    ...(options.charts ? { charts: options.charts } : {}),
    capabilities: capabilitiesOf(options.live),
  });
  // Hooks (Argo CD, Helm) are not desired state: set aside after every source placed its objects.
  return setHooksAside(placeClusterScoped(rendered, kindScopes));
}

/** Helm's capabilities from the snapshot: the API server's version and the types its discovery serves. */
function capabilitiesOf(live: LiveState | undefined): ChartCapabilities {
  const gitVersion = live?.server?.gitVersion;
  return {
    ...(gitVersion ? { kubeVersion: gitVersion } : {}),
    apiVersions: apiVersionsOf(live?.server?.resources ?? []),
  };
}

/**
 * A kind whose CRD one source installs and another source's objects use: the render of the second did
 * not see the CRD, and may have put its cluster-scoped objects in a namespace. They are keyed without
 * one here, as the API server stores them (it drops the namespace of a cluster-scoped object).
 */
function placeClusterScoped(rendered: ClusterRender, known: KindScopes): ClusterRender {
  const scopes = kindScopesOf({ desired: rendered.objects.map((desired) => desired.object) }, known);
  const misplaced = (key: ResourceKey): boolean =>
    key.namespace !== '' && isClusterScopedKind(scopes, key.group, key.kind);
  if (!rendered.objects.some((desired) => misplaced(desired.key))) return rendered;
  const place = (key: ResourceKey): ResourceKey => (misplaced(key) ? { ...key, namespace: '' } : key);
  const seen = new Set<string>();
  const objects = rendered.objects.flatMap((desired) => {
    const key = place(desired.key);
    // Two renders of one cluster-scoped object in two namespaces are one object: the first is applied.
    if (seen.has(keyId(key))) return [];
    seen.add(keyId(key));
    return [key === desired.key ? desired : { ...desired, key }];
  });
  const sources = rendered.sources.map((result) => ({ ...result, objects: result.objects.map(place) }));
  return { ...rendered, objects, sources };
}

/** The config the diff of a render runs with: the ignore rules its sources declare added to the config's. */
export function configWithSourceRules(config: Config, rendered: Pick<ClusterRender, 'ignore'>): Config {
  if (rendered.ignore.length === 0) return config;
  return { ...config, drift: { ...config.drift, ignore: [...config.drift.ignore, ...rendered.ignore] } };
}
