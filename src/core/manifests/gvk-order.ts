// kustomize's order of kinds (kyaml resid.Gvk.IsLessThan): a fixed list of kinds first, webhook
// configurations last, everything else between, then by group, version and kind with "~" standing
// for an empty part. The legacy output order and the order of transformer field specs both use it.

export const ORDER_FIRST: readonly string[] = [
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'CustomResourceDefinition',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Endpoints',
  'Service',
  'LimitRange',
  'PriorityClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
export const ORDER_LAST: readonly string[] = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

export interface KindOrder {
  first: readonly string[];
  last: readonly string[];
}

/** A kind's rank: negative for the first kinds, 0 for the others, positive for the last. */
export function kindRank(kind: string, kinds: KindOrder = { first: ORDER_FIRST, last: ORDER_LAST }): number {
  const first = kinds.first.indexOf(kind);
  if (first >= 0) return first - kinds.first.length;
  const last = kinds.last.indexOf(kind);
  return last >= 0 ? last + 1 : 0;
}

/** kyaml's stable sort string of a group/version/kind: `group_version_kind`, `~G`/`~V`/`~K` when empty. */
export function gvkSortString(group: string, version: string, kind: string): string {
  return `${group || '~G'}_${version || '~V'}_${kind || '~K'}`;
}
