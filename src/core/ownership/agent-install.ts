// The driftback agent's own objects, in whatever namespace it was installed (deploy/agent, or an overlay
// that sets `namespace:`): what carries the labels deploy/agent gives every object
// (`app.kubernetes.io/part-of: driftback`, `app.kubernetes.io/name: driftback-agent`), and what the agent's
// CronJob uses in its namespace — its ServiceAccount (`driftback-agent`), the token Secret and the ConfigMaps
// it reads (`secretKeyRef`, `configMapKeyRef`, `envFrom`), which `kubectl create` makes without labels.
import { isPlainObject, keyId, keyOf, type KubeObject, type ResourceKey } from '../model/index.js';

const AGENT_PART_OF = 'driftback';
const AGENT_NAME = 'driftback-agent';

export function hasAgentLabels(object: KubeObject): boolean {
  const labels = object.metadata?.labels ?? {};
  return labels['app.kubernetes.io/part-of'] === AGENT_PART_OF || labels['app.kubernetes.io/name'] === AGENT_NAME;
}

function podSpecOf(cronJob: KubeObject): Record<string, unknown> | undefined {
  const spec = cronJob.spec as { jobTemplate?: { spec?: { template?: { spec?: unknown } } } } | undefined;
  const pod = spec?.jobTemplate?.spec?.template?.spec;
  return isPlainObject(pod) ? pod : undefined;
}

const ref = (kind: string, namespace: string, name: unknown): string[] =>
  typeof name === 'string' && name ? [keyId({ group: '', kind, namespace, name })] : [];

/** What a container reads from its namespace: Secrets and ConfigMaps by env and envFrom. */
function containerRefs(container: unknown, namespace: string): string[] {
  if (!isPlainObject(container)) return [];
  const env = Array.isArray(container.env) ? container.env : [];
  const envFrom = Array.isArray(container.envFrom) ? container.envFrom : [];
  return [
    ...env.flatMap((entry) => {
      const from = isPlainObject(entry) && isPlainObject(entry.valueFrom) ? entry.valueFrom : {};
      const secret = isPlainObject(from.secretKeyRef) ? from.secretKeyRef.name : undefined;
      const config = isPlainObject(from.configMapKeyRef) ? from.configMapKeyRef.name : undefined;
      return [...ref('Secret', namespace, secret), ...ref('ConfigMap', namespace, config)];
    }),
    ...envFrom.flatMap((entry) => {
      if (!isPlainObject(entry)) return [];
      const secret = isPlainObject(entry.secretRef) ? entry.secretRef.name : undefined;
      const config = isPlainObject(entry.configMapRef) ? entry.configMapRef.name : undefined;
      return [...ref('Secret', namespace, secret), ...ref('ConfigMap', namespace, config)];
    }),
  ];
}

/** Every object the agent's CronJobs use, by keyId: the agent is its labels, or runs as its ServiceAccount. */
export function agentObjectsOf(live: readonly KubeObject[]): Set<string> {
  const ids = new Set<string>();
  for (const object of live) {
    if (object.kind !== 'CronJob' || !object.apiVersion?.startsWith('batch/')) continue;
    const pod = podSpecOf(object);
    if (!pod || (!hasAgentLabels(object) && pod.serviceAccountName !== AGENT_NAME)) continue;
    const namespace = keyOf(object).namespace;
    ids.add(keyId(keyOf(object)));
    for (const id of ref('ServiceAccount', namespace, pod.serviceAccountName)) ids.add(id);
    const containers = [
      ...(Array.isArray(pod.containers) ? pod.containers : []),
      ...(Array.isArray(pod.initContainers) ? pod.initContainers : []),
    ];
    for (const container of containers) for (const id of containerRefs(container, namespace)) ids.add(id);
  }
  return ids;
}

/** Whether an object is the agent's: its labels, what its CronJob uses, or (the default install) its namespace. */
export function isAgentObject(object: KubeObject, agentObjects: ReadonlySet<string>, agentNamespace: string): boolean {
  if (hasAgentLabels(object)) return true;
  const key: ResourceKey = keyOf(object);
  if (agentObjects.has(keyId(key))) return true;
  if (key.group === '' && key.kind === 'Namespace') return key.name === agentNamespace;
  return key.namespace === agentNamespace;
}
