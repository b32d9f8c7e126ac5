// Zero values the API server drops: a built-in object is decoded into its Go type and encoded again,
// and a field declared `bool`/`int32`/`int64` (no pointer) with `json:",omitempty"` is left out when
// it is false or 0. So `readOnly: false` on a volumeMount, `hostNetwork: false`, `hostPort: 0` in Git
// are absent live, and equal to that absence. A pointer field (`*bool`: allowPrivilegeEscalation,
// automountServiceAccountToken, privileged, runAsNonRoot) keeps its false: there false and absent
// differ (absent is the runtime's default), so those are not listed. Empty strings, lists and maps are
// empty everywhere (noise.ts isEmpty).
//
// OpenAPI does not say whether a Go field is a pointer, so the table is read from the Go types: every
// field of k8s.io/api `*/types.go` (github.com/kubernetes/api at 10b39a39bcee, 2026-07-24) of type bool,
// int32 or int64 whose json tag has `omitempty`, under its OpenAPI schema name, for the schemas of
// desired state (status is never compared). A table test checks each row against the OpenAPI schema.
import { DEFS, KINDS } from './schema.generated.js';
import { embeddedAt } from './embedded-types.js';

/** Schema short name → its fields whose zero value the server's encoding drops. */
export const ZERO_OMITTED: Readonly<Record<string, readonly string[]>> = {
  'apps.v1.DaemonSetSpec': ['minReadySeconds'],
  'apps.v1.DeploymentSpec': ['minReadySeconds', 'paused'],
  'apps.v1.ReplicaSetSpec': ['minReadySeconds'],
  'apps.v1.StatefulSetSpec': ['minReadySeconds'],
  'autoscaling.v1.ScaleSpec': ['replicas'],
  'core.v1.AWSElasticBlockStoreVolumeSource': ['partition', 'readOnly'],
  'core.v1.AzureFilePersistentVolumeSource': ['readOnly'],
  'core.v1.AzureFileVolumeSource': ['readOnly'],
  'core.v1.CSIPersistentVolumeSource': ['readOnly'],
  'core.v1.CephFSPersistentVolumeSource': ['readOnly'],
  'core.v1.CephFSVolumeSource': ['readOnly'],
  'core.v1.CinderPersistentVolumeSource': ['readOnly'],
  'core.v1.CinderVolumeSource': ['readOnly'],
  'core.v1.Container': ['stdin', 'stdinOnce', 'tty'],
  'core.v1.ContainerPort': ['hostPort'],
  'core.v1.EphemeralContainer': ['stdin', 'stdinOnce', 'tty'],
  'core.v1.FCVolumeSource': ['readOnly'],
  'core.v1.FlexPersistentVolumeSource': ['readOnly'],
  'core.v1.FlexVolumeSource': ['readOnly'],
  'core.v1.GCEPersistentDiskVolumeSource': ['partition', 'readOnly'],
  'core.v1.GlusterfsPersistentVolumeSource': ['readOnly'],
  'core.v1.GlusterfsVolumeSource': ['readOnly'],
  'core.v1.ISCSIPersistentVolumeSource': ['readOnly', 'chapAuthDiscovery', 'chapAuthSession'],
  'core.v1.ISCSIVolumeSource': ['readOnly', 'chapAuthDiscovery', 'chapAuthSession'],
  'core.v1.NFSVolumeSource': ['readOnly'],
  'core.v1.NodeSpec': ['unschedulable'],
  'core.v1.PersistentVolumeClaimVolumeSource': ['readOnly'],
  'core.v1.PodSpec': ['hostNetwork', 'hostPID', 'hostIPC'],
  'core.v1.PortworxVolumeSource': ['readOnly'],
  'core.v1.Probe': ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'],
  'core.v1.QuobyteVolumeSource': ['readOnly'],
  'core.v1.RBDPersistentVolumeSource': ['readOnly'],
  'core.v1.RBDVolumeSource': ['readOnly'],
  'core.v1.ReplicationControllerSpec': ['minReadySeconds'],
  'core.v1.ScaleIOPersistentVolumeSource': ['sslEnabled', 'readOnly'],
  'core.v1.ScaleIOVolumeSource': ['sslEnabled', 'readOnly'],
  'core.v1.ServicePort': ['nodePort'],
  'core.v1.ServiceSpec': ['healthCheckNodePort', 'publishNotReadyAddresses'],
  'core.v1.StorageOSPersistentVolumeSource': ['readOnly'],
  'core.v1.StorageOSVolumeSource': ['readOnly'],
  'core.v1.VolumeMount': ['readOnly'],
  'flowcontrol.v1.ResourcePolicyRule': ['clusterScope'],
  'networking.v1.ServiceBackendPort': ['number'],
  'resource.v1.DeviceSubRequest': ['count'],
  'resource.v1.ExactDeviceRequest': ['count'],
  'resource.v1beta1.DeviceRequest': ['count'],
  'resource.v1beta1.DeviceSubRequest': ['count'],
  'resource.v1beta1.ResourceSliceSpec': ['allNodes'],
  'resource.v1beta2.DeviceSubRequest': ['count'],
  'resource.v1beta2.ExactDeviceRequest': ['count'],
  'scheduling.v1.PriorityClass': ['globalDefault'],
};

/** The schema a pattern's segments lead to from `root`, or undefined where the schema says nothing. */
function schemaAt(root: string, segments: readonly string[]): string | undefined {
  let type = `@${root}`;
  for (const segment of segments) {
    if (type.startsWith('[') || type.startsWith('{')) {
      if (segment !== '*') return undefined;
      type = type.slice(1);
      continue;
    }
    const fields = type.startsWith('@') ? DEFS[type.slice(1)]?.p : undefined;
    const next = fields && Object.hasOwn(fields, segment) ? fields[segment] : undefined;
    if (next === undefined) return undefined;
    type = next;
  }
  return type.startsWith('@') ? type.slice(1) : undefined;
}

/** The schema of a kind's version; a version the documents lack falls back to another of the kind. */
function rootOf(group: string, kind: string, version: string | undefined): string | undefined {
  const exact = version !== undefined ? KINDS[`${group}/${version}/${kind}`] : undefined;
  if (exact) return exact;
  const prefix = `${group}/`;
  const suffix = `/${kind}`;
  for (const [id, schema] of Object.entries(KINDS)) if (id.startsWith(prefix) && id.endsWith(suffix)) return schema;
  return undefined;
}

const unescape = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

const memo = new Map<string, boolean>();

/**
 * Whether the API server's encoding drops the zero value (false, 0) of the field at `pattern` (a
 * pointer pattern, list items as `*`) of a built-in kind, or of a built-in type a custom workload
 * embeds (embedded-types.ts).
 */
export function dropsZero(group: string, kind: string, version: string | undefined, pattern: string): boolean {
  const id = `${group}/${kind}/${version ?? ''}\u0000${pattern}`;
  let known = memo.get(id);
  if (known === undefined) {
    const embedded = embeddedAt(group, kind, pattern);
    const root = embedded ? embedded.schema : rootOf(group, kind, version);
    const inside = embedded ? embedded.rest : pattern;
    const segments = inside.split('/').slice(1).map(unescape);
    const field = segments.pop();
    const parent = root && field !== undefined ? schemaAt(root, segments) : undefined;
    known = parent !== undefined && (ZERO_OMITTED[parent]?.includes(field!) ?? false);
    memo.set(id, known);
  }
  return known;
}

/** Whether a value is a Go zero the encoding may drop: false or 0. */
export function isZeroScalar(value: unknown): boolean {
  return value === false || value === 0;
}
