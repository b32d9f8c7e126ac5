// What a kind is: its API group's standing (built in or not), its plural resource name, whether a
// built-in kind is cluster-scoped, and which objects of it the cluster makes for itself.
import type { KubeObject, ResourceKey } from '../model/index.js';
import { BUILT_IN_GROUPS } from './merge-facts.js';
import { CLUSTER_SCOPED } from './schema.generated.js';

/** Whether kube-apiserver serves the API group itself ('' is the core group), as its OpenAPI documents say. */
export function isBuiltInGroup(group: string): boolean {
  return BUILT_IN_GROUPS.has(group);
}

// Kinds whose plural is the kind itself (apimachinery's unpluralizedSuffixes).
const UNPLURALIZED_SUFFIXES = ['endpoints'];

/**
 * The lowercase plural resource name of a kind, as apimachinery guesses it when discovery is not at
 * hand (k8s.io/apimachinery/pkg/api/meta/restmapper.go UnsafeGuessKindToResource): `Endpoints` stays
 * `endpoints`, a final `s` takes `es` (Ingress → ingresses), a final `y` becomes `ies` — except after
 * a vowel (Gateway → gateways), where apimachinery's guess is known to be wrong and CRDs say `ys`.
 */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (UNPLURALIZED_SUFFIXES.some((suffix) => lower.endsWith(suffix))) return lower;
  if (/(s|x|z|ch|sh)$/.test(lower)) return lower + 'es';
  if (/[^aeiou]y$/.test(lower)) return lower.slice(0, -1) + 'ies';
  return lower + 's';
}

/** A type as scope errors and kubectl name it: `apps/v1/statefulsets`, `v1/pods`, `statefulsets.apps`, `pods`. */
export interface ResourceName {
  /** Undefined when the name does not say (a bare plural). */
  group?: string;
  plural: string;
}

export function parseResourceName(resource: string): ResourceName {
  const parts = resource.split('/');
  const last = parts[parts.length - 1]!;
  const dot = last.indexOf('.');
  const plural = (dot < 0 ? last : last.slice(0, dot)).toLowerCase();
  if (parts.length >= 3) return { group: parts[0], plural };
  // `v1/pods` is the core group; `apps/statefulsets` (no version) names a group.
  if (parts.length === 2) return { group: /^v\d/.test(parts[0]!) ? '' : parts[0], plural };
  if (dot >= 0) return { group: last.slice(dot + 1), plural };
  return { plural };
}

/** Whether a resource name (or the group/kind an agent recorded with it) names the type of `key`. */
export function namesType(
  type: { resource: string; group?: string; kind?: string },
  key: Pick<ResourceKey, 'group' | 'kind'>,
): boolean {
  if (type.group !== undefined && type.kind !== undefined) return type.group === key.group && type.kind === key.kind;
  const named = parseResourceName(type.resource);
  const group = type.group ?? named.group;
  if (group !== undefined && group !== key.group) return false;
  return type.kind ? type.kind === key.kind : named.plural === pluralOf(key.kind);
}

/** Whether a key (or object key) is a core Namespace. */
export function isNamespace(key: Pick<ResourceKey, 'group' | 'kind'>): boolean {
  return key.group === '' && key.kind === 'Namespace';
}

/** The key of the Namespace object named `name`. */
export function namespaceKey(name: string): ResourceKey {
  return { group: '', kind: 'Namespace', namespace: '', name };
}

/** Objects every namespace or cluster gets without anyone asking. */
export function isClusterMade(live: KubeObject): boolean {
  const name = live.metadata?.name;
  if (live.kind === 'ConfigMap' && (name === 'kube-root-ca.crt' || name === 'openshift-service-ca.crt')) return true;
  if (live.kind === 'ServiceAccount' && name === 'default') return true;
  if (live.kind === 'Secret' && live.type === 'kubernetes.io/service-account-token') return true;
  // Endpoints a Service's selector fills in; a hand-made one (a Service without selector) has managedFields.
  const endpoints = live.kind === 'Endpoints' || live.kind === 'EndpointSlice';
  return endpoints && !live.metadata?.managedFields?.length;
}

/**
 * Whether a built-in kind is cluster-scoped, as Kubernetes' OpenAPI documents say (no path of its API
 * goes through `/namespaces/{namespace}/`); `group` is '' for the core group. This is what kustomize
 * knows too (its namespace transformer reads the built-in schema only). Whether a custom kind is
 * namespaced is the cluster's to say (kind-scopes.ts): this says false for every custom kind.
 */
export function isBuiltInClusterScoped(group: string, kind: string): boolean {
  return CLUSTER_SCOPED.has(`${group}/${kind}`);
}
