// metadata.managedFields, the one decoder: an ownership index that says, for a field in live, which
// managers own it, with what operation, when, and through which subresource; and who created the
// object. What a manager is (its cause and role) is policy, decided in classify/field-owners.ts. `fieldsV1` spells a field `f:<name>`, a keyed list item `k:{"name":"app"}`, a
// set item `v:<json>`, a positional item `i:<n>`, and `.` for "owns this item itself".
import type { Cause, KubeObject, ManagedFieldsEntry, PathSegment } from '../model/index.js';
import { isPlainObject, ownValue } from '../model/index.js';
import { canonicalKey } from './keyed-items.js';

export type OwnerRole =
  | 'applier' // applies Git to this object: its fields that Git lacks are planned removals
  | 'creator' // the Update that created the object: it owns every default, so it proves no edit
  | 'other';

export interface Owner {
  manager: string;
  operation?: string;
  time?: string;
  subresource?: string;
  cause: Cause;
  role: OwnerRole;
  /** True when the manager owns the whole value (a leaf in fieldsV1), not only an item's existence (`.`). */
  whole: boolean;
}

/** The entries of an object's managedFields (none when it has no such list). */
export function entriesOf(live: KubeObject): ManagedFieldsEntry[] {
  return Array.isArray(live.metadata?.managedFields) ? live.metadata.managedFields : [];
}

/** Whether the object records who manages its fields (objects from before managedFields do not). */
export function hasManagedFields(live: KubeObject): boolean {
  return entriesOf(live).length > 0;
}

/** One managedFields entry's two owner records: of a whole value (a leaf), of an item itself (`.`). */
interface EntryOwners {
  whole: Owner;
  item: Owner;
}

/**
 * Where the walk stands in every entry's fieldsV1 at once. fieldsV1 is read in place as the walk
 * steps down (no decoded copy, no path strings): only the nodes a diff visits cost anything.
 */
export interface OwnNode {
  refs: Array<{ entry: EntryOwners; node: Record<string, unknown> }>;
  /** Owners recorded at this node. */
  owners: Owner[];
}

/** The root of an object's ownership. */
export type OwnershipIndex = OwnNode;

const NO_OWNERS: readonly Owner[] = Object.freeze([]);

function step(parent: OwnNode | undefined, key: string, canonical: boolean): OwnNode | undefined {
  if (!parent) return undefined;
  let next: OwnNode | undefined;
  for (const ref of parent.refs) {
    const child = canonical ? keyedChild(ref.node, key) : ref.node[key];
    if (!isPlainObject(child)) continue;
    next ??= { refs: [], owners: [] };
    next.refs.push({ entry: ref.entry, node: child });
    let leaf = true;
    for (const _ in child) {
      leaf = false;
      break;
    }
    if (leaf) next.owners.push(ref.entry.whole);
    else if ('.' in child) next.owners.push(ref.entry.item);
  }
  return next;
}

/** Keyed items as the server spells them; re-spelled canonically only when a direct look-up misses. */
const canonicalIndex = new WeakMap<Record<string, unknown>, Map<string, unknown>>();
function keyedChild(node: Record<string, unknown>, key: string): unknown {
  const direct = ownValue(node, key);
  if (direct !== undefined) return direct;
  let index = canonicalIndex.get(node);
  if (!index) {
    index = new Map();
    for (const raw of Object.keys(node)) {
      if (!raw.startsWith('k:')) continue;
      try {
        index.set(`k:${canonicalKey(JSON.parse(raw.slice(2)) as Record<string, string | number>)}`, node[raw]);
      } catch {
        // a malformed key names nothing we can find; skip it rather than fail the object
      }
    }
    canonicalIndex.set(node, index);
  }
  return index.get(key);
}

/** The ownership node of a map field below `parent`. */
export function childOwn(parent: OwnNode | undefined, field: string): OwnNode | undefined {
  return step(parent, `f:${field}`, false);
}

/** The ownership node of a keyed list item below `list`. */
export function itemOwn(list: OwnNode | undefined, canonical: string): OwnNode | undefined {
  return list ? step(list, `k:${canonical}`, true) : undefined;
}

/** The ownership node of a list item by position (`i:<n>`, atomic lists written by older servers). */
export function positionOwn(list: OwnNode | undefined, index: number): OwnNode | undefined {
  return step(list, `i:${index}`, false);
}

/** Owners recorded at this node: of the whole value (a leaf) or of an item itself (`.`). */
export function ownersOf(node: OwnNode | undefined): readonly Owner[] {
  return node?.owners ?? NO_OWNERS;
}

/** Every entry whose fieldsV1 names this node, whether it owns the value or only fields below it. */
export function listersOf(node: OwnNode | undefined): readonly Owner[] {
  return node ? node.refs.map((ref) => ref.entry.whole) : NO_OWNERS;
}

/** The ownership node at structured segments (map fields, keyed items, positions). */
export function ownNodeAt(root: OwnNode, segments: readonly PathSegment[]): OwnNode | undefined {
  let node: OwnNode | undefined = root;
  for (const segment of segments) {
    if (typeof segment === 'string') node = childOwn(node, segment);
    else if ('index' in segment) node = positionOwn(node, segment.index);
    else node = itemOwn(node, canonicalKey(segment.key));
    if (!node) return undefined;
  }
  return node;
}

/** The owner to name for a change: a non-applier, non-creator when there is one, the latest first. */
export function mainOwner(owners: readonly Owner[]): Owner | undefined {
  let best: Owner | undefined;
  // An applier's later server-side Apply of the same value makes the value the applier's: what another
  // manager wrote before it is superseded (both own the field only while they agree on it).
  const applied = owners.reduce(
    (t, o) => (o.role === 'applier' && o.operation === 'Apply' && (o.time ?? '') > t ? o.time! : t),
    '',
  );
  const superseded = (o: Owner): boolean => applied !== '' && (o.time ?? '') < applied;
  const rank = (o: Owner): number => (o.role === 'other' && !superseded(o) ? 2 : o.role === 'creator' ? 1 : 0);
  for (const owner of owners) {
    const later = (owner.time ?? '') > (best?.time ?? '');
    if (!best || rank(owner) > rank(best) || (rank(owner) === rank(best) && later)) best = owner;
  }
  return best;
}

/** The latest writer among owners: who made the value what it is now. */
export function latestOwner(owners: readonly Owner[]): Owner | undefined {
  let latest: Owner | undefined;
  for (const owner of owners) if (!latest || (owner.time ?? '') > (latest.time ?? '')) latest = owner;
  return latest;
}

export interface CreatedBy {
  manager: string;
  cause: Cause;
  time?: string;
}

/** The earliest managedFields entry that names a manager: who created the object, and when. */
export function creationOf(live: KubeObject): { manager: string; operation?: string; time?: string } | undefined {
  let first: ManagedFieldsEntry | undefined;
  for (const entry of entriesOf(live)) {
    if (!entry?.manager) continue;
    if (!first || (entry.time ?? '') < (first.time ?? '')) first = entry;
  }
  if (!first?.manager) return undefined;
  const { manager, operation, time } = first;
  return { manager, ...(operation ? { operation } : {}), ...(time ? { time } : {}) };
}

/**
 * The fields one managedFields entry owns as values (its leaves), as structured segments: map fields by
 * name, keyed items by their key, positional items by index. Set items (`v:`) name a value, not a place,
 * and are left out; `.` (owning an item's existence) is not a field of its own.
 */
export function ownedFieldsOf(fieldsV1: unknown): PathSegment[][] {
  const out: PathSegment[][] = [];
  const walk = (node: unknown, path: PathSegment[]): void => {
    if (!isPlainObject(node)) return;
    const children = Object.keys(node).filter((name) => name !== '.');
    if (children.length === 0) {
      if (path.length > 0) out.push(path);
      return;
    }
    for (const name of children) {
      if (name.startsWith('f:')) walk(node[name], [...path, name.slice(2)]);
      else if (name.startsWith('i:')) walk(node[name], [...path, { index: Number(name.slice(2)) }]);
      else if (name.startsWith('k:')) {
        try {
          const key = JSON.parse(name.slice(2)) as Record<string, string | number>;
          walk(node[name], [...path, { key }]);
        } catch {
          // a malformed key names no field we can find
        }
      }
    }
  };
  walk(fieldsV1, []);
  return out;
}
