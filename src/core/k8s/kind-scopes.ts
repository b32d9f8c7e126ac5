// Whether a kind is namespaced, as the cluster says it: the API server's discovery (the agent records
// it in the snapshot, `server.resources`), a CustomResourceDefinition's `spec.scope` (in the snapshot,
// else in the repository), the objects of the kind a snapshot holds (the server stores a namespaced
// object in a namespace and a cluster-scoped one in none). Kubernetes' own kinds fall back to its
// OpenAPI documents. No custom kind is listed here: a cluster-scoped custom resource (a Crossplane
// managed resource) is cluster-scoped because its cluster or its CRD says so.
import type { KubeObject, ServedType } from '../model/index.js';
import { groupOf, isPlainObject } from '../model/index.js';
import { isBuiltInClusterScoped, isBuiltInGroup } from './kinds.js';

export type KindScope = 'Namespaced' | 'Cluster';

/** `group/Kind` → scope, for the kinds the cluster or the repository said something about. */
export type KindScopes = ReadonlyMap<string, KindScope>;

const kindId = (group: string, kind: string): string => `${group}/${kind}`;

function isCrd(object: KubeObject): boolean {
  return object.kind === 'CustomResourceDefinition' && groupOf(object.apiVersion ?? '') === 'apiextensions.k8s.io';
}

/** The kind a CRD defines and the scope it gives it; undefined for anything else. */
function crdScope(object: KubeObject): { id: string; scope: KindScope } | undefined {
  if (!isCrd(object) || !isPlainObject(object.spec)) return undefined;
  const { group, names, scope } = object.spec;
  if (typeof group !== 'string' || !isPlainObject(names) || typeof names.kind !== 'string') return undefined;
  if (scope !== 'Namespaced' && scope !== 'Cluster') return undefined;
  return { id: kindId(group, names.kind), scope };
}

/**
 * Where the server stored the objects of custom kinds: in a namespace (any one object in one is
 * enough), or in none. Built-in kinds are left to Kubernetes' documents: a file of objects written by
 * hand may leave a namespace out.
 */
function storedScopes(live: readonly KubeObject[]): Map<string, KindScope> {
  const scopes = new Map<string, KindScope>();
  for (const object of live) {
    const group = groupOf(object.apiVersion ?? '');
    if (!object.kind || isBuiltInGroup(group)) continue;
    const id = kindId(group, object.kind);
    if (object.metadata?.namespace) scopes.set(id, 'Namespaced');
    else if (!scopes.has(id)) scopes.set(id, 'Cluster');
  }
  return scopes;
}

export interface KindScopeEvidence {
  /** Discovery of the cluster's API server: what it serves, and how. */
  served?: readonly ServedType[];
  /** Objects of the cluster: their CRDs say, and where the server stored them says. */
  live?: readonly KubeObject[];
  /** Objects of the repository: CRDs it installs (only for kinds the cluster said nothing of). */
  desired?: readonly KubeObject[];
}

/**
 * The scope of every kind the evidence names, strongest first: discovery, the cluster's CRDs, the
 * cluster's objects, the repository's CRDs. A kind named twice keeps its first word.
 */
export function kindScopesOf(evidence: KindScopeEvidence, known?: KindScopes): Map<string, KindScope> {
  const scopes = new Map<string, KindScope>(known ?? []);
  const say = (id: string, scope: KindScope): void => {
    if (!scopes.has(id)) scopes.set(id, scope);
  };
  for (const type of evidence.served ?? [])
    say(kindId(type.group, type.kind), type.namespaced ? 'Namespaced' : 'Cluster');
  const live = evidence.live ?? [];
  for (const object of live) {
    const crd = crdScope(object);
    if (crd) say(crd.id, crd.scope);
  }
  for (const [id, scope] of storedScopes(live)) say(id, scope);
  for (const object of evidence.desired ?? []) {
    const crd = crdScope(object);
    if (crd) say(crd.id, crd.scope);
  }
  return scopes;
}

/**
 * Whether a kind is cluster-scoped: as the scopes say, else as Kubernetes documents its own kinds. A
 * custom kind nobody said anything of is taken as namespaced, the common case.
 */
export function isClusterScopedKind(scopes: KindScopes | undefined, group: string, kind: string): boolean {
  const said = scopes?.get(kindId(group, kind));
  return said ? said === 'Cluster' : isBuiltInClusterScoped(group, kind);
}
