// Which lists are matched by key, and by which fields — two merges, two sets of facts, both from the
// API's OpenAPI documents (merge-facts.ts):
// * server-side apply (what the API server does, what managedFields records, what the diff and the
//   plan compare): an associative list's keys (`x-kubernetes-list-map-keys`, or the patch merge key of
//   a list with no list type). Sets and every other list are compared whole.
// * strategic merge patch as kustomize applies it: only a list with a `merge` patch strategy merges,
//   keyed by its list-map-keys when it has them, else its patch merge key; with neither, a list of
//   scalars is merged as a set (finalizers). (sigs.k8s.io/kustomize kyaml/openapi
//   ResourceSchema.PatchStrategyAndKeyList.) kubectl's own patch uses the merge key alone: container
//   ports by containerPort, where kustomize and server-side apply use containerPort and protocol.
// StatefulSet `volumeClaimTemplates` carries no annotation: atomic for both.
import { isBuiltInGroup } from './kinds.js';
import { mergeFactsAt } from './merge-facts.js';

/**
 * The keys of the list at `pointerToList` (list items written as `*`, e.g.
 * `/spec/template/spec/containers/*\/ports`) as server-side apply matches them, or undefined when the
 * list is atomic (or a set). Lists of kinds the API does not serve itself are atomic.
 */
export function listKeysFor(
  group: string,
  kind: string,
  pointerToList: string,
  version?: string,
): string[] | undefined {
  const ssa = mergeFactsAt(group, kind, pointerToList, version)?.ssa;
  return Array.isArray(ssa) ? [...ssa] : undefined;
}

export type StrategicMerge =
  /** Items are merged by these keys. */
  | { type: 'keyed'; keys: string[] }
  /** A list of scalars merged as a set (`metadata.finalizers`). */
  | { type: 'set' }
  /** The patch's list replaces the target's. */
  | { type: 'replace' };

/** Pointer pattern of a path of segments, list items written as `*`. */
function patternOf(path: readonly string[]): string {
  return path.map((s) => '/' + (s === '*' ? s : s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('');
}

/**
 * How strategic merge patch merges the list at `path` (segments from the object root, list items
 * written as `*`). Custom resources have no schema here, so their lists are replaced whole, as
 * kustomize does without a schema.
 */
export function strategicMergeOf(
  group: string,
  kind: string,
  path: readonly string[],
  version?: string,
): StrategicMerge {
  if (!isBuiltInGroup(group)) return { type: 'replace' };
  const facts = mergeFactsAt(group, kind, patternOf(path), version);
  if (!facts?.smp?.split(',').includes('merge')) return { type: 'replace' };
  // An associative list's keys are its list-map-keys; the generator records them as the SSA keys.
  const keys = Array.isArray(facts.ssa) ? [...facts.ssa] : facts.smpKey ? [facts.smpKey] : [];
  return keys.length ? { type: 'keyed', keys } : { type: 'set' };
}
