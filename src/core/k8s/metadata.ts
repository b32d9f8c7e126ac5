// Metadata the API server and its tools write, never a person: one list, read by the diff (noise),
// the plan (removals), codify (manifests for hand-made objects), reports and the agent.
import { isPlainObject, type KubeObject } from '../model/index.js';

/** `metadata` fields the API server sets on every object. */
export const SERVER_SET_METADATA = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'selfLink',
  'managedFields',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

export type ServerSetField = (typeof SERVER_SET_METADATA)[number];

/** What `kubectl apply` (client-side) records of the last manifest it applied. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manifest a client-side `kubectl apply` last sent (its annotation, parsed), or undefined. */
export function lastAppliedOf(live: KubeObject): unknown {
  const text = live.metadata?.annotations?.[LAST_APPLIED];
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // a corrupt annotation is no evidence
  }
}

/** Annotations controllers and kubectl write on their own (rollout revisions, restarts, HPA state). */
const SERVER_SET_ANNOTATIONS = [
  /^kubectl\.kubernetes\.io\//,
  /^deployment\.kubernetes\.io\//,
  /^autoscaling\.alpha\.kubernetes\.io\//,
];

export function isServerSetAnnotation(name: string): boolean {
  return SERVER_SET_ANNOTATIONS.some((pattern) => pattern.test(name));
}

/**
 * A copy of `metadata` without the server-set fields (`keep` names those a caller still needs) and,
 * unless `keepLastApplied`, without the last-applied annotation; an annotations map left empty is dropped.
 */
export function withoutServerMetadata(
  metadata: Record<string, unknown>,
  keep: readonly ServerSetField[] = [],
  keepLastApplied = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...metadata };
  for (const field of SERVER_SET_METADATA) if (!keep.includes(field)) delete out[field];
  if (!keepLastApplied && isPlainObject(out.annotations) && LAST_APPLIED in out.annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...rest } = out.annotations;
    if (Object.keys(rest).length > 0) out.annotations = rest;
    else delete out.annotations;
  }
  return out;
}

/** A shallow copy of an object as far as it is not the server's: no `status`, no server-set metadata. */
export function withoutServerState<T extends KubeObject>(object: T): T {
  const { status: _status, ...rest } = object;
  return { ...rest, metadata: withoutServerMetadata(object.metadata ?? {}) } as T;
}

/** True when an ownerReference says a controller manages the object (ReplicaSet of a Deployment, …). */
export function isControllerOwned(object: KubeObject): boolean {
  const refs = object.metadata?.ownerReferences;
  return Array.isArray(refs) && refs.some((ref) => isPlainObject(ref) && ref.controller === true);
}
