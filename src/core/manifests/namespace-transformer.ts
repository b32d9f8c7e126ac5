// kustomize's `namespace`: sets metadata.namespace on every namespaced object (replacing what the
// file says), never on cluster-scoped kinds, and on RoleBinding/ClusterRoleBinding subjects named
// `default` (kustomize's rule for the default ServiceAccount).
import type { FieldSource } from '../model/index.js';
import { isClusterScoped } from '../k8s/index.js';
import { groupOfResource, kindOf, namespaceOf, type BuildResource } from './resource.js';
import { ensureMap, getString, setScalar } from './tracked.js';

export function applyNamespace(resources: BuildResource[], namespace: string, source: FieldSource): void {
  for (const resource of resources) {
    const kind = kindOf(resource);
    if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') setDefaultSubjects(resource, namespace, source);
    if (isClusterScoped(groupOfResource(resource), kind)) continue;
    const metadata = ensureMap(resource.root, ['metadata'], source);
    if (!metadata || namespaceOf(resource) === namespace) continue;
    setScalar(metadata, 'namespace', namespace, source);
    resource.namespaces.push(namespace);
  }
}

function setDefaultSubjects(resource: BuildResource, namespace: string, source: FieldSource): void {
  const subjects = resource.root.entries.get('subjects');
  if (subjects?.kind !== 'list') return;
  for (const subject of subjects.items) {
    if (subject.kind !== 'map' || getString(subject, ['name']) !== 'default') continue;
    setScalar(subject, 'namespace', namespace, source);
  }
}
