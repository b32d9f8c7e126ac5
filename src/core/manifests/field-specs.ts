// Where kustomize writes labels and annotations besides metadata (its built-in fieldSpecs):
// pod template metadata, selectors, volume claim templates. `create: false` paths are only
// written where the map already exists.
import type { FieldSource } from '../model/index.js';
import { ensureMap, mapsAt, setScalar, type TrackedMap } from './tracked.js';

export interface FieldSpec {
  kinds: readonly string[];
  path: readonly string[];
  create: boolean;
}

const WORKLOADS = ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'ReplicationController'];

export const TEMPLATE_LABELS: readonly FieldSpec[] = [
  { kinds: WORKLOADS, path: ['spec', 'template', 'metadata', 'labels'], create: true },
  { kinds: ['CronJob'], path: ['spec', 'jobTemplate', 'metadata', 'labels'], create: true },
  { kinds: ['CronJob'], path: ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels'], create: true },
];

export const SELECTOR_LABELS: readonly FieldSpec[] = [
  { kinds: ['Service', 'ReplicationController'], path: ['spec', 'selector'], create: true },
  { kinds: ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet'], path: ['spec', 'selector', 'matchLabels'], create: true },
  { kinds: ['Job'], path: ['spec', 'selector', 'matchLabels'], create: false },
  { kinds: ['CronJob'], path: ['spec', 'jobTemplate', 'spec', 'selector', 'matchLabels'], create: false },
  { kinds: ['PodDisruptionBudget'], path: ['spec', 'selector', 'matchLabels'], create: false },
  { kinds: ['NetworkPolicy'], path: ['spec', 'podSelector', 'matchLabels'], create: false },
  { kinds: ['StatefulSet'], path: ['spec', 'volumeClaimTemplates[]', 'metadata', 'labels'], create: true },
];

export const TEMPLATE_ANNOTATIONS: readonly FieldSpec[] = [
  { kinds: WORKLOADS, path: ['spec', 'template', 'metadata', 'annotations'], create: true },
  { kinds: ['CronJob'], path: ['spec', 'jobTemplate', 'metadata', 'annotations'], create: true },
  { kinds: ['CronJob'], path: ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'annotations'], create: true },
];

export const METADATA_LABELS: FieldSpec = { kinds: [], path: ['metadata', 'labels'], create: true };
export const METADATA_ANNOTATIONS: FieldSpec = { kinds: [], path: ['metadata', 'annotations'], create: true };

/** Writes every pair into the maps the spec names in `root` (all kinds when `kinds` is empty). */
export function writePairs(root: TrackedMap, kind: string, spec: FieldSpec, pairs: ReadonlyMap<string, string>, source: FieldSource): void {
  if (spec.kinds.length > 0 && !spec.kinds.includes(kind)) return;
  for (const target of targetsOf(root, spec, source)) {
    for (const [key, value] of pairs) setScalar(target, key, value, source);
  }
}

function targetsOf(root: TrackedMap, spec: FieldSpec, source: FieldSource): TrackedMap[] {
  const listAt = spec.path.findIndex((segment) => segment.endsWith('[]'));
  if (listAt >= 0) {
    // Items of a list: create the map inside each existing item, never new items.
    const parents = mapsAt(root, spec.path.slice(0, listAt + 1));
    return parents.flatMap((item) => {
      const rest = spec.path.slice(listAt + 1);
      const found = spec.create ? ensureMap(item, rest, source) : mapsAt(item, rest)[0];
      return found ? [found] : [];
    });
  }
  if (spec.create) {
    const map = ensureMap(root, spec.path, source);
    return map ? [map] : [];
  }
  return mapsAt(root, spec.path);
}
