// kustomize's `crds:` field: files of OpenAPI definitions (type name → {Schema, Dependencies}, JSON
// or YAML) whose properties carry kustomize's extensions, read into transformer field specs as its
// LoadConfigFromCRDs does: `x-kubernetes-annotation` → commonAnnotations, `x-kubernetes-label-selector`
// → commonLabels, `x-kubernetes-identity` → namePrefix, `x-kubernetes-object-ref-api-version` with
// `x-kubernetes-object-ref-kind` (and `x-kubernetes-object-ref-name-key`, default `name`) → a name
// reference. A type is read when its properties hold kind, apiVersion and metadata; its kind is the
// last dot-separated part of the type name; `$ref`s are followed (each type once per path).
import type { PathSpec, TransformerConfig } from './transformer-config.js';

type Definitions = Record<string, { Schema?: Schema } | undefined>;
interface Schema {
  properties?: Record<string, Property | undefined>;
}
type Property = Record<string, unknown> & { $ref?: unknown };

/** The field specs one definitions document adds (a document that is not a map adds none). */
export function configFromCrdDefinitions(document: unknown): Partial<TransformerConfig> {
  const config = {
    commonAnnotations: [],
    commonLabels: [],
    namePrefix: [],
    nameReference: [],
  } satisfies Partial<TransformerConfig>;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return config;
  const definitions = document as Definitions;
  for (const [name, definition] of Object.entries(definitions)) {
    const properties = definition?.Schema?.properties ?? {};
    if (!('kind' in properties && 'apiVersion' in properties && 'metadata' in properties)) continue;
    const kind = name.split('.').pop() ?? name;
    walk(config, definitions, name, kind, [], new Set());
  }
  return config;
}

function walk(
  config: Required<Pick<TransformerConfig, 'commonAnnotations' | 'commonLabels' | 'namePrefix' | 'nameReference'>>,
  definitions: Definitions,
  typeName: string,
  kind: string,
  path: string[],
  seen: Set<string>,
): void {
  const schema = definitions[typeName]?.Schema;
  if (!schema?.properties || seen.has(typeName)) return;
  const inPath = new Set(seen).add(typeName);
  for (const [propName, property] of Object.entries(schema.properties)) {
    if (!property) continue;
    const spec = (...segments: string[]): PathSpec => ({ kind, path: [...path, ...segments].join('/'), create: false });
    if (typeof property['x-kubernetes-annotation'] === 'string') config.commonAnnotations.push(spec(propName));
    if (typeof property['x-kubernetes-label-selector'] === 'string') config.commonLabels.push(spec(propName));
    if (typeof property['x-kubernetes-identity'] === 'string') config.namePrefix.push(spec(propName));
    const version = property['x-kubernetes-object-ref-api-version'];
    const refKind = property['x-kubernetes-object-ref-kind'];
    if (typeof version === 'string' && typeof refKind === 'string') {
      const nameKey = property['x-kubernetes-object-ref-name-key'];
      const referrer = spec(propName, typeof nameKey === 'string' ? nameKey : 'name');
      config.nameReference.push({ kind: refKind, version, fieldSpecs: [referrer] });
    }
    if (typeof property.$ref === 'string' && property.$ref !== '')
      walk(config, definitions, property.$ref, kind, [...path, propName], inPath);
  }
}
