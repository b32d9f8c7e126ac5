// A rendered value tree in which every node remembers where it was written. Transformers edit this
// tree (not plain JSON), so the source map survives merges, renames and list edits without any
// pointer bookkeeping; flattenTracked turns it into the plain object and its `fields` in one walk.
import type { FieldSource } from '../model/index.js';
import { escapeSegment, setOwn } from '../model/index.js';

export type ScalarValue = string | number | boolean | null;

export interface TrackedScalar {
  kind: 'scalar';
  value: ScalarValue;
  source: FieldSource;
}
export interface TrackedMap {
  kind: 'map';
  entries: Map<string, TrackedNode>;
  source: FieldSource;
}
export interface TrackedList {
  kind: 'list';
  items: TrackedNode[];
  source: FieldSource;
}
export type TrackedNode = TrackedScalar | TrackedMap | TrackedList;

/** Builds a tracked tree from a plain value; every node gets the same source (a transformer's). */
export function trackPlain(value: unknown, source: FieldSource): TrackedNode {
  if (Array.isArray(value)) return { kind: 'list', items: value.map((v) => trackPlain(v, source)), source };
  if (typeof value === 'object' && value !== null) {
    const entries = new Map<string, TrackedNode>();
    for (const [k, v] of Object.entries(value)) entries.set(k, trackPlain(v, source));
    return { kind: 'map', entries, source };
  }
  if (value === undefined) return { kind: 'scalar', value: null, source };
  return { kind: 'scalar', value: value as ScalarValue, source };
}

export function toPlain(node: TrackedNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'list') return node.items.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const [k, v] of node.entries) setOwn(out, k, toPlain(v));
  return out;
}

/** The plain value and the pointer → source map of a tracked tree, built in the same walk. */
export function flattenTracked(root: TrackedNode): { value: unknown; fields: Record<string, FieldSource> } {
  const fields: Record<string, FieldSource> = {};
  const walk = (node: TrackedNode, pointer: string): unknown => {
    fields[pointer] = node.source;
    if (node.kind === 'scalar') return node.value;
    if (node.kind === 'list') {
      const out = new Array<unknown>(node.items.length);
      for (let i = 0; i < node.items.length; i++) out[i] = walk(node.items[i], `${pointer}/${i}`);
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of node.entries) setOwn(out, k, walk(v, `${pointer}/${escapeKey(k)}`));
    return out;
  };
  return { value: walk(root, ''), fields };
}

/** escapeSegment, skipping its two regular expressions for the keys that need no escaping (nearly all). */
function escapeKey(key: string): string {
  return key.includes('~') || key.includes('/') ? escapeSegment(key) : key;
}

export function getIn(node: TrackedNode | undefined, path: readonly string[]): TrackedNode | undefined {
  let current = node;
  for (const segment of path) {
    if (!current) return undefined;
    if (current.kind === 'map') current = current.entries.get(segment);
    else if (current.kind === 'list') current = current.items[Number(segment)];
    else return undefined;
  }
  return current;
}

export function getString(node: TrackedNode | undefined, path: readonly string[]): string | undefined {
  const found = getIn(node, path);
  return found?.kind === 'scalar' && typeof found.value === 'string' ? found.value : undefined;
}

/** Returns the map at `path`, creating missing maps with `source`; undefined when a non-map is in the way. */
export function ensureMap(root: TrackedMap, path: readonly string[], source: FieldSource): TrackedMap | undefined {
  let current: TrackedMap = root;
  for (const segment of path) {
    const next = current.entries.get(segment);
    if (next === undefined || (next.kind === 'scalar' && next.value === null)) {
      const created: TrackedMap = { kind: 'map', entries: new Map(), source };
      current.entries.set(segment, created);
      current = created;
    } else if (next.kind === 'map') current = next;
    else return undefined;
  }
  return current;
}

export function setScalar(map: TrackedMap, key: string, value: ScalarValue, source: FieldSource): void {
  map.entries.set(key, { kind: 'scalar', value, source });
}

/** Every map under `node` reachable by `path`, where `[]` after a segment means "each list item". */
export function mapsAt(node: TrackedNode | undefined, path: readonly string[]): TrackedMap[] {
  if (!node) return [];
  if (path.length === 0) return node.kind === 'map' ? [node] : [];
  const [head, ...rest] = path;
  if (node.kind !== 'map') return [];
  if (head.endsWith('[]')) {
    const list = node.entries.get(head.slice(0, -2));
    if (list?.kind !== 'list') return [];
    return list.items.flatMap((item) => mapsAt(item, rest));
  }
  return mapsAt(node.entries.get(head), rest);
}

/** A structural copy, so one patch applied to several objects leaves them independent. */
export function cloneTracked<T extends TrackedNode>(node: T): T {
  return copyNode(node) as T;
}

// Object literals of one shape per kind (no spread): cloning every parsed tree of a render is hot.
function copyNode(node: TrackedNode): TrackedNode {
  if (node.kind === 'scalar') return { kind: 'scalar', value: node.value, source: node.source };
  if (node.kind === 'list') {
    const items = new Array<TrackedNode>(node.items.length);
    for (let i = 0; i < items.length; i++) items[i] = copyNode(node.items[i]);
    return { kind: 'list', items, source: node.source };
  }
  const entries = new Map<string, TrackedNode>();
  for (const [k, v] of node.entries) entries.set(k, copyNode(v));
  return { kind: 'map', entries, source: node.source };
}
