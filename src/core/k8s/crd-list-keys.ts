// Keyed lists of custom resources, read from the CustomResourceDefinitions a snapshot holds: a list
// whose schema says `x-kubernetes-list-type: map` is matched by its `x-kubernetes-list-map-keys`, as
// server-side apply matches it (a Gateway's `spec.listeners` by `name`). Built-in kinds' keys come from
// the generated table (list-keys.generated.ts); these fill in what it cannot know.
import type { KubeObject } from '../model/index.js';
import { escapeSegment, groupOf, isPlainObject } from '../model/index.js';

/** `group/kind/version` → pointer pattern (list items as `*`) → keys. */
export type CustomListKeys = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/** Looks up the keys of a custom resource's list; undefined when the list is atomic or unknown. */
export type ListKeysLookup = (group: string, kind: string, version: string, pattern: string) => string[] | undefined;

function walkSchema(schema: unknown, pattern: string, out: Map<string, readonly string[]>, depth: number): void {
  if (!isPlainObject(schema) || depth > 64) return;
  if (schema['x-kubernetes-list-type'] === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys'])) {
    const keys = schema['x-kubernetes-list-map-keys'].filter((k): k is string => typeof k === 'string');
    if (keys.length) out.set(pattern, keys);
  }
  if (isPlainObject(schema.properties)) {
    for (const [field, sub] of Object.entries(schema.properties)) {
      walkSchema(sub, `${pattern}/${escapeSegment(field)}`, out, depth + 1);
    }
  }
  if (isPlainObject(schema.items)) walkSchema(schema.items, `${pattern}/*`, out, depth + 1);
  const values = schema.additionalProperties;
  if (isPlainObject(values)) walkSchema(values, `${pattern}/*`, out, depth + 1);
}

/** Reads the keyed lists of every CRD in live (each served version's schema). */
export function customListKeysOf(live: readonly KubeObject[]): CustomListKeys {
  const table = new Map<string, Map<string, readonly string[]>>();
  for (const object of live) {
    const crd =
      object.kind === 'CustomResourceDefinition' && groupOf(object.apiVersion ?? '') === 'apiextensions.k8s.io';
    if (!crd) continue;
    const spec = object.spec;
    if (!isPlainObject(spec) || typeof spec.group !== 'string' || !isPlainObject(spec.names)) continue;
    const kind = spec.names.kind;
    if (typeof kind !== 'string' || !Array.isArray(spec.versions)) continue;
    for (const version of spec.versions) {
      if (!isPlainObject(version) || typeof version.name !== 'string') continue;
      const schema = isPlainObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
      const lists = new Map<string, readonly string[]>();
      walkSchema(schema, '', lists, 0);
      if (lists.size) table.set(`${spec.group}/${kind}/${version.name}`, lists);
    }
  }
  return table;
}

/** A lookup over the table; a version the table lacks falls back to any version of the kind. */
export function customListKeysLookup(table: CustomListKeys): ListKeysLookup {
  return (group, kind, version, pattern) => {
    const exact = table.get(`${group}/${kind}/${version}`)?.get(pattern);
    if (exact) return [...exact];
    const prefix = `${group}/${kind}/`;
    for (const [id, lists] of table) if (id.startsWith(prefix) && lists.has(pattern)) return [...lists.get(pattern)!];
    return undefined;
  };
}
