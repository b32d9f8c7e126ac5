// Which suspension a live object is under: a suspended source covers what it manages (its inventory,
// or its stamp when the inventory does not list the object), an excluded object covers itself.
import { displayKey, keyId, keyOf, type KubeObject, type ResourceKey } from '../model/index.js';
import { ARGO_INSTANCE_LABEL, ARGO_TRACKING_ANNOTATION, fluxInventory, readSource } from '../sources/index.js';
import type { Suspension } from './suspensions.js';

const FLUX_STAMPS: Record<string, string> = {
  'flux-kustomization': 'kustomize.toolkit.fluxcd.io',
  'flux-helmrelease': 'helm.toolkit.fluxcd.io',
};

/** What the source's status lists as managed (the source model's inventories), as key ids. */
function inventoryIds(source: KubeObject, suspension: Suspension): Set<string> {
  const helm = suspension.kind === 'flux-helmrelease' ? fluxInventory(source.status) : undefined;
  const entries = readSource(source, true)?.status?.inventory ?? helm ?? [];
  return new Set(entries.map((entry) => keyId(entry.key)));
}

function stampedBy(object: KubeObject, suspension: Suspension): boolean {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  const { name, namespace } = suspension.object;
  const flux = FLUX_STAMPS[suspension.kind];
  if (flux) return labels[`${flux}/name`] === name && labels[`${flux}/namespace`] === namespace;
  if (suspension.kind !== 'argocd-application') return false;
  const tracking = annotations[ARGO_TRACKING_ANNOTATION];
  const names = [name, `${namespace}_${name}`];
  if (tracking !== undefined) return names.some((app) => tracking.startsWith(`${app}:`));
  return labels[ARGO_INSTANCE_LABEL] === name;
}

export interface SuspensionIndex {
  /** The suspension a live object is under, if any. */
  coveringKey(key: ResourceKey): Suspension | undefined;
}

/** Indexes which live objects each suspension covers. */
export function indexSuspensions(suspensions: readonly Suspension[], items: readonly KubeObject[]): SuspensionIndex {
  const covering = new Map<string, Suspension>();
  if (suspensions.length === 0) return { coveringKey: () => undefined };
  const sources = new Map<string, KubeObject>();
  for (const object of items) sources.set(displayKey(keyOf(object)), object);
  for (const suspension of suspensions) {
    const { kind, namespace, name } = suspension.object;
    const source = sources.get(displayKey({ group: '', kind, namespace, name }));
    if (suspension.kind === 'object' || !source) {
      if (source) covering.set(keyId(keyOf(source)), suspension);
      continue;
    }
    const inventory = inventoryIds(source, suspension);
    for (const object of items) {
      if (object === source) continue;
      const key = keyOf(object);
      const id = keyId(key);
      if (covering.has(id)) continue;
      if (inventory.has(id) || stampedBy(object, suspension)) covering.set(id, suspension);
    }
  }
  return { coveringKey: (key) => covering.get(keyId(key)) };
}
