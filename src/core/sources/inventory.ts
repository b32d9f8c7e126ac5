// Inventories: what a source says it manages (DESIGN "inventory"). Flux writes
// `status.inventory.entries[]` as `{id, v}` with ids `<namespace>_<name>_<group>_<kind>` (fluxcd/cli-utils
// pkg/object/objmetadata.go); Argo CD writes `status.resources[]` as `{group, version, kind, namespace, name}`.
import { isPlainObject, type ResourceKey } from '../model/index.js';
import type { InventoryEntry } from './types.js';

/**
 * A Flux inventory id as a key, parsed as cli-utils `ParseObjMetadata` does: the namespace up to the first
 * `_`, the kind after the last, the group before that, the rest is the name (`:` written as `__`).
 * Undefined for an id without the four fields.
 */
export function parseFluxInventoryId(id: string): ResourceKey | undefined {
  const first = id.indexOf('_');
  if (first < 0) return undefined;
  const namespace = id.slice(0, first);
  let rest = id.slice(first + 1);
  const kindAt = rest.lastIndexOf('_');
  if (kindAt < 0) return undefined;
  const kind = rest.slice(kindAt + 1);
  rest = rest.slice(0, kindAt);
  const groupAt = rest.lastIndexOf('_');
  if (groupAt < 0) return undefined;
  const group = rest.slice(groupAt + 1);
  const name = rest.slice(0, groupAt).replaceAll('__', ':');
  if (!kind || !name) return undefined;
  return { group, kind, namespace, name };
}

/** The Flux inventory id of a key (the inverse of `parseFluxInventoryId`). */
export function fluxInventoryId(key: ResourceKey): string {
  return `${key.namespace}_${key.name.replaceAll(':', '__')}_${key.group}_${key.kind}`;
}

/** `status.inventory.entries` of a Flux Kustomization or HelmRelease; undefined when there is no inventory. */
export function fluxInventory(status: unknown): InventoryEntry[] | undefined {
  if (!isPlainObject(status) || !isPlainObject(status.inventory)) return undefined;
  const entries = Array.isArray(status.inventory.entries) ? status.inventory.entries : [];
  const inventory: InventoryEntry[] = [];
  for (const entry of entries) {
    if (!isPlainObject(entry) || typeof entry.id !== 'string') continue;
    const key = parseFluxInventoryId(entry.id);
    if (!key) continue;
    inventory.push(typeof entry.v === 'string' ? { key, version: entry.v } : { key });
  }
  return inventory;
}

/** `status.resources` of an Argo CD Application; undefined when the status has none. */
export function argoInventory(status: unknown): InventoryEntry[] | undefined {
  if (!isPlainObject(status) || !Array.isArray(status.resources)) return undefined;
  const inventory: InventoryEntry[] = [];
  for (const item of status.resources) {
    if (!isPlainObject(item) || typeof item.kind !== 'string' || typeof item.name !== 'string') continue;
    const key: ResourceKey = {
      group: typeof item.group === 'string' ? item.group : '',
      kind: item.kind,
      namespace: typeof item.namespace === 'string' ? item.namespace : '',
      name: item.name,
    };
    inventory.push(typeof item.version === 'string' ? { key, version: item.version } : { key });
  }
  return inventory;
}
