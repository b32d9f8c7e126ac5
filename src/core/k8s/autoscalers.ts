// Autoscalers own replicas. An HPA (autoscaling/*) or a KEDA ScaledObject (keda.sh) that targets a
// workload through `spec.scaleTargetRef` decides its `spec.replicas`, whoever wrote the value last: the
// HPA's own writes are recorded as `kube-controller-manager` with `subresource: scale`, not under its
// name, so the target is found through the autoscaler, never through the manager
// (kubernetes/kubernetes pkg/controller/podautoscaler/horizontal.go; kedacore/keda controllers/keda/hpa.go).
import type { KubeObject, ResourceKey } from '../model/index.js';
import { groupOf, isPlainObject, keyId } from '../model/index.js';

export interface Autoscaler {
  kind: 'HorizontalPodAutoscaler' | 'ScaledObject';
  namespace: string;
  name: string;
}

/** The field an autoscaler owns on its target. */
export const AUTOSCALED_PATH = '/spec/replicas';

/** Autoscalers by the key id of the workload each targets. */
export type AutoscalerIndex = ReadonlyMap<string, Autoscaler>;

function targetOf(object: KubeObject): ResourceKey | undefined {
  const group = groupOf(object.apiVersion ?? '');
  const hpa = group === 'autoscaling' && object.kind === 'HorizontalPodAutoscaler';
  const keda = group === 'keda.sh' && object.kind === 'ScaledObject';
  if (!hpa && !keda) return undefined;
  const spec = object.spec;
  const ref = isPlainObject(spec) ? spec.scaleTargetRef : undefined;
  if (!isPlainObject(ref) || typeof ref.name !== 'string') return undefined;
  // KEDA defaults the target to an apps/v1 Deployment; an HPA names both.
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : 'apps/v1';
  const kind = typeof ref.kind === 'string' ? ref.kind : 'Deployment';
  return { group: groupOf(apiVersion), kind, namespace: object.metadata?.namespace ?? '', name: ref.name };
}

/** Reads which workloads the snapshot's autoscalers target. */
export function indexAutoscalers(live: readonly KubeObject[]): AutoscalerIndex {
  const index = new Map<string, Autoscaler>();
  for (const object of live) {
    const target = targetOf(object);
    if (!target) continue;
    const kind = object.kind as Autoscaler['kind'];
    const autoscaler = { kind, namespace: target.namespace, name: object.metadata?.name ?? '' };
    // A ScaledObject makes its own HPA (`keda-hpa-<name>`): the ScaledObject is the one to name.
    const id = keyId(target);
    if (!index.has(id) || autoscaler.kind === 'ScaledObject') index.set(id, autoscaler);
  }
  return index;
}

/** The autoscaler that owns `path` of the object `key` names, or undefined. */
export function autoscalerOwning(
  index: AutoscalerIndex | undefined,
  key: ResourceKey,
  path: string,
): Autoscaler | undefined {
  if (path !== AUTOSCALED_PATH || !index) return undefined;
  return index.get(keyId(key));
}

/** How reports name an autoscaler: "HPA shop/web", "KEDA ScaledObject shop/worker". */
export function describeAutoscaler(autoscaler: Autoscaler): string {
  const kind = autoscaler.kind === 'HorizontalPodAutoscaler' ? 'HPA' : 'KEDA ScaledObject';
  return `${kind} ${autoscaler.namespace}/${autoscaler.name}`;
}

/** Why replicas are not codified, and (when Git declares them) the conflict's fix. */
export function autoscalerReason(autoscaler: Autoscaler, gitDeclares: boolean): string {
  const named = describeAutoscaler(autoscaler);
  const base = `an autoscaler owns replicas: ${named} targets this workload`;
  const owner = autoscaler.kind === 'ScaledObject' ? 'ScaledObject' : 'HPA';
  return gitDeclares
    ? `${base}; Git also declares \`spec.replicas\`, so the two fight: remove \`replicas\` from the manifest ` +
        `(or set the ${owner}'s minimum instead)`
    : `${base}; to change replicas, set the ${owner}'s minimum`;
}
