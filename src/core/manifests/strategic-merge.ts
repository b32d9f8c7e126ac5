// Strategic merge patch on tracked trees, as kustomize applies it: maps merge, null deletes a key,
// keyed lists merge item by item, other lists are replaced, and `$patch: delete|replace` directives
// work on maps and list items. Nodes taken from the patch keep the patch's source.
import { keyFieldDefault, strategicMergeOf } from '../k8s/index.js';
import type { TrackedList, TrackedMap, TrackedNode } from './tracked.js';
import { schemaMergeOf, type CustomSchema } from './openapi-schema.js';

export interface MergeContext {
  group: string;
  kind: string;
  version?: string;
  /** A kustomization's `openapi` schema: merge keys of the custom resources it defines. */
  schema?: CustomSchema;
}

/** Returns the merged node, or undefined when the patch deletes the target. */
export function strategicMerge(
  target: TrackedNode | undefined,
  patch: TrackedNode,
  context: MergeContext,
  path: string[] = [],
): TrackedNode | undefined {
  if (patch.kind === 'map') {
    const directive = directiveOf(patch);
    if (directive === 'delete') return undefined;
    if (directive === 'replace' || target?.kind !== 'map') return withoutDirectives(patch);
    return mergeMaps(target, patch, context, path);
  }
  if (patch.kind === 'list' && target?.kind === 'list') return mergeLists(target, patch, context, path);
  if (patch.kind === 'list')
    return { ...patch, items: patch.items.filter((item) => directiveOf(item) === undefined).map(withoutDirectives) };
  return patch;
}

function mergeMaps(target: TrackedMap, patch: TrackedMap, context: MergeContext, path: string[]): TrackedMap {
  const entries = new Map(target.entries);
  for (const [key, value] of patch.entries) {
    if (key.startsWith('$')) continue;
    if (value.kind === 'scalar' && value.value === null) {
      entries.delete(key);
      continue;
    }
    const merged = strategicMerge(entries.get(key), value, context, [...path, key]);
    if (merged === undefined) entries.delete(key);
    else entries.set(key, merged);
  }
  return { kind: 'map', entries, source: target.source };
}

function mergeLists(target: TrackedList, patch: TrackedList, context: MergeContext, path: string[]): TrackedList {
  if (patch.items.some((item) => directiveOf(item) === 'replace')) {
    return { ...patch, items: patch.items.filter((item) => directiveOf(item) !== 'replace').map(withoutDirectives) };
  }
  const custom =
    context.schema && schemaMergeOf(context.schema, context.group, context.version ?? '', context.kind, path);
  const merge = custom ?? strategicMergeOf(context.group, context.kind, path);
  // kustomize merges with kyaml's "prepend" list direction: the patch's items come first, then the
  // target's items the patch does not name, each in its own order.
  if (merge.type !== 'keyed') {
    if (merge.type === 'set') {
      const items: TrackedNode[] = patch.items.filter((item) => item.kind === 'scalar');
      for (const item of target.items)
        if (item.kind !== 'scalar' || !items.some((p) => p.kind === 'scalar' && p.value === item.value))
          items.push(item);
      return { kind: 'list', items, source: target.source };
    }
    return patch;
  }
  const { keys } = merge;
  const items: TrackedNode[] = [];
  const used = new Set<TrackedNode>();
  for (const item of patch.items) {
    if (item.kind !== 'map') continue;
    const at = target.items.find(
      (existing) => existing.kind === 'map' && !used.has(existing) && sameKey(existing, item, keys),
    );
    if (at) used.add(at);
    if (directiveOf(item) === 'delete') continue;
    if (!at) items.push(withoutDirectives(item));
    else items.push(keepKeyFields(at as TrackedMap, strategicMerge(at, item, context, [...path, '*']) ?? at, keys));
  }
  for (const item of target.items) if (!used.has(item)) items.push(item);
  return { kind: 'list', items, source: target.source };
}

/** A patch names an item by its key; the key is still written where the item was declared. */
function keepKeyFields(original: TrackedMap, merged: TrackedNode, keys: string[]): TrackedNode {
  if (merged.kind !== 'map') return merged;
  for (const key of keys) {
    const node = original.entries.get(key);
    if (node) merged.entries.set(key, node);
  }
  return merged;
}

function sameKey(a: TrackedMap, b: TrackedMap, keys: string[]): boolean {
  return keys.every((key) => keyValue(a, key) === keyValue(b, key));
}

function keyValue(map: TrackedMap, key: string): unknown {
  const node = map.entries.get(key);
  const value = node?.kind === 'scalar' ? node.value : undefined;
  // A key field the server defaults (a port's protocol) names the same item when left out.
  return value === undefined || value === null ? keyFieldDefault(key) : value;
}

function directiveOf(node: TrackedNode): string | undefined {
  if (node.kind !== 'map') return undefined;
  const directive = node.entries.get('$patch');
  return directive?.kind === 'scalar' && typeof directive.value === 'string' ? directive.value : undefined;
}

function withoutDirectives<T extends TrackedNode>(node: T): T {
  if (node.kind === 'map') {
    const entries = new Map<string, TrackedNode>();
    for (const [key, value] of node.entries) if (!key.startsWith('$')) entries.set(key, withoutDirectives(value));
    return { ...node, entries };
  }
  if (node.kind === 'list')
    return { ...node, items: node.items.filter((item) => directiveOf(item) !== 'delete').map(withoutDirectives) };
  return node;
}
