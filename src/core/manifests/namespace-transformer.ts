// kustomize's `namespace`: sets metadata.namespace on every namespaced object (replacing what the
// file says), never on cluster-scoped kinds; renames v1 Namespace objects; writes the namespace
// field specs (APIService spec.service, CRD conversion webhook service); and sets RoleBinding /
// ClusterRoleBinding subjects named `default` (kustomize's rule for the default ServiceAccount).
// Webhook and other service references follow through name references at the end of the build.
import type { FieldSource } from '../model/index.js';
import { isBuiltInClusterScoped } from '../k8s/index.js';
import {
  apiVersionOf,
  groupOfResource,
  kindOf,
  namespaceOf,
  storePreviousId,
  versionOfResource,
  type BuildResource,
} from './resource.js';
import { defaultTransformerConfig, gvkSelected, pathSegments, type PathSpec } from './transformer-config.js';
import { ensureMap, getString, setScalar, type TrackedMap } from './tracked.js';

export function applyNamespace(
  resources: BuildResource[],
  namespace: string,
  source: FieldSource,
  specs: readonly PathSpec[] = defaultTransformerConfig().namespace,
): void {
  for (const resource of resources) {
    const kind = kindOf(resource);
    // kustomize records the id before its namespace step for every object, cluster-scoped ones and
    // unchanged ones included: a name reference may later need to tell them from a renamed namesake.
    storePreviousId(resource);
    if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') setDefaultSubjects(resource, namespace, source);
    const gvk = { group: groupOfResource(resource), version: versionOfResource(resource), kind };
    for (const spec of specs) {
      if (spec.path === 'metadata/namespace' || !gvkSelected(gvk, spec)) continue;
      // metadata/name is the Namespace object's own name, and only for v1 Namespaces.
      if (spec.path === 'metadata/name' && apiVersionOf(resource) !== 'v1') continue;
      if (
        writeAt(resource.root, pathSegments(spec.path), namespace, spec.create ?? false, source) &&
        spec.path === 'metadata/name'
      )
        resource.names.push(namespace);
    }
    if (!isBuiltInClusterScoped(groupOfResource(resource), kind)) {
      const metadata = ensureMap(resource.root, ['metadata'], source);
      if (metadata && namespaceOf(resource) !== namespace) {
        setScalar(metadata, 'namespace', namespace, source);
        resource.namespaces.push(namespace);
      }
    }
  }
}

/** Sets a scalar at `path` (creating maps on the way when `create`); whether it changed anything. */
function writeAt(root: TrackedMap, segments: string[], value: string, create: boolean, source: FieldSource): boolean {
  let map: TrackedMap | undefined = root;
  for (const segment of segments.slice(0, -1)) {
    const next: TrackedMap | undefined =
      map.entries.get(segment)?.kind === 'map' ? (map.entries.get(segment) as TrackedMap) : undefined;
    if (!next && !create) return false;
    map = next ?? ensureMap(map, [segment], source);
    if (!map) return false;
  }
  const key = segments[segments.length - 1];
  const existing = map.entries.get(key);
  if (!existing && !create) return false;
  if (existing?.kind === 'scalar' && existing.value === value) return false;
  setScalar(map, key, value, source);
  return true;
}

function setDefaultSubjects(resource: BuildResource, namespace: string, source: FieldSource): void {
  const subjects = resource.root.entries.get('subjects');
  if (subjects?.kind !== 'list') return;
  for (const subject of subjects.items) {
    if (subject.kind !== 'map' || getString(subject, ['name']) !== 'default') continue;
    setScalar(subject, 'namespace', namespace, source);
  }
}
