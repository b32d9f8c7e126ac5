// namePrefix / nameSuffix, as kustomize's PrefixTransformer and then its SuffixTransformer: each
// writes at its field specs (the default `metadata/name` for every kind, or what `configurations`
// put in its place). Renaming an object records its previous id and its affix, for name references.
// Like kustomize, Namespaces, CRDs and APIServices keep their names (fixed by the API, not chosen
// per overlay).
import type { FieldSource } from '../model/index.js';
import { nameOf, originalId, storePreviousId, type BuildResource } from './resource.js';
import { fieldsAt, gvkSelected, pathSegments, type Gvk, type PathSpec } from './transformer-config.js';
import { setScalar } from './tracked.js';

const KEEP_NAME: readonly Gvk[] = [
  { kind: 'CustomResourceDefinition' },
  { group: 'apiregistration.k8s.io', kind: 'APIService' },
  { kind: 'Namespace' },
];

export interface AffixSpecs {
  prefix: readonly PathSpec[];
  suffix: readonly PathSpec[];
}

export function applyNameAffix(
  resources: BuildResource[],
  affix: { prefix: string; suffix: string },
  specs: AffixSpecs,
  source: FieldSource,
): void {
  if (affix.prefix) applyOne(resources, 'prefix', affix.prefix, specs.prefix, source);
  if (affix.suffix) applyOne(resources, 'suffix', affix.suffix, specs.suffix, source);
}

function applyOne(
  resources: BuildResource[],
  side: 'prefix' | 'suffix',
  value: string,
  specs: readonly PathSpec[],
  source: FieldSource,
): void {
  const affixed = (name: string): string => (side === 'prefix' ? `${value}${name}` : `${name}${value}`);
  for (const resource of resources) {
    const id = originalId(resource);
    if (KEEP_NAME.some((skip) => gvkSelected(id, skip))) continue;
    for (const spec of specs) {
      if (!gvkSelected(id, spec)) continue;
      const isName = spec.path === 'metadata/name';
      if (isName) {
        (side === 'prefix' ? (resource.prefixes ??= []) : (resource.suffixes ??= [])).push(value);
        storePreviousId(resource);
      }
      for (const field of fieldsAt(resource.root, pathSegments(spec.path))) {
        if (field.node.kind !== 'scalar' || typeof field.node.value !== 'string') continue;
        setScalar(field.parent, field.key, affixed(field.node.value), source);
      }
      if (!isName) continue;
      resource.names.push(nameOf(resource));
      resource.renamedBy = source.origin;
    }
  }
}
