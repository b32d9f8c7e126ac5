// RFC 6902 JSON patch on tracked trees (add, remove, replace, move, copy, test). The `value` nodes
// keep their own source, so a patched field points at the patch text that wrote it.
import { fromPointer } from '../model/index.js';
import { toPlain, type TrackedNode } from './tracked.js';

export type JsonPatchResult = { ok: true; root: TrackedNode } | { ok: false; message: string; operation: number };

export function applyJsonPatch(root: TrackedNode, operations: TrackedNode): JsonPatchResult {
  if (operations.kind !== 'list')
    return { ok: false, message: 'a JSON 6902 patch is a list of operations', operation: 0 };
  let current = root;
  for (let i = 0; i < operations.items.length; i++) {
    const op = operations.items[i];
    try {
      current = applyOne(current, op);
    } catch (error) {
      return { ok: false, message: (error as Error).message, operation: i };
    }
  }
  return { ok: true, root: current };
}

function applyOne(root: TrackedNode, op: TrackedNode): TrackedNode {
  if (op.kind !== 'map') throw new Error('each operation is a mapping with op and path');
  const field = (name: string): TrackedNode | undefined => op.entries.get(name);
  const text = (name: string): string => {
    const node = field(name);
    if (node?.kind !== 'scalar' || typeof node.value !== 'string')
      throw new Error(`operation needs a string "${name}"`);
    return node.value;
  };
  const kind = text('op');
  const path = fromPointer(text('path'));
  switch (kind) {
    case 'add':
      return insert(root, path, requireValue(field('value')), 'add');
    case 'replace':
      get(root, path);
      return insert(root, path, requireValue(field('value')), 'replace');
    case 'remove':
      return remove(root, path).root;
    case 'move': {
      const from = fromPointer(text('from'));
      const { root: without, removed } = remove(root, from);
      return insert(without, path, removed, 'add');
    }
    case 'copy':
      return insert(root, path, get(root, fromPointer(text('from'))), 'add');
    case 'test': {
      const actual = JSON.stringify(toPlain(get(root, path)));
      if (actual !== JSON.stringify(toPlain(requireValue(field('value')))))
        throw new Error(`test failed at ${text('path')}`);
      return root;
    }
    default:
      throw new Error(`unknown op "${kind}" (expected add, remove, replace, move, copy or test)`);
  }
}

function requireValue(node: TrackedNode | undefined): TrackedNode {
  if (!node) throw new Error('operation needs a "value"');
  return node;
}

function get(root: TrackedNode, path: string[]): TrackedNode {
  let current = root;
  for (const segment of path) {
    const next =
      current.kind === 'map'
        ? current.entries.get(segment)
        : current.kind === 'list'
          ? current.items[index(segment, current.items.length - 1)]
          : undefined;
    if (!next) throw new Error(`path /${path.join('/')} does not exist`);
    current = next;
  }
  return current;
}

function index(segment: string, max: number): number {
  if (!/^(0|[1-9][0-9]*)$/.test(segment)) throw new Error(`"${segment}" is not a list index`);
  const i = Number(segment);
  if (i > max) throw new Error(`index ${i} is out of range`);
  return i;
}

/** Copies the containers along `path` (not the rest), then writes the value at its end. */
function insert(root: TrackedNode, path: string[], value: TrackedNode, mode: 'add' | 'replace'): TrackedNode {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (root.kind === 'map') {
    const entries = new Map(root.entries);
    if (rest.length === 0) entries.set(head, value);
    else {
      const child = entries.get(head);
      if (!child) throw new Error(`path /${path.join('/')} does not exist`);
      entries.set(head, insert(child, rest, value, mode));
    }
    return { ...root, entries };
  }
  if (root.kind === 'list') {
    const items = [...root.items];
    if (rest.length === 0) {
      if (head === '-' && mode === 'add') items.push(value);
      else if (mode === 'add') items.splice(index(head, items.length), 0, value);
      else items[index(head, items.length - 1)] = value;
    } else {
      const i = index(head, items.length - 1);
      items[i] = insert(items[i], rest, value, mode);
    }
    return { ...root, items };
  }
  throw new Error(`cannot descend into a scalar at "${head}"`);
}

function remove(root: TrackedNode, path: string[]): { root: TrackedNode; removed: TrackedNode } {
  const removed = get(root, path);
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1];
  const parent = get(root, parentPath);
  let replaced: TrackedNode;
  if (parent.kind === 'map') {
    const entries = new Map(parent.entries);
    entries.delete(last);
    replaced = { ...parent, entries };
  } else if (parent.kind === 'list') {
    const items = [...parent.items];
    items.splice(index(last, items.length - 1), 1);
    replaced = { ...parent, items };
  } else throw new Error('cannot remove from a scalar');
  return { root: insert(root, parentPath, replaced, 'replace'), removed };
}
