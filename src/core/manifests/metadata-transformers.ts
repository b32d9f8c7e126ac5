// commonLabels / labels / commonAnnotations: kustomize's label and annotation transformers, which
// write their pairs at field specs (transformer-config.ts): metadata, pod templates, selectors and
// volume claim templates by default, plus what `configurations` or a label's own `fields` add.
import type { FieldSource } from '../model/index.js';
import { groupOfResource, kindOf, versionOfResource, type BuildResource } from './resource.js';
import { gvkSelected, pathSegments, type PathSpec, type TransformerConfig } from './transformer-config.js';
import { setScalar, type TrackedMap, type TrackedNode } from './tracked.js';

export interface LabelOptions {
  includeSelectors: boolean;
  includeTemplates: boolean;
  includeVolumeClaimTemplates?: boolean;
  /** A label entry's own `fields`. */
  fieldSpecs?: PathSpec[];
}

/** The field specs a `labels:` entry writes to, as kustomize assembles them. */
export function labelSpecs(config: TransformerConfig, options: LabelOptions): PathSpec[] {
  const specs: PathSpec[] = [...(options.fieldSpecs ?? []), ...config.labels];
  if (options.includeSelectors) specs.push(...config.commonLabels);
  else {
    if (options.includeTemplates) specs.push(...config.templateLabels);
    if (options.includeVolumeClaimTemplates) specs.push(...config.volumeClaimTemplateLabels);
    specs.push({ path: 'metadata/labels', create: true });
  }
  return specs;
}

/** Writes every pair at each field spec that selects the resource's kind. */
export function writePairs(
  resources: BuildResource[],
  pairs: ReadonlyMap<string, string>,
  specs: readonly PathSpec[],
  source: FieldSource,
): void {
  if (pairs.size === 0) return;
  for (const resource of resources) {
    const gvk = { group: groupOfResource(resource), version: versionOfResource(resource), kind: kindOf(resource) };
    const done = new Set<TrackedMap>();
    for (const spec of specs) {
      if (!gvkSelected(gvk, spec)) continue;
      for (const map of mapsFor(resource.root, pathSegments(spec.path), spec.create ?? false, source)) {
        if (done.has(map)) continue;
        done.add(map);
        for (const [key, value] of pairs) setScalar(map, key, value, source);
      }
    }
  }
}

/** The maps a field spec path ends at: lists are entered item by item, missing maps made when `create`. */
function mapsFor(root: TrackedNode, segments: readonly string[], create: boolean, source: FieldSource): TrackedMap[] {
  const out: TrackedMap[] = [];
  const walk = (node: TrackedNode, i: number): void => {
    if (node.kind === 'list') {
      for (const item of node.items) walk(item, i);
      return;
    }
    if (node.kind !== 'map') return;
    if (i === segments.length) {
      out.push(node);
      return;
    }
    const isList = segments[i].endsWith('[]');
    const key = isList ? segments[i].slice(0, -2) : segments[i];
    let child = node.entries.get(key);
    if (!child || (child.kind === 'scalar' && child.value === null)) {
      if (!create || isList) return;
      child = { kind: 'map', entries: new Map(), source };
      node.entries.set(key, child);
    }
    walk(child, i + 1);
  };
  walk(root, 0);
  return out;
}
