// Fields the API server refuses to change in place. An apply that changes one fails; the plan
// says so before the merge instead of after.

interface ImmutableRule {
  group: string;
  kinds: string[];
  /** JSON pointer prefixes (list positions stripped, so `/spec/ports` covers every port). */
  paths: string[];
  why: string;
}

const RULES: ImmutableRule[] = [
  {
    group: 'apps',
    kinds: ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet'],
    paths: ['/spec/selector'],
    why: 'the selector of a workload cannot change',
  },
  {
    group: 'apps',
    kinds: ['StatefulSet'],
    paths: ['/spec/serviceName', '/spec/podManagementPolicy', '/spec/volumeClaimTemplates'],
    why: 'a StatefulSet only allows changes to replicas, template, updateStrategy, ordinals and a few more',
  },
  {
    group: '',
    kinds: ['Service'],
    paths: ['/spec/clusterIP', '/spec/clusterIPs'],
    why: 'a Service keeps its cluster IP for life',
  },
  {
    group: 'batch',
    kinds: ['Job'],
    paths: ['/spec/selector', '/spec/template', '/spec/completions'],
    why: "a Job's pod template and selector are fixed once it exists",
  },
  {
    group: '',
    kinds: ['PersistentVolumeClaim'],
    paths: [
      '/spec/storageClassName',
      '/spec/accessModes',
      '/spec/volumeName',
      '/spec/volumeMode',
      '/spec/selector',
      '/spec/dataSource',
    ],
    why: "a claim's spec is fixed except its requested size",
  },
  {
    group: 'rbac.authorization.k8s.io',
    kinds: ['RoleBinding', 'ClusterRoleBinding'],
    paths: ['/roleRef'],
    why: "a binding's roleRef cannot change",
  },
  {
    group: 'storage.k8s.io',
    kinds: ['StorageClass'],
    paths: ['/provisioner', '/parameters', '/reclaimPolicy', '/volumeBindingMode'],
    why: 'a StorageClass is fixed once created',
  },
];

const DATA_FIELDS = ['/data', '/binaryData', '/stringData', '/immutable'];

function covers(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(prefix + '/');
}

/**
 * Why a change to `path` is rejected, or undefined when it is allowed.
 * `liveImmutable` is live's `immutable: true` on a ConfigMap or Secret.
 */
export function immutableReason(
  key: { group: string; kind: string },
  path: string,
  liveImmutable: boolean,
): string | undefined {
  if (
    liveImmutable &&
    key.group === '' &&
    (key.kind === 'ConfigMap' || key.kind === 'Secret') &&
    DATA_FIELDS.some((p) => covers(p, path))
  ) {
    return `the live ${key.kind} is immutable: true, so its data cannot change`;
  }
  const rule = RULES.find(
    (r) => r.group === key.group && r.kinds.includes(key.kind) && r.paths.some((p) => covers(p, path)),
  );
  return rule?.why;
}
