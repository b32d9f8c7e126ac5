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
import type { KubeObject } from '../model/index.js';
import type { ListKeysLookup } from './crd-schemas.js';
import { embeddedAt } from './embedded-types.js';
import { recordedListKeys } from './managed-list-keys.js';
import { isBuiltInGroup } from './kinds.js';
import { hasSharedSchema, mergeFactsAt, mergeFactsInSchema, type FieldMerge } from './merge-facts.js';

/**
 * The keys of the list at `pointerToList` (list items written as `*`, e.g.
 * `/spec/template/spec/containers/*\/ports`) as server-side apply matches them, or undefined when the
 * list is atomic (or a set). Lists of kinds the API does not serve itself are atomic, except inside a
 * built-in type a custom workload embeds (embedded-types.ts).
 */
export function listKeysFor(
  group: string,
  kind: string,
  pointerToList: string,
  version?: string,
): string[] | undefined {
  const embedded = isBuiltInGroup(group) ? undefined : embeddedAt(group, kind, pointerToList);
  const facts = embedded
    ? mergeFactsInSchema(embedded.schema, embedded.rest)
    : mergeFactsAt(group, kind, pointerToList, version);
  return Array.isArray(facts?.ssa) ? [...facts.ssa] : undefined;
}

/** What else may say how a custom kind's list is keyed. */
export interface ListKeyEvidence {
  /** The CRDs' schemas (customListKeysLookup). */
  custom?: ListKeysLookup;
  /** The live object: its managedFields spell keyed items by their keys. */
  live?: KubeObject;
}

/**
 * A list's keys, strongest word first: Kubernetes' own (its OpenAPI documents, for built-in kinds and
 * the built-in types custom workloads embed), then the CRD's schema, then — for a custom kind whose
 * schema gives no keys — the keys its managedFields spell the list's items with (`k:{"name":"http"}`).
 */
export function resolveListKeys(
  group: string,
  kind: string,
  version: string,
  pattern: string,
  evidence: ListKeyEvidence,
): string[] | undefined {
  const known = listKeysFor(group, kind, pattern, version) ?? evidence.custom?.(group, kind, version, pattern);
  if (known || isBuiltInGroup(group) || !evidence.live) return known;
  const recorded = recordedListKeys(evidence.live).get(pattern);
  return recorded ? [...recorded] : undefined;
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
  return strategicMergeFrom(mergeFactsAt(group, kind, patternOf(path), version));
}

/**
 * How strategic merge patch merges the list at `path` inside a shared built-in schema, by its short
 * name (`core.v1.PodTemplateSpec`); undefined when there is no such schema.
 */
export function strategicMergeInSchema(schema: string, path: readonly string[]): StrategicMerge | undefined {
  if (!hasSharedSchema(schema)) return undefined;
  return strategicMergeFrom(mergeFactsInSchema(schema, patternOf(path)));
}

function strategicMergeFrom(facts: FieldMerge | undefined): StrategicMerge {
  if (!facts?.smp?.split(',').includes('merge')) return { type: 'replace' };
  // An associative list's keys are its list-map-keys; the generator records them as the SSA keys.
  const keys = Array.isArray(facts.ssa) ? [...facts.ssa] : facts.smpKey ? [facts.smpKey] : [];
  return keys.length ? { type: 'keyed', keys } : { type: 'set' };
}
