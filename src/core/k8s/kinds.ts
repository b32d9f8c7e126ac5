// What a kind is: its API group's standing (built in or not), its plural resource name, whether it
// is cluster-scoped, and which objects of it the cluster makes for itself.
import type { KubeObject, ResourceKey } from '../model/index.js';
import { BUILT_IN_GROUPS } from './merge-facts.js';

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

// Built-in Kubernetes kinds that are cluster-scoped: they take no namespace, and kustomize's
// `namespace` does not apply to them. Custom resources are assumed namespaced (the common case),
// except the cluster-scoped kinds of well-known projects listed here.
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'authentication.k8s.io/TokenReview',
  'authentication.k8s.io/SelfSubjectReview',
  'authorization.k8s.io/SelfSubjectAccessReview',
  'authorization.k8s.io/SelfSubjectRulesReview',
  'authorization.k8s.io/SubjectAccessReview',
  'certificates.k8s.io/CertificateSigningRequest',
  'certificates.k8s.io/ClusterTrustBundle',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/IPAddress',
  'networking.k8s.io/ServiceCIDR',
  'node.k8s.io/RuntimeClass',
  'policy/PodSecurityPolicy',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'resource.k8s.io/DeviceClass',
  'resource.k8s.io/ResourceSlice',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/VolumeAttributesClass',
  'snapshot.storage.k8s.io/VolumeSnapshotClass',
  'snapshot.storage.k8s.io/VolumeSnapshotContent',
  'gateway.networking.k8s.io/GatewayClass',
  'cert-manager.io/ClusterIssuer',
  'kyverno.io/ClusterPolicy',
  'templates.gatekeeper.sh/ConstraintTemplate',
  'metrics.k8s.io/NodeMetrics',
]);

/** True for built-in (and a few well-known) cluster-scoped kinds; `group` is '' for the core group. */
export function isClusterScoped(group: string, kind: string): boolean {
  return CLUSTER_SCOPED.has(`${group}/${kind}`);
}
