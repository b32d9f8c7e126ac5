// Strategic-merge list keys for built-in kinds (from the Kubernetes API's patchMergeKey tags).
// Custom resources have no schema here, so their lists are replaced whole, as kustomize does.
const BUILT_IN_GROUPS: ReadonlySet<string> = new Set([
  '', 'apps', 'batch', 'autoscaling', 'policy', 'networking.k8s.io', 'rbac.authorization.k8s.io',
  'storage.k8s.io', 'scheduling.k8s.io', 'admissionregistration.k8s.io', 'apiextensions.k8s.io',
  'coordination.k8s.io', 'discovery.k8s.io', 'node.k8s.io', 'certificates.k8s.io', 'extensions',
]);

const KEY_BY_FIELD: Readonly<Record<string, string[]>> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  imagePullSecrets: ['name'],
  hostAliases: ['ip'],
  topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable'],
  resourceClaims: ['name'],
  conditions: ['type'],
  ownerReferences: ['uid'],
  podIPs: ['ip'],
};

/**
 * The merge key of a list field, or undefined when the list is replaced whole.
 * `path` is the field's path of map keys from the object root (list indices left out).
 */
export function mergeKeyOf(group: string, kind: string, path: readonly string[]): string[] | undefined {
  if (!BUILT_IN_GROUPS.has(group)) return undefined;
  const field = path[path.length - 1];
  if (field === 'ports') {
    if (kind === 'Service' && path.length === 2 && path[0] === 'spec') return ['port', 'protocol'];
    if (path[path.length - 2] === 'containers' || path[path.length - 2] === 'initContainers') return ['containerPort', 'protocol'];
    return undefined;
  }
  return KEY_BY_FIELD[field];
}

/** List fields of primitives that strategic merge unions rather than replaces. */
export function isMergedPrimitiveList(group: string, path: readonly string[]): boolean {
  return BUILT_IN_GROUPS.has(group) && path.length === 2 && path[0] === 'metadata' && path[1] === 'finalizers';
}
