// What the Pod Security Standards' Baseline policy forbids, read where drift can show it: the pod
// template of any workload (Deployments, Jobs in CronJobs, custom resources with pod templates) and
// every container list of it. Source: Kubernetes docs, "Pod Security Standards" (Baseline: host
// namespaces, privileged containers, capabilities, hostPath volumes) and its implementation,
// kubernetes/kubernetes staging/src/k8s.io/pod-security-admission/policy/check_*.go;
// `allowPrivilegeEscalation` and `runAsNonRoot` are the Restricted policy's.
import { isPlainObject, type PathSegment } from '../model/index.js';

/** Capabilities Baseline allows a container to add (check_capabilities_baseline.go `capabilities_allowed_1_0`). */
export const BASELINE_CAPABILITIES: ReadonlySet<string> = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

/** Pod fields that share a node namespace when true (check_hostNamespaces.go). */
export const HOST_NAMESPACE_FIELDS = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

/** The container lists of a pod spec (the checks' `visitContainers`). */
export const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

export interface PodSpecAt {
  /** Where the pod spec is in its object (`spec.template.spec`, `spec.jobTemplate.spec.template.spec`). */
  segments: PathSegment[];
  spec: Record<string, unknown>;
}

export interface ContainerAt {
  /** The container as a keyed item (`containers[api]`), the way drift names it. */
  segments: PathSegment[];
  container: Record<string, unknown>;
}

/**
 * Every pod spec in an object, at any depth: a map with a `containers` list. That is how a Pod, a
 * workload's template and a custom resource's template look alike, without a table of kinds.
 */
export function podSpecsOf(object: unknown): PodSpecAt[] {
  const found: PodSpecAt[] = [];
  const walk = (value: unknown, segments: PathSegment[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...segments, { index }]));
      return;
    }
    if (!isPlainObject(value)) return;
    if (Array.isArray(value.containers)) {
      found.push({ segments, spec: value });
      return;
    }
    for (const [field, child] of Object.entries(value)) {
      if (field !== 'status' || segments.length > 0) walk(child, [...segments, field]);
    }
  };
  walk(object, []);
  return found;
}

/** The containers of a pod spec, each named by its list and name (the lists merge by `name`). */
export function containersOf(pod: PodSpecAt): ContainerAt[] {
  return CONTAINER_LISTS.flatMap((list) => {
    const items = pod.spec[list];
    if (!Array.isArray(items)) return [];
    return items.filter(isPlainObject).map((container) => ({
      segments: [...pod.segments, list, { key: { name: String(container.name ?? '') } }],
      container,
    }));
  });
}

function securityContext(value: unknown): Record<string, unknown> {
  return isPlainObject(value) && isPlainObject(value.securityContext) ? value.securityContext : {};
}

/** Capabilities a container adds beyond Baseline's list. */
export function addedCapabilities(container: Record<string, unknown>): string[] {
  const capabilities = securityContext(container).capabilities;
  const add = isPlainObject(capabilities) && Array.isArray(capabilities.add) ? capabilities.add : [];
  return add.map(String).filter((name) => !BASELINE_CAPABILITIES.has(name));
}

/** A container's `runAsNonRoot`, its own or the pod's (the container's wins: check_runAsNonRoot.go). */
export function runsAsNonRoot(pod: Record<string, unknown>, container: Record<string, unknown>): boolean {
  const own = securityContext(container).runAsNonRoot;
  return (own ?? securityContext(pod).runAsNonRoot) === true;
}

/** `privileged` and `allowPrivilegeEscalation` set to true on a container. */
export function privilegedSettings(
  container: Record<string, unknown>,
): Array<'privileged' | 'allowPrivilegeEscalation'> {
  const context = securityContext(container);
  return (['privileged', 'allowPrivilegeEscalation'] as const).filter((field) => context[field] === true);
}
