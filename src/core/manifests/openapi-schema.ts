// A kustomization's `openapi: {path: schema.json}`: an OpenAPI v2 document whose definitions give
// custom resources merge keys and patch strategies for strategic-merge patches, as kustomize reads
// them (x-kubernetes-group-version-kind, x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key,
// x-kubernetes-list-map-keys). Like kustomize, the first schema the build meets (the root's) wins.
import { hasSharedSchema, strategicMergeInSchema, type StrategicMerge } from '../k8s/index.js';

type Definition = Record<string, unknown>;

export interface CustomSchema {
  definitions: Record<string, Definition>;
  /** `group/version/kind` → definition name. */
  byGvk: Map<string, string>;
  /** Whether Kubernetes' own definitions were added to the schema's (see readCustomSchema). */
  withBuiltIn: boolean;
}

/**
 * The schema of an `openapi: {path}` document. kustomize adds Kubernetes' own definitions to it when
 * the build had read an object of a kind Kubernetes does not serve itself before the schema was
 * chosen (kyaml openapi initSchema parses the built-in schema then, its parse having been delayed by
 * that kind's scope check), so a custom kind's `$ref` to a built-in type (a PodTemplateSpec) resolves
 * there; otherwise such a reference resolves to nothing and the list is replaced.
 */
export function readCustomSchema(value: unknown, withBuiltIn = false): CustomSchema | undefined {
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
  return { definitions: definitions as Record<string, Definition>, byGvk, withBuiltIn };
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
  let at = resolve(schema, name);
  for (const [index, segment] of path.entries()) {
    if (typeof at === 'string') return strategicMergeInSchema(at, path.slice(index)) ?? { type: 'replace' };
    if (!at) return { type: 'replace' };
    const next = segment === '*' ? at.items : (at.properties as Record<string, Definition> | undefined)?.[segment];
    at = typeof next === 'object' && next !== null ? follow(schema, next as Definition) : undefined;
  }
  if (typeof at === 'string') return strategicMergeInSchema(at, []) ?? { type: 'replace' };
  const strategy = at?.['x-kubernetes-patch-strategy'];
  if (typeof strategy !== 'string' || !strategy.split(',').includes('merge')) return { type: 'replace' };
  const mapKeys = at?.['x-kubernetes-list-map-keys'];
  const mergeKey = at?.['x-kubernetes-patch-merge-key'];
  const keys = Array.isArray(mapKeys) ? mapKeys.map(String) : typeof mergeKey === 'string' ? [mergeKey] : [];
  return keys.length > 0 ? { type: 'keyed', keys } : { type: 'set' };
}

const BUILT_IN_PREFIX = 'io.k8s.api.';

/**
 * A definition by name: the schema's own, or — when the built-in definitions were added — the short
 * name of the shared built-in schema of that name (`core.v1.PodTemplateSpec`), which kustomize lets
 * overwrite the custom one.
 */
function resolve(schema: CustomSchema, name: string): Definition | string | undefined {
  if (schema.withBuiltIn && name.startsWith(BUILT_IN_PREFIX)) {
    const short = name.slice(BUILT_IN_PREFIX.length);
    if (hasSharedSchema(short)) return short;
  }
  return follow(schema, schema.definitions[name]);
}

/** A definition with its `$ref`s followed (a bounded number of hops). */
function follow(schema: CustomSchema, definition: Definition | undefined): Definition | string | undefined {
  let current: Definition | undefined = definition;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 50; hops++) {
    const name = current.$ref.replace(/^#\/definitions\//, '');
    if (schema.withBuiltIn && name.startsWith(BUILT_IN_PREFIX) && hasSharedSchema(name.slice(BUILT_IN_PREFIX.length)))
      return name.slice(BUILT_IN_PREFIX.length);
    current = schema.definitions[name];
  }
  return current;
}
