// Which suspension a live object is under: a suspended source covers what it manages (its inventory,
// or its stamps when the inventory does not list the object), an excluded object covers itself.
import { keyId, keyOf, type KubeObject, type ResourceKey } from '../model/index.js';
import {
  fluxInventory,
  isStampedBy,
  readArgoSettings,
  readSource,
  type ArgoTracking,
  type SourceRef,
} from '../sources/index.js';
import { suspendedObjectKey, suspendedSource, type Suspension } from './suspensions.js';

/** What the source's status lists as managed (the source model's inventories), as key ids. */
function inventoryIds(source: KubeObject, ref: SourceRef): Set<string> {
  const helm = ref.kind === 'HelmRelease' ? fluxInventory(source.status) : undefined;
  const entries = readSource(source, true)?.status?.inventory ?? helm ?? [];
  return new Set(entries.map((entry) => keyId(entry.key)));
}

export interface SuspensionIndex {
  /** The suspension a live object is under, if any. */
  coveringKey(key: ResourceKey): Suspension | undefined;
}

/**
 * Key ids of every live object a source applies: listed in its inventory, or carrying its stamps.
 * "In sync" after an emergency is judged over all of them, not only what the PR codified.
 */
export function objectsOfSource(
  source: KubeObject,
  ref: SourceRef,
  items: readonly KubeObject[],
  tracking: ArgoTracking = readArgoSettings(items),
): Set<string> {
  const inventory = inventoryIds(source, ref);
  const ids = new Set<string>();
  for (const object of items) {
    if (object === source) continue;
    const id = keyId(keyOf(object));
    if (inventory.has(id) || isStampedBy(object, ref, tracking)) ids.add(id);
  }
  return ids;
}

/** objectsOfSource of a suspended source, found among the live objects; undefined for an excluded object, or a source gone. */
export function objectsOfSuspended(suspension: Suspension, items: readonly KubeObject[]): Set<string> | undefined {
  const ref = suspendedSource(suspension);
  const id = keyId(suspendedObjectKey(suspension));
  const source = ref && items.find((object) => keyId(keyOf(object)) === id);
  return ref && source ? objectsOfSource(source, ref, items) : undefined;
}

function cover(
  covering: Map<string, Suspension>,
  suspension: Suspension,
  source: KubeObject,
  items: readonly KubeObject[],
  tracking: ArgoTracking,
): void {
  const ref = suspendedSource(suspension);
  if (!ref) {
    covering.set(keyId(keyOf(source)), suspension);
    return;
  }
  for (const id of objectsOfSource(source, ref, items, tracking)) {
    if (!covering.has(id)) covering.set(id, suspension);
  }
}

/** Indexes which live objects each suspension covers. */
export function indexSuspensions(suspensions: readonly Suspension[], items: readonly KubeObject[]): SuspensionIndex {
  const covering = new Map<string, Suspension>();
  if (suspensions.length === 0) return { coveringKey: () => undefined };
  const byKey = new Map<string, KubeObject>();
  for (const object of items) byKey.set(keyId(keyOf(object)), object);
  const tracking = readArgoSettings(items);
  for (const suspension of suspensions) {
    const source = byKey.get(keyId(suspendedObjectKey(suspension)));
    if (source) cover(covering, suspension, source, items, tracking);
  }
  return { coveringKey: (key) => covering.get(keyId(key)) };
}
