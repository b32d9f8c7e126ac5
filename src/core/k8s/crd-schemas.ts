// What a CustomResourceDefinition's schema says of its kind's fields, read from the CRDs of the
// snapshot and of the repository: keyed lists (`x-kubernetes-list-type: map` matched by its
// `x-kubernetes-list-map-keys`, as server-side apply matches them: a Gateway's `spec.listeners` by
// `name`) and defaults (`default`, which the API server fills in when a manifest leaves the field
// out). Built-in kinds' facts come from the generated tables; these fill in what they cannot know.
import type { KubeObject } from '../model/index.js';
import { escapeSegment, groupOf, isPlainObject } from '../model/index.js';

/** The facts of one served version of a custom kind, by pointer pattern (list items as `*`). */
export interface CustomKindFacts {
  listKeys: ReadonlyMap<string, readonly string[]>;
  defaults: ReadonlyMap<string, unknown>;
}

/** `group/kind/version` → that version's facts. */
export type CustomKinds = ReadonlyMap<string, CustomKindFacts>;

/** Looks up the keys of a custom resource's list; undefined when the list is atomic or unknown. */
export type ListKeysLookup = (group: string, kind: string, version: string, pattern: string) => string[] | undefined;

/** Looks up the default a custom resource's field gets; undefined when its schema gives none. */
export type DefaultLookup = (
  group: string,
  kind: string,
  version: string,
  pattern: string,
) => { value: unknown } | undefined;

interface Collected {
  listKeys: Map<string, readonly string[]>;
  defaults: Map<string, unknown>;
}

function walkSchema(schema: unknown, pattern: string, out: Collected, depth: number): void {
  if (!isPlainObject(schema) || depth > 64) return;
  if (schema['x-kubernetes-list-type'] === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys'])) {
    const keys = schema['x-kubernetes-list-map-keys'].filter((k): k is string => typeof k === 'string');
    if (keys.length) out.listKeys.set(pattern, keys);
  }
  if (pattern !== '' && schema.default !== undefined) out.defaults.set(pattern, schema.default);
  if (isPlainObject(schema.properties)) {
    for (const [field, sub] of Object.entries(schema.properties)) {
      walkSchema(sub, `${pattern}/${escapeSegment(field)}`, out, depth + 1);
    }
  }
  if (isPlainObject(schema.items)) walkSchema(schema.items, `${pattern}/*`, out, depth + 1);
  const values = schema.additionalProperties;
  if (isPlainObject(values)) walkSchema(values, `${pattern}/*`, out, depth + 1);
}

/** Each served version of a CRD with what its schema says; nothing for any other object. */
function factsOfCrd(object: KubeObject): Array<[string, CustomKindFacts]> {
  const crd = object.kind === 'CustomResourceDefinition' && groupOf(object.apiVersion ?? '') === 'apiextensions.k8s.io';
  const spec = crd ? object.spec : undefined;
  if (!isPlainObject(spec) || typeof spec.group !== 'string' || !isPlainObject(spec.names)) return [];
  const kind = spec.names.kind;
  if (typeof kind !== 'string' || !Array.isArray(spec.versions)) return [];
  const out: Array<[string, CustomKindFacts]> = [];
  for (const version of spec.versions) {
    if (!isPlainObject(version) || typeof version.name !== 'string') continue;
    const schema = isPlainObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
    const facts: Collected = { listKeys: new Map(), defaults: new Map() };
    walkSchema(schema, '', facts, 0);
    if (facts.listKeys.size || facts.defaults.size) out.push([`${spec.group}/${kind}/${version.name}`, facts]);
  }
  return out;
}

/**
 * Reads the schemas of every CRD among `objects`. Give the cluster's objects first: a kind whose CRD
 * appears twice (in the snapshot and in the repository) keeps the first, what the cluster serves.
 */
export function customKindsOf(objects: readonly KubeObject[]): CustomKinds {
  const table = new Map<string, CustomKindFacts>();
  for (const object of objects) {
    for (const [id, facts] of factsOfCrd(object)) if (!table.has(id)) table.set(id, facts);
  }
  return table;
}

/** A fact of a kind's version; a version the table lacks falls back to any version of the kind. */
function lookup<T>(table: CustomKinds, id: string, pick: (facts: CustomKindFacts) => T | undefined): T | undefined {
  const exact = table.get(id);
  const found = exact ? pick(exact) : undefined;
  if (found !== undefined) return found;
  const prefix = id.slice(0, id.lastIndexOf('/') + 1);
  for (const [other, facts] of table) {
    const value = other.startsWith(prefix) ? pick(facts) : undefined;
    if (value !== undefined) return value;
  }
  return undefined;
}

export function customListKeysLookup(table: CustomKinds): ListKeysLookup {
  return (group, kind, version, pattern) => {
    const keys = lookup(table, `${group}/${kind}/${version}`, (facts) => facts.listKeys.get(pattern));
    return keys ? [...keys] : undefined;
  };
}

export function customDefaultsLookup(table: CustomKinds): DefaultLookup {
  return (group, kind, version, pattern) =>
    lookup(table, `${group}/${kind}/${version}`, (facts) =>
      facts.defaults.has(pattern) ? { value: facts.defaults.get(pattern) } : undefined,
    );
}

/** Both lookups over the CRDs among `objects` (the cluster's first), as the diff takes them. */
export function customLookupsOf(objects: readonly KubeObject[]): {
  customListKeys: ListKeysLookup;
  customDefaults: DefaultLookup;
} {
  const table = customKindsOf(objects);
  return { customListKeys: customListKeysLookup(table), customDefaults: customDefaultsLookup(table) };
}
