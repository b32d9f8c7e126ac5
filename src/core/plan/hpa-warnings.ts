// An HPA and Git fighting over replicas: a HorizontalPodAutoscaler scales its target through the
// scale subresource (manager `kube-controller-manager`), and a manifest that declares `spec.replicas`
// makes the GitOps controller set it back on every sync (self-heal, Flux's apply), so the replica
// count flaps. The plan warns when a pull request brings the two together: it adds an HPA whose target
// declares replicas, or adds replicas to a workload an HPA (in Git or in the cluster) targets.
// Removing `replicas` is the fix, and quiet.
import {
  groupOf,
  keyId,
  type DesiredObject,
  type KubeObject,
  type PlanWarning,
  type ResourceKey,
} from '../model/index.js';
import { sourceOf } from './source-line.js';

const SCALED_KINDS = new Set(['Deployment', 'StatefulSet']);

interface Autoscaler {
  /** `namespace/name` of the HPA. */
  name: string;
  /** Key id of its scale target. */
  target: string;
}

function autoscalerOf(object: KubeObject): Autoscaler | undefined {
  if (object.kind !== 'HorizontalPodAutoscaler' || groupOf(object.apiVersion ?? '') !== 'autoscaling') return undefined;
  const ref = (object.spec as { scaleTargetRef?: { apiVersion?: unknown; kind?: unknown; name?: unknown } } | undefined)
    ?.scaleTargetRef;
  if (typeof ref?.kind !== 'string' || typeof ref.name !== 'string' || typeof ref.apiVersion !== 'string')
    return undefined;
  const namespace = object.metadata.namespace ?? '';
  const target: ResourceKey = { group: groupOf(ref.apiVersion), kind: ref.kind, namespace, name: ref.name };
  return { name: `${namespace}/${object.metadata.name ?? ''}`, target: keyId(target) };
}

const declaresReplicas = (desired: DesiredObject | undefined): boolean =>
  (desired?.object.spec as { replicas?: unknown } | undefined)?.replicas !== undefined;

const isScaledWorkload = (desired: DesiredObject): boolean =>
  desired.key.group === 'apps' && SCALED_KINDS.has(desired.key.kind) && declaresReplicas(desired);

/** The fight and its fix, after the workload's name (the plan and the dashboard say the same). */
export function hpaReplicasMessage(hpa: string): string {
  return (
    `Both this manifest and HorizontalPodAutoscaler \`${hpa}\` set \`spec.replicas\`: with self-heal on, ` +
    'the controller resets it on every sync and the HPA scales it back. Remove `replicas` from the manifest ' +
    '(the HPA then owns it), or ignore the field with a rule scoped to manager `kube-controller-manager`, ' +
    'the manager of the HPA’s scale writes (Argo CD `ignoreDifferences` with `managedFieldsManagers` and ' +
    '`RespectIgnoreDifferences=true`; driftback `drift.ignore` with `managers`).'
  );
}

/** Where the workload declares replicas: the line the plan and the dashboard point at. */
function placeOf(desired: DesiredObject): { file?: string; line?: number } {
  const place = sourceOf(desired, '/spec/replicas');
  return place ? { file: place.file, ...(place.line ? { line: place.line } : {}) } : {};
}

function warningOf(desired: DesiredObject, hpa: string): PlanWarning {
  const message = hpaReplicasMessage(hpa);
  return { code: 'hpa-replicas', id: desired.key, path: '/spec/replicas', ...placeOf(desired), message };
}

/** A workload whose manifest declares replicas while an HPA targets it. */
export interface AutoscaledReplicas {
  key: ResourceKey;
  /** `namespace/name` of the HPA. */
  hpa: string;
  /** Where the manifest declares `spec.replicas`. */
  file?: string;
  line?: number;
}

/**
 * Every workload of `desired` that declares replicas while an HPA targets it, in Git (`desired`) or
 * in the cluster (`live`): what the dashboard lists, whether or not a pull request brought them together.
 */
export function autoscaledReplicas(
  desired: Iterable<DesiredObject>,
  live: readonly KubeObject[],
): AutoscaledReplicas[] {
  const workloads = [...desired];
  const hpas = new Map<string, Autoscaler>();
  for (const object of [...workloads.map((d) => d.object), ...live]) {
    const hpa = autoscalerOf(object);
    if (hpa && !hpas.has(hpa.target)) hpas.set(hpa.target, hpa);
  }
  return workloads.flatMap((workload) => {
    const hpa = isScaledWorkload(workload) ? hpas.get(keyId(workload.key)) : undefined;
    return hpa ? [{ key: workload.key, hpa: hpa.name, ...placeOf(workload) }] : [];
  });
}

/**
 * One warning per workload of head that declares replicas while an HPA targets it, when head brings
 * them together. A conflict already warned on its replicas (`others`) names the HPA's write and the
 * fix: said once.
 */
export function hpaReplicasWarnings(
  head: ReadonlyMap<string, DesiredObject>,
  base: ReadonlyMap<string, DesiredObject>,
  live: readonly KubeObject[],
  others: readonly PlanWarning[] = [],
): PlanWarning[] {
  const conflicted = new Set(
    others.filter((w) => w.code === 'conflict' && w.path === '/spec/replicas' && w.id).map((w) => keyId(w.id!)),
  );
  const added = new Map<string, Autoscaler>();
  const existing = new Map<string, Autoscaler>();
  for (const [id, desired] of head) {
    const hpa = autoscalerOf(desired.object);
    if (hpa) (base.has(id) ? existing : added).set(hpa.target, hpa);
  }
  for (const object of live) {
    const hpa = autoscalerOf(object);
    if (hpa && !added.has(hpa.target)) existing.set(hpa.target, hpa);
  }
  const warnings: PlanWarning[] = [];
  for (const [id, desired] of head) {
    if (!isScaledWorkload(desired)) continue;
    const newHpa = added.get(id);
    const hpa = newHpa ?? (declaresReplicas(base.get(id)) ? undefined : existing.get(id));
    if (hpa && !conflicted.has(id)) warnings.push(warningOf(desired, hpa.name));
  }
  return warnings;
}
