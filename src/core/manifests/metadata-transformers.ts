// commonLabels / labels / commonAnnotations: kustomize's label and annotation transformers.
import type { FieldSource } from '../model/index.js';
import { kindOf, type BuildResource } from './resource.js';
import {
  METADATA_ANNOTATIONS, METADATA_LABELS, SELECTOR_LABELS, TEMPLATE_ANNOTATIONS, TEMPLATE_LABELS, writePairs,
} from './field-specs.js';

export interface LabelOptions {
  includeSelectors: boolean;
  includeTemplates: boolean;
}

export function applyLabels(resources: BuildResource[], pairs: ReadonlyMap<string, string>, options: LabelOptions, source: FieldSource): void {
  if (pairs.size === 0) return;
  for (const resource of resources) {
    const kind = kindOf(resource);
    writePairs(resource.root, kind, METADATA_LABELS, pairs, source);
    // includeSelectors implies templates too: selectors must keep matching their pods.
    if (options.includeSelectors || options.includeTemplates) for (const spec of TEMPLATE_LABELS) writePairs(resource.root, kind, spec, pairs, source);
    if (options.includeSelectors) for (const spec of SELECTOR_LABELS) writePairs(resource.root, kind, spec, pairs, source);
  }
}

export function applyAnnotations(resources: BuildResource[], pairs: ReadonlyMap<string, string>, source: FieldSource): void {
  if (pairs.size === 0) return;
  for (const resource of resources) {
    const kind = kindOf(resource);
    writePairs(resource.root, kind, METADATA_ANNOTATIONS, pairs, source);
    for (const spec of TEMPLATE_ANNOTATIONS) writePairs(resource.root, kind, spec, pairs, source);
  }
}
