// A kustomization's `openapi: {path: schema.json}`: an OpenAPI v2 document whose definitions give
// custom resources merge keys and patch strategies for strategic-merge patches, as kustomize reads
// them (x-kubernetes-group-version-kind, x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key,
// x-kubernetes-list-map-keys). Like kustomize, the first schema the build meets (the root's) wins.
import type { StrategicMerge } from '../k8s/index.js';

type Definition = Record<string, unknown>;

export interface CustomSchema {
  definitions: Record<string, Definition>;
  /** `group/version/kind` → definition name. */
  byGvk: Map<string, string>;
}

export function readCustomSchema(value: unknown): CustomSchema | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const definitions = (value as { definitions?: unknown }).definitions;
  if (typeof definitions !== 'object' || definitions === null) return undefined;
  const byGvk = new Map<string, string>();
  for (const [name, definition] of Object.entries(definitions as Record<string, Definition>)) {
    const gvks = definition['x-kubernetes-group-version-kind'];
    if (!Array.isArray(gvks)) continue;
    for (const gvk of gvks as { group?: string; version?: string; kind?: string }[]) {
      byGvk.set(`${gvk.group ?? ''}/${gvk.version ?? ''}/${gvk.kind ?? ''}`, name);
    }
  }
  return { definitions: definitions as Record<string, Definition>, byGvk };
}

/** The merge of the list at `path` ('*' stepping into list items) of a kind the schema defines; undefined when it does not. */
export function schemaMergeOf(
  schema: CustomSchema,
  group: string,
  version: string,
  kind: string,
  path: readonly string[],
): StrategicMerge | undefined {
  const name = schema.byGvk.get(`${group}/${version}/${kind}`);
  if (!name) return undefined;
  const resolve = (definition: Definition | undefined): Definition | undefined => {
    let current = definition;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 50; hops++) {
      current = schema.definitions[(current.$ref as string).replace(/^#\/definitions\//, '')];
    }
    return current;
  };
  let definition = resolve(schema.definitions[name]);
  for (const segment of path) {
    if (!definition) return { type: 'replace' };
    if (segment === '*') definition = resolve(definition.items as Definition | undefined);
    else definition = resolve((definition.properties as Record<string, Definition> | undefined)?.[segment]);
  }
  const strategy = definition?.['x-kubernetes-patch-strategy'];
  if (typeof strategy !== 'string' || !strategy.split(',').includes('merge')) return { type: 'replace' };
  const mapKeys = definition?.['x-kubernetes-list-map-keys'];
  const mergeKey = definition?.['x-kubernetes-patch-merge-key'];
  const keys = Array.isArray(mapKeys) ? mapKeys.map(String) : typeof mergeKey === 'string' ? [mergeKey] : [];
  return keys.length > 0 ? { type: 'keyed', keys } : { type: 'set' };
}
