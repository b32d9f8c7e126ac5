// Which lists are matched by key, and by which fields — two merges, two sets of facts:
// * server-side apply (what the API server does, what managedFields records, what the diff and the
//   plan compare): `x-kubernetes-list-type: map` with its `list-map-keys`; a list with no list type
//   but a `merge` patch strategy is keyed by its patch merge key. Everything else is atomic.
//   (k8s.io/kube-openapi pkg/schemaconv/smd.go, VisitArray.)
// * strategic merge patch as kustomize applies it: only a list with a patch strategy merges, keyed by
//   its `list-map-keys` when it has them, else its patch merge key; with neither, a list of scalars is
//   merged as a set (finalizers). (sigs.k8s.io/kustomize kyaml/openapi ResourceSchema.PatchStrategyAndKeyList.)
// StatefulSet `volumeClaimTemplates` carries no annotation: atomic for both.
import { isBuiltInGroup } from './kinds.js';
import { listFactsAt, objectMetaFactsAt, podSpecFactsAtEnd, type ListFacts } from './list-facts.js';

/** The keys server-side apply matches a list's items by, or undefined when the list is atomic (or a set). */
function ssaKeys(facts: ListFacts | undefined): string[] | undefined {
  if (!facts) return undefined;
  if (facts.listType !== undefined) {
    return facts.listType === 'map' && facts.listMapKeys?.length ? [...facts.listMapKeys] : undefined;
  }
  const merges = facts.patchStrategy === 'merge' || facts.patchStrategy === 'merge,retainKeys';
  return merges && facts.patchMergeKey ? [facts.patchMergeKey] : undefined;
}

/**
 * The keys of the list at `pointerToList` (list items written as `*`, e.g.
 * `/spec/template/spec/containers/*\/ports`) as server-side apply matches them, or undefined when the
 * list is atomic. Lists of kinds the table does not know are atomic.
 */
export function listKeysFor(group: string, kind: string, pointerToList: string): string[] | undefined {
  return ssaKeys(listFactsAt(group, kind, pointerToList));
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
 * kustomize does without a schema; a built-in kind the table lacks falls back to the pod spec lists
 * the path ends in.
 */
export function strategicMergeOf(group: string, kind: string, path: readonly string[]): StrategicMerge {
  if (!isBuiltInGroup(group)) return { type: 'replace' };
  const pointer = patternOf(path);
  const facts = listFactsAt(group, kind, pointer) ?? objectMetaFactsAt(pointer) ?? podSpecFactsAtEnd(pointer);
  const strategy = facts?.patchStrategy ?? '';
  if (!strategy.split(',').includes('merge')) return { type: 'replace' };
  const keys = facts?.listMapKeys?.length ? [...facts.listMapKeys] : facts?.patchMergeKey ? [facts.patchMergeKey] : [];
  return keys.length ? { type: 'keyed', keys } : { type: 'set' };
}
