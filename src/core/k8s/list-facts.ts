// The API's own annotations of a list field, looked up by kind and pointer pattern. Server-side
// apply and strategic merge patch read different annotations of the same list; list-keys.ts derives
// each from these facts, so the two are never mixed up.
import {
  CONTAINER, CONTAINER_LISTS, LIST_FACTS, OBJECT_META, POD_SPEC as POD_SPEC_LISTS,
} from './list-facts.generated.js';
import { EXTRA_LIST_FACTS } from './list-facts-extra.js';

/** A list's annotations as the OpenAPI document writes them; absent ones are left out. */
export interface ListFacts {
  /** `x-kubernetes-list-type` when not atomic: `map` or `set` (server-side apply). */
  listType?: string;
  /** `x-kubernetes-list-map-keys` (server-side apply). */
  listMapKeys?: readonly string[];
  /** `x-kubernetes-patch-strategy`: `merge`, `merge,retainKeys`, `retainKeys` (strategic merge patch). */
  patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key` (strategic merge patch). */
  patchMergeKey?: string;
}

/** A kind's annotated lists: where a pod spec sits in it, and its other lists. */
export interface KindFacts {
  podSpecAt: readonly string[];
  lists: Readonly<Record<string, ListFacts>>;
}

/** Every annotated list of a pod spec, those of its containers included. */
const POD_SPEC: Readonly<Record<string, ListFacts>> = Object.fromEntries([
  ...Object.entries(POD_SPEC_LISTS),
  ...CONTAINER_LISTS.flatMap((list) => Object.entries(CONTAINER)
    .map(([tail, facts]) => [`${list}/*${tail}`, facts] as const)),
]);

/** Flattened `group/Kind` → pointer pattern → facts, built once. */
const FLAT: ReadonlyMap<string, ReadonlyMap<string, ListFacts>> = (() => {
  const flat = new Map<string, Map<string, ListFacts>>();
  const add = (kind: string, entry: KindFacts): void => {
    const table = flat.get(kind) ?? new Map<string, ListFacts>(Object.entries(OBJECT_META));
    for (const prefix of entry.podSpecAt) {
      for (const [tail, facts] of Object.entries(POD_SPEC)) table.set(prefix + tail, facts);
    }
    for (const [pointer, facts] of Object.entries(entry.lists)) table.set(pointer, facts);
    flat.set(kind, table);
  };
  for (const [kind, entry] of Object.entries(LIST_FACTS)) add(kind, entry);
  for (const [kind, entry] of Object.entries(EXTRA_LIST_FACTS)) add(kind, entry);
  return flat;
})();

/** Whether the table knows the kind (a list of a known kind missing from it is atomic). */
export function isKnownKind(group: string, kind: string): boolean {
  return FLAT.has(`${group}/${kind}`);
}

/** The facts of the list at `pointer` (items written as `*`), or undefined when it has none. */
export function listFactsAt(group: string, kind: string, pointer: string): ListFacts | undefined {
  return FLAT.get(`${group}/${kind}`)?.get(pointer);
}

/** The facts of a list of an object's own metadata (`/metadata/finalizers`), the same in every kind. */
export function objectMetaFactsAt(pointer: string): ListFacts | undefined {
  return Object.hasOwn(OBJECT_META, pointer) ? OBJECT_META[pointer] : undefined;
}

/**
 * The facts of a pod spec list that `pointer` ends in (`…/containers/*\/env`), for built-in kinds the
 * table lacks: whatever embeds a pod spec embeds these lists.
 */
export function podSpecFactsAtEnd(pointer: string): ListFacts | undefined {
  let best: string | undefined;
  for (const tail of Object.keys(POD_SPEC)) {
    if (pointer.endsWith(tail) && pointer.length > tail.length && (!best || tail.length > best.length)) best = tail;
  }
  return best === undefined ? undefined : POD_SPEC[best];
}
