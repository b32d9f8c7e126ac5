// After renames (namePrefix/nameSuffix, generator hashes), references inside the build follow the
// object they name, as kustomize's nameReference transformer does: ConfigMap/Secret refs in pod
// templates (env, envFrom, volumes, projected volumes, imagePullSecrets), serviceAccountName, PVC
// claimName, RBAC roleRef and subjects, Ingress backends and TLS secrets, StatefulSet serviceName,
// HPA scaleTargetRef.
import type { FieldSource } from '../model/index.js';
import { isClusterScoped } from '../k8s/index.js';
import { groupOfResource, kindOf, nameOf, namespaceOf, type BuildResource } from './resource.js';
import { getIn, getString, mapsAt, type TrackedMap } from './tracked.js';

interface Reference {
  map: TrackedMap;
  key: string;
  kinds: readonly string[];
  /** For RBAC subjects: the subject's namespace field follows the ServiceAccount's namespace too. */
  namespaceKey?: string;
}

const POD_SPEC_PATHS: Readonly<Record<string, string[]>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

const CONTAINER_LISTS = ['containers[]', 'initContainers[]', 'ephemeralContainers[]'];
const SCALABLE = ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'];

export function fixNameReferences(resources: BuildResource[]): void {
  // Index moved objects by kind and every name they had: references are looked up, not scanned.
  const moved = new Map<string, BuildResource[]>();
  for (const r of resources) {
    if (r.names.length < 2 && r.namespaces.length < 2) continue;
    for (const name of new Set(r.names)) {
      const id = `${kindOf(r)}/${name}`;
      const list = moved.get(id);
      if (list) list.push(r);
      else moved.set(id, [r]);
    }
  }
  if (moved.size === 0) return;
  for (const resource of resources) {
    for (const ref of referencesOf(resource)) follow(resource, ref, moved);
  }
}

function follow(referrer: BuildResource, ref: Reference, moved: ReadonlyMap<string, BuildResource[]>): void {
  const node = ref.map.entries.get(ref.key);
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return;
  const value = node.value;
  const subjectNamespace = ref.namespaceKey ? getString(ref.map, [ref.namespaceKey]) : undefined;
  const referrerNamespace = namespaceOf(referrer);
  const candidates = ref.kinds.flatMap((kind) => moved.get(`${kind}/${value}`) ?? []);
  const target = candidates.find((candidate) => {
    const unchanged = nameOf(candidate) === value && (!ref.namespaceKey || subjectNamespace === namespaceOf(candidate));
    if (unchanged) return false;
    if (isClusterScoped(groupOfResource(candidate), kindOf(candidate))) return true;
    if (subjectNamespace !== undefined) return candidate.namespaces.includes(subjectNamespace);
    return candidate.namespaces.includes(referrerNamespace) || namespaceOf(candidate) === referrerNamespace;
  });
  if (!target) return;
  const source: FieldSource = { location: node.source.location, origin: target.renamedBy ?? node.source.origin };
  if (nameOf(target) !== value) ref.map.entries.set(ref.key, { kind: 'scalar', value: nameOf(target), source });
  // A ServiceAccount subject follows the account's namespace too (it needs one to be valid).
  if (ref.namespaceKey && namespaceOf(target) && subjectNamespace !== namespaceOf(target)) {
    const nsSource = ref.map.entries.get(ref.namespaceKey)?.source ?? { origin: target.renamedBy ?? source.origin };
    ref.map.entries.set(ref.namespaceKey, { kind: 'scalar', value: namespaceOf(target), source: nsSource });
  }
}

function referencesOf(resource: BuildResource): Reference[] {
  const refs: Reference[] = [];
  const add = (maps: TrackedMap[], key: string, kinds: readonly string[], namespaceKey?: string): void => {
    for (const map of maps) if (map.entries.has(key)) refs.push({ map, key, kinds, namespaceKey });
  };
  const root = resource.root;
  const kind = kindOf(resource);
  const podPath = POD_SPEC_PATHS[kind];
  if (podPath) {
    const pod = getIn(root, podPath);
    const at = (path: string[]): TrackedMap[] => mapsAt(pod, path);
    add(at([]), 'serviceAccountName', ['ServiceAccount']);
    add(at([]), 'serviceAccount', ['ServiceAccount']);
    add(at([]), 'priorityClassName', ['PriorityClass']);
    add(at(['volumes[]', 'configMap']), 'name', ['ConfigMap']);
    add(at(['volumes[]', 'secret']), 'secretName', ['Secret']);
    add(at(['volumes[]', 'projected', 'sources[]', 'configMap']), 'name', ['ConfigMap']);
    add(at(['volumes[]', 'projected', 'sources[]', 'secret']), 'name', ['Secret']);
    add(at(['volumes[]', 'persistentVolumeClaim']), 'claimName', ['PersistentVolumeClaim']);
    add(at(['imagePullSecrets[]']), 'name', ['Secret']);
    for (const list of CONTAINER_LISTS) {
      add(at([list, 'env[]', 'valueFrom', 'configMapKeyRef']), 'name', ['ConfigMap']);
      add(at([list, 'env[]', 'valueFrom', 'secretKeyRef']), 'name', ['Secret']);
      add(at([list, 'envFrom[]', 'configMapRef']), 'name', ['ConfigMap']);
      add(at([list, 'envFrom[]', 'secretRef']), 'name', ['Secret']);
    }
  }
  if (kind === 'StatefulSet') add(mapsAt(root, ['spec']), 'serviceName', ['Service']);
  if (kind === 'ServiceAccount') {
    add(mapsAt(root, ['secrets[]']), 'name', ['Secret']);
    add(mapsAt(root, ['imagePullSecrets[]']), 'name', ['Secret']);
  }
  if (kind === 'Ingress') {
    add(mapsAt(root, ['spec', 'tls[]']), 'secretName', ['Secret']);
    add(mapsAt(root, ['spec', 'defaultBackend', 'service']), 'name', ['Service']);
    add(mapsAt(root, ['spec', 'backend']), 'serviceName', ['Service']);
    add(mapsAt(root, ['spec', 'rules[]', 'http', 'paths[]', 'backend', 'service']), 'name', ['Service']);
    add(mapsAt(root, ['spec', 'rules[]', 'http', 'paths[]', 'backend']), 'serviceName', ['Service']);
  }
  if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') {
    const roleRef = mapsAt(root, ['roleRef']);
    const roleKind = getString(roleRef[0], ['kind']);
    if (roleKind === 'Role' || roleKind === 'ClusterRole') add(roleRef, 'name', [roleKind]);
    const subjects = mapsAt(root, ['subjects[]']).filter((s) => getString(s, ['kind']) === 'ServiceAccount');
    add(subjects, 'name', ['ServiceAccount'], 'namespace');
  }
  if (kind === 'HorizontalPodAutoscaler') {
    const scaleTarget = mapsAt(root, ['spec', 'scaleTargetRef']);
    const targetKind = getString(scaleTarget[0], ['kind']);
    if (targetKind && SCALABLE.includes(targetKind)) add(scaleTarget, 'name', [targetKind]);
  }
  return refs;
}
