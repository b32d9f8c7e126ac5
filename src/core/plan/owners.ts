// Field ownership from metadata.managedFields: which managers own a path of a live object.
// fieldsV1 names map keys `f:key`, keyed list items
// `k:{"name":"app"}`, set members `v:value`, and positions `i:0`.
import type { KubeObject, ManagedFieldsEntry, PathSegment } from '../model/index.js';
import { isPlainObject } from '../model/index.js';

export interface Owner {
  manager: string;
  operation?: string;
  time?: string;
}

function looselyEqual(a: unknown, b: unknown): boolean {
  return String(a) === String(b);
}

function childFor(node: Record<string, unknown>, segment: PathSegment): unknown {
  if (typeof segment === 'string') return node[`f:${segment}`];
  if ('index' in segment) return node[`i:${segment.index}`];
  for (const [name, child] of Object.entries(node)) {
    if (!name.startsWith('k:')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(name.slice(2));
    } catch {
      continue;
    }
    if (!isPlainObject(parsed)) continue;
    const wanted = segment.key;
    const keys = Object.keys(wanted);
    if (keys.length === Object.keys(parsed).length && keys.every((k) => looselyEqual(parsed[k], wanted[k]))) return child;
  }
  return undefined;
}

/** True when the entry's fieldsV1 lists this exact path (inherited ownership does not count). */
export function entryOwns(entry: ManagedFieldsEntry, segments: PathSegment[]): boolean {
  let node: unknown = entry.fieldsV1;
  for (const segment of segments) {
    if (!isPlainObject(node)) return false;
    node = childFor(node, segment);
    if (node === undefined) return false;
  }
  return isPlainObject(node);
}

/** Every manager that owns the path, latest write first. Status subresource entries never own spec. */
export function ownersOf(live: KubeObject, segments: PathSegment[]): Owner[] {
  const entries = (live.metadata.managedFields ?? []).filter((entry) => entry.subresource !== 'status' && entry.manager);
  return entries
    .filter((entry) => entryOwns(entry, segments))
    .map((entry) => ({ manager: entry.manager!, operation: entry.operation, time: entry.time }))
    .sort((a, b) => (b.time ?? '').localeCompare(a.time ?? ''));
}
