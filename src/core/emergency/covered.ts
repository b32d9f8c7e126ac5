// Which suspension a live object is under: a suspended source covers what it manages (its inventory,
// or its stamp when the inventory does not list the object), an excluded object covers itself.
import { listAt, stringAt } from '../health/read.js';
import { keyId, keyOf, type KubeObject, type ResourceKey } from '../model/index.js';
import type { Suspension } from './suspensions.js';

const FLUX_STAMPS: Record<string, string> = {
  'flux-kustomization': 'kustomize.toolkit.fluxcd.io',
  'flux-helmrelease': 'helm.toolkit.fluxcd.io',
};

/** Flux inventory ids are `<namespace>_<name>_<group>_<kind>`. */
function fluxInventoryIds(source: KubeObject): Set<string> {
  return new Set(listAt(source, 'status', 'inventory', 'entries').map((entry) => stringAt(entry, 'id')).filter((id): id is string => !!id));
}

function fluxIdOf(key: ResourceKey): string {
  return `${key.namespace}_${key.name}_${key.group}_${key.kind}`;
}

function argoInventoryIds(source: KubeObject): Set<string> {
  return new Set(listAt(source, 'status', 'resources').map((entry) => keyId({
    group: stringAt(entry, 'group') ?? '', kind: stringAt(entry, 'kind') ?? '', namespace: stringAt(entry, 'namespace') ?? '', name: stringAt(entry, 'name') ?? '',
  })));
}

function stampedBy(object: KubeObject, suspension: Suspension): boolean {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  const { name, namespace } = suspension.object;
  const flux = FLUX_STAMPS[suspension.kind];
  if (flux) return labels[`${flux}/name`] === name && labels[`${flux}/namespace`] === namespace;
  if (suspension.kind !== 'argocd-application') return false;
  const tracking = annotations['argocd.argoproj.io/tracking-id'];
  const names = [name, `${namespace}_${name}`];
  if (tracking !== undefined) return names.some((app) => tracking.startsWith(`${app}:`));
  return labels['app.kubernetes.io/instance'] === name;
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
  for (const object of items) sources.set(`${object.kind}/${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`, object);
  for (const suspension of suspensions) {
    const { kind, namespace, name } = suspension.object;
    const source = sources.get(`${kind}/${namespace}/${name}`);
    if (suspension.kind === 'object' || !source) {
      if (source) covering.set(keyId(keyOf(source)), suspension);
      continue;
    }
    const inventory = suspension.kind === 'argocd-application' ? argoInventoryIds(source) : fluxInventoryIds(source);
    for (const object of items) {
      if (object === source) continue;
      const key = keyOf(object);
      const id = keyId(key);
      if (covering.has(id)) continue;
      const listed = suspension.kind === 'argocd-application' ? inventory.has(id) : inventory.has(fluxIdOf(key));
      if (listed || stampedBy(object, suspension)) covering.set(id, suspension);
    }
  }
  return { coveringKey: (key) => covering.get(keyId(key)) };
}
