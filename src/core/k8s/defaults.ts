// What the API server fills in when a manifest leaves a field out. Each default is written here once:
// keyed-list matching fills in a defaulted key field (a port without `protocol` is TCP), and codify
// drops defaulted values from a manifest it writes for a hand-made object.
type Json = Record<string, unknown>;

/** Key fields of keyed lists that the server defaults: filled in before items are matched. */
const KEY_FIELD_DEFAULTS: Readonly<Record<string, string>> = { protocol: 'TCP' };

/** The server's default of a key field, or undefined when it has none. */
export function keyFieldDefault(field: string): string | undefined {
  return Object.hasOwn(KEY_FIELD_DEFAULTS, field) ? KEY_FIELD_DEFAULTS[field] : undefined;
}

/** A key field's value in an item, its server default when the item leaves it out. */
export function keyFieldValue(item: Readonly<Record<string, unknown>>, field: string): unknown {
  const value = item[field];
  return value === undefined || value === null ? keyFieldDefault(field) : value;
}

/** Fields of a workload's spec whose value equals what the server fills in when they are left out. */
export const WORKLOAD_SPEC_DEFAULTS: Readonly<Record<string, Json>> = {
  Deployment: {
    progressDeadlineSeconds: 600,
    revisionHistoryLimit: 10,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
  },
  StatefulSet: {
    revisionHistoryLimit: 10,
    podManagementPolicy: 'OrderedReady',
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
  },
  DaemonSet: {
    revisionHistoryLimit: 10,
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
  },
  ReplicaSet: {},
  Job: {
    backoffLimit: 6,
    completionMode: 'NonIndexed',
    suspend: false,
    podReplacementPolicy: 'TerminatingOrFailed',
    manualSelector: undefined,
  },
  CronJob: { concurrencyPolicy: 'Allow', failedJobsHistoryLimit: 1, successfulJobsHistoryLimit: 3, suspend: false },
};

export const POD_SPEC_DEFAULTS: Readonly<Json> = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  schedulerName: 'default-scheduler',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  enableServiceLinks: true,
};
export const CONTAINER_DEFAULTS: Readonly<Json> = {
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  resources: {},
};
export const PROBE_DEFAULTS: Readonly<Json> = {
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
};
export const SERVICE_SPEC_DEFAULTS: Readonly<Json> = {
  sessionAffinity: 'None',
  ipFamilyPolicy: 'SingleStack',
  internalTrafficPolicy: 'Cluster',
  type: 'ClusterIP',
  externalTrafficPolicy: 'Cluster',
  allocateLoadBalancerNodePorts: true,
};
/** Service spec fields the server allocates (never written by a person). */
export const SERVICE_ALLOCATED_FIELDS = ['clusterIP', 'clusterIPs', 'ipFamilies', 'healthCheckNodePort'] as const;

/** The pull policy the server gives a container that names none: Always for `:latest` or no tag. */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const latest = !/[:@]/.test(image.split('/').pop() ?? '') || image.endsWith(':latest');
  return latest ? 'Always' : 'IfNotPresent';
}

/** The apiVersion a `fieldRef` gets when it names none. */
export const FIELD_REF_API_VERSION = 'v1';

/** The label the server puts on every Namespace: its own name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
/** The finalizer the server puts on every Namespace. */
export const NAMESPACE_FINALIZERS = ['kubernetes'];

/** Webhook fields the API server fills in (k8s.io/kubernetes pkg/apis/admissionregistration/v1/defaults.go). */
const WEBHOOK_DEFAULTS: Readonly<Record<string, unknown>> = {
  '/webhooks/*/failurePolicy': 'Fail',
  '/webhooks/*/matchPolicy': 'Equivalent',
  '/webhooks/*/timeoutSeconds': 10,
  '/webhooks/*/clientConfig/service/port': 443,
  '/webhooks/*/namespaceSelector': {},
  '/webhooks/*/objectSelector': {},
};

/** Fields Kubernetes fills in, by kind and pointer pattern (list items as `*`): the value it fills in. */
const FILLED_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': {
    ...WEBHOOK_DEFAULTS,
    '/webhooks/*/reinvocationPolicy': 'Never',
  },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': WEBHOOK_DEFAULTS,
};

/** Whether a value live has and Git lacks is what Kubernetes fills in at that place: never drift. */
export function isFilledDefault(group: string, kind: string, pattern: string, value: unknown): boolean {
  const table = FILLED_DEFAULTS[`${group}/${kind}`];
  if (!table || !Object.hasOwn(table, pattern)) return false;
  const filled = table[pattern];
  return JSON.stringify(filled) === JSON.stringify(value);
}

/**
 * Fields a controller of Kubernetes fills in from other objects, never from the manifest: the `rules`
 * of a ClusterRole with an `aggregationRule` (the clusterrole-aggregation-controller applies them).
 */
export function filledByKubernetes(group: string, kind: string, desired: Readonly<Json>): string[] {
  if (group === 'rbac.authorization.k8s.io' && kind === 'ClusterRole' && desired.aggregationRule) return ['rules'];
  return [];
}

/**
 * What admission and the scheduler add to a Pod after a person sent it, none of it in any field
 * manager's set (kube-apiserver handlers/create.go records the manager before mutating admission):
 * the ServiceAccount admission plugin's token volume and mounts, the DefaultTolerationSeconds plugin's
 * two tolerations, the Priority plugin's `priority`/`preemptionPolicy`, the scheduler's `nodeName`, and the
 * deprecated `serviceAccount` the server copies from `serviceAccountName`.
 */
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const DEFAULT_TOLERATIONS: readonly Json[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];
export const POD_ADMISSION_DEFAULTS: Readonly<Json> = {
  serviceAccountName: 'default',
  preemptionPolicy: 'PreemptLowerPriority',
  priority: 0,
};
/** Pod spec fields a person never writes: set by the scheduler, or deprecated copies. */
export const POD_SERVER_FIELDS = ['nodeName'] as const;
