// The security-relevant settings of one object, each with an identity and the places a change must
// touch to have made it: a privileged container, a host namespace, a hostPath volume, a capability
// beyond Baseline, an image from a registry the repository does not use, a role or binding that
// escalates. Risk is what live holds and Git does not, so the same settings are read from both.
import {
  addedCapabilities,
  containersOf,
  fieldPath,
  HOST_NAMESPACE_FIELDS,
  podSpecsOf,
  privilegedSettings,
  registryOf,
  runsAsNonRoot,
  type PodSpecAt,
} from '../k8s/index.js';
import { isPlainObject, type KubeObject, type PathSegment, type RiskCode } from '../model/index.js';
import { rbacFindings, type RoleLookup } from './rbac-findings.js';

export interface Finding {
  code: RiskCode;
  /** The same setting in live and in Git has the same id: it is no drift then. */
  id: string;
  /** Where a change must be (or lie above or below) to have made it. */
  anchors: PathSegment[][];
  why: string;
}

/** The registries an image may come from without a second look. */
export interface RegistryCheck {
  trusted(host: string): boolean;
  /** The registries the repository uses, for the words of a finding. */
  known: readonly string[];
}

export interface FindingOptions {
  codes: ReadonlySet<RiskCode>;
  /** Undefined: images are not judged (an object nothing proposes to write into Git). */
  registries?: RegistryCheck;
  roles: RoleLookup;
}

/** A segment as one comparable string: a field, a keyed item by its sorted key, a position. */
function segmentId(segment: PathSegment): string {
  if (typeof segment === 'string') return `.${segment}`;
  if ('index' in segment) return `#${segment.index}`;
  const key = Object.keys(segment.key)
    .sort()
    .map((field) => `${field}=${segment.key[field]}`);
  return `[${key.join(',')}]`;
}

export function segmentsId(segments: readonly PathSegment[]): string {
  return segments.map(segmentId).join('');
}

/** Whether a change at `at` touches a finding anchored at `anchor`: one path holds the other. */
export function touches(at: readonly PathSegment[], anchor: readonly PathSegment[]): boolean {
  const shorter = Math.min(at.length, anchor.length);
  for (let i = 0; i < shorter; i++) if (segmentId(at[i]!) !== segmentId(anchor[i]!)) return false;
  return true;
}

/** A field as the finding names it, from the pod spec down: `containers[api].securityContext.privileged`. */
function label(pod: PodSpecAt, segments: readonly PathSegment[]): string {
  return fieldPath(segments.slice(pod.segments.length));
}

/** What each host namespace gives the Pod, after `<field>: true`. */
const HOST_NAMESPACE_RISK: Record<(typeof HOST_NAMESPACE_FIELDS)[number], string> = {
  hostNetwork: "puts the Pod in the node's network: it sees the node's traffic and can listen on the node's ports",
  hostPID: "puts the Pod in the node's process namespace: it sees every process on the node and can signal them",
  hostIPC: "puts the Pod in the node's IPC namespace: it shares memory with every process on the node",
};

/** What each privileged setting gives the container, after `<field>: true`. */
const PRIVILEGED_RISK: Record<ReturnType<typeof privilegedSettings>[number], string> = {
  privileged: 'gives the container every device and capability of the node: root in it is root on the node',
  allowPrivilegeEscalation:
    'lets a process in the container gain more privileges than it started with (setuid programs)',
};

function podFindings(pod: PodSpecAt): Finding[] {
  const found: Finding[] = [];
  for (const field of HOST_NAMESPACE_FIELDS) {
    if (pod.spec[field] !== true) continue;
    const at = [...pod.segments, field];
    found.push({
      code: 'privilege',
      id: segmentsId(at),
      anchors: [at],
      why: `${field}: true ${HOST_NAMESPACE_RISK[field]}`,
    });
  }
  const volumes = Array.isArray(pod.spec.volumes) ? pod.spec.volumes.filter(isPlainObject) : [];
  for (const volume of volumes) {
    if (!isPlainObject(volume.hostPath)) continue;
    const at = [...pod.segments, 'volumes', { key: { name: String(volume.name ?? '') } }, 'hostPath'];
    const path = String(volume.hostPath.path ?? '');
    const why = `${label(pod, at)} mounts the node's ${path || 'file system'}: the container reads and writes it on the node itself, outside its own file system`;
    found.push({ code: 'privilege', id: `${segmentsId(at)}=${path}`, anchors: [at], why });
  }
  for (const { segments, container } of containersOf(pod)) {
    for (const field of privilegedSettings(container)) {
      const at = [...segments, 'securityContext', field];
      const why = `${label(pod, at)}: true ${PRIVILEGED_RISK[field]}`;
      found.push({ code: 'privilege', id: segmentsId(at), anchors: [at], why });
    }
    const at = [...segments, 'securityContext', 'capabilities', 'add'];
    for (const capability of addedCapabilities(container)) {
      const why = `${label(pod, at)} has ${capability}, beyond the Pod Security Standards' baseline: a power over the node's kernel that ordinary workloads never need`;
      found.push({ code: 'privilege', id: `${segmentsId(at)}=${capability}`, anchors: [at], why });
    }
  }
  return found;
}

function imageFindings(pod: PodSpecAt, registries: RegistryCheck): Finding[] {
  const found: Finding[] = [];
  for (const { segments, container } of containersOf(pod)) {
    const host = typeof container.image === 'string' ? registryOf(container.image) : undefined;
    if (host === undefined || registries.trusted(host)) continue;
    const at = [...segments, 'image'];
    const uses = registries.known.length ? ` (it uses ${registries.known.join(', ')})` : '';
    const why = `${label(pod, at)} comes from ${host}, a registry the repository's manifests never use${uses}: the cluster runs code from a source nobody reviewed here`;
    found.push({ code: 'image-registry', id: `${segmentsId(at)}=${host}`, anchors: [at], why });
  }
  return found;
}

/** Every security-relevant setting of an object that the options ask about. */
export function findingsOf(object: KubeObject, options: FindingOptions): Finding[] {
  const found: Finding[] = [];
  const pods = options.codes.has('privilege') || options.registries ? podSpecsOf(object) : [];
  for (const pod of pods) {
    if (options.codes.has('privilege')) found.push(...podFindings(pod));
    if (options.registries && options.codes.has('image-registry'))
      found.push(...imageFindings(pod, options.registries));
  }
  if (options.codes.has('rbac-escalation')) found.push(...rbacFindings(object, options.roles));
  return found;
}

/**
 * Containers Git requires to run as non-root that live no longer does (runAsNonRoot false or gone, on
 * the container or the pod): "running as root where Git says runAsNonRoot".
 */
export function rootFindings(live: KubeObject, desired: KubeObject): Finding[] {
  const wanted = new Set<string>();
  for (const pod of podSpecsOf(desired))
    for (const { segments, container } of containersOf(pod))
      if (runsAsNonRoot(pod.spec, container)) wanted.add(segmentsId(segments));
  const found: Finding[] = [];
  for (const pod of podSpecsOf(live)) {
    for (const { segments, container } of containersOf(pod)) {
      if (!wanted.has(segmentsId(segments)) || runsAsNonRoot(pod.spec, container)) continue;
      const anchors = [
        [...segments, 'securityContext'],
        [...pod.segments, 'securityContext'],
      ];
      const why = `${label(pod, segments)} may run as root, though Git requires runAsNonRoot: true: whatever runs there may have root's rights`;
      found.push({ code: 'privilege', id: `${segmentsId(segments)}:root`, anchors, why });
    }
  }
  return found;
}
