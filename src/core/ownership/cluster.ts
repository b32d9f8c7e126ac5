// Objects the cluster makes for itself: the API server's bootstrap objects, API priority and fairness,
// kube-controller-manager's, kubeadm's, and what a local distribution (kind) installs at creation. None
// of them is a person's, even when the manager looks like one (kind runs `kubectl create` and `apply`).
import type { KubeObject } from '../model/index.js';
import { creationOf } from '../k8s/index.js';

/** Namespaces the cluster owns outright. */
export const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set(['kube-system', 'kube-public', 'kube-node-lease']);

/** Managers of the control plane and the installers that build it. */
const CLUSTER_MANAGERS: Readonly<Record<string, string>> = {
  'kube-apiserver': 'kube-apiserver',
  'kube-controller-manager': 'kube-controller-manager',
  'kube-scheduler': 'kube-scheduler',
  kubelet: 'kubelet',
  kubeadm: 'kubeadm',
  'api-priority-and-fairness-config-producer-v1': 'API priority and fairness',
  'clusterrole-aggregation-controller': 'kube-controller-manager',
};

/** Objects kind (kubernetes-sigs/kind) installs when it creates a cluster: its CNI and its storage. */
const KIND_OBJECTS: ReadonlyArray<{ kind: string; namespace?: string; name: RegExp }> = [
  { kind: 'Namespace', name: /^local-path-storage$/ },
  { kind: 'ClusterRole', name: /^(kindnet|local-path-provisioner-role)$/ },
  { kind: 'ClusterRoleBinding', name: /^(kindnet|local-path-provisioner-bind)$/ },
  { kind: 'StorageClass', name: /^standard$/ },
];
const KIND_NAMESPACES: ReadonlySet<string> = new Set(['local-path-storage']);

const DEFAULT_NAMESPACES: ReadonlySet<string> = new Set(['default', ...SYSTEM_NAMESPACES]);

export interface ClusterMaker {
  name: string;
  evidence: string;
}

/** Which part of the cluster made an object, or undefined when the cluster did not. */
export function clusterMadeBy(object: KubeObject): ClusterMaker | undefined {
  const meta = object.metadata ?? {};
  const labels = meta.labels ?? {};
  const annotations = meta.annotations ?? {};
  const namespace = meta.namespace ?? '';
  const name = meta.name ?? '';
  if (SYSTEM_NAMESPACES.has(namespace)) return { name: namespace, evidence: `in namespace ${namespace}` };
  if (object.kind === 'Namespace' && DEFAULT_NAMESPACES.has(name)) {
    return { name: 'kube-apiserver', evidence: 'a built-in namespace' };
  }
  if (labels['kubernetes.io/bootstrapping'] === 'rbac-defaults') {
    return { name: 'kube-apiserver', evidence: 'bootstrap RBAC' };
  }
  if (annotations['apf.kubernetes.io/autoupdate-spec'] !== undefined) {
    return { name: 'API priority and fairness', evidence: 'annotation apf.kubernetes.io/autoupdate-spec' };
  }
  if (labels['kube-aggregator.kubernetes.io/automanaged'] !== undefined) {
    return { name: 'kube-apiserver', evidence: 'label kube-aggregator.kubernetes.io/automanaged' };
  }
  if (object.kind === 'Service' && namespace === 'default' && name === 'kubernetes') {
    return { name: 'kube-apiserver', evidence: "the API server's Service" };
  }
  const kindObject = !namespace && KIND_OBJECTS.some((o) => o.kind === object.kind && o.name.test(name));
  if (KIND_NAMESPACES.has(namespace) || kindObject) {
    return { name: 'kind', evidence: 'installed by kind at cluster creation' };
  }
  const created = creationOf(object);
  const maker = created ? CLUSTER_MANAGERS[created.manager] : undefined;
  if (maker) return { name: maker, evidence: `created by ${created!.manager}` };
  if (/^(system:|kubeadm:)/.test(name) && !namespace) {
    return { name: 'kube-apiserver', evidence: 'a system: or kubeadm: name' };
  }
  return undefined;
}
