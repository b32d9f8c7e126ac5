// Strategic-merge list keys. The OpenAPI-derived table in core/diff answers for built-in kinds; a
// small table by field name covers built-in groups it does not list. Custom resources have no
// schema here, so their lists are replaced whole, as kustomize does without a schema.
import { escapeSegment } from '../model/index.js';
import { listKeysFor } from '../diff/list-keys.js';

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
};

/**
 * The merge key of a list field, or undefined when the list is replaced whole.
 * `path` holds the pointer segments from the object root to the list, list items written as `*`.
 */
export function mergeKeyOf(group: string, kind: string, path: readonly string[]): string[] | undefined {
  if (!BUILT_IN_GROUPS.has(group)) return undefined;
  const fromSchema = listKeysFor(group, '', kind, path.map((s) => '/' + (s === '*' ? s : escapeSegment(s))).join(''));
  if (fromSchema) return fromSchema;
  const names = path.filter((s) => s !== '*');
  const field = names[names.length - 1];
  if (field === 'ports') {
    if (kind === 'Service' && names.length === 2 && names[0] === 'spec') return ['port', 'protocol'];
    if (names[names.length - 2] === 'containers' || names[names.length - 2] === 'initContainers') return ['containerPort', 'protocol'];
    return undefined;
  }
  return KEY_BY_FIELD[field];
}

/** List fields of primitives that strategic merge unions rather than replaces. */
export function isMergedPrimitiveList(group: string, path: readonly string[]): boolean {
  return BUILT_IN_GROUPS.has(group) && path.length === 2 && path[0] === 'metadata' && path[1] === 'finalizers';
}
