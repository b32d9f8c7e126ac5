// namePrefix / nameSuffix. Like kustomize, Namespaces, CRDs and APIServices keep their names
// (their names are fixed by the API, not chosen per overlay).
import type { FieldSource } from '../model/index.js';
import { kindOf, nameOf, storePreviousId, type BuildResource } from './resource.js';
import { ensureMap, setScalar } from './tracked.js';

const KEEP_NAME: ReadonlySet<string> = new Set(['Namespace', 'CustomResourceDefinition', 'APIService']);

export function applyNameAffix(resources: BuildResource[], prefix: string, suffix: string, source: FieldSource): void {
  if (!prefix && !suffix) return;
  for (const resource of resources) {
    if (KEEP_NAME.has(kindOf(resource))) continue;
    const metadata = ensureMap(resource.root, ['metadata'], source);
    if (!metadata) continue;
    const name = `${prefix}${nameOf(resource)}${suffix}`;
    storePreviousId(resource);
    if (prefix) (resource.prefixes ??= []).push(prefix);
    if (suffix) (resource.suffixes ??= []).push(suffix);
    setScalar(metadata, 'name', name, source);
    resource.names.push(name);
    resource.renamedBy = source.origin;
  }
}
