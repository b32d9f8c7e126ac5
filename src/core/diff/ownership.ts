// metadata.managedFields decoded into an ownership index: for a field in live, which managers own it,
// with what operation, when, and through which subresource. `fieldsV1` spells a field `f:<name>`, a
// keyed list item `k:{"name":"app"}`, a set item `v:<json>`, a positional item `i:<n>`, and `.` for
// "owns this item itself".
import type { Cause, KubeObject, ManagedFieldsEntry } from '../model/index.js';
import type { Config } from '../config/index.js';
import { escapeSegment, isPlainObject } from '../model/index.js';
import { classifyManager, isGitOpsApplier } from '../classify/managers.js';
import { canonicalKey } from './list-keys.js';

export type OwnerRole =
  | 'applier' // applies Git to this object: its fields that Git lacks are planned removals
  | 'former-applier' // kubectl apply on an object a GitOps applier now manages: no evidence either way
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

export interface OwnershipIndex {
  /** Owners by ownership key (see `childOwnKey`, `itemOwnKey`). */
  byPath: Map<string, Owner[]>;
}

/** The ownership key of a map field below `parent`. */
export function childOwnKey(parent: string, field: string): string {
  return `${parent}/${escapeSegment(field)}`;
}

/** The ownership key of a keyed list item below `list`. */
export function itemOwnKey(list: string, key: Record<string, string | number>): string {
  return `${list}/k:${escapeSegment(canonicalKey(key))}`;
}

function segmentOf(raw: string): string | undefined {
  if (raw.startsWith('f:')) return escapeSegment(raw.slice(2));
  if (raw.startsWith('k:')) {
    try {
      const parsed = JSON.parse(raw.slice(2)) as Record<string, string | number>;
      return `k:${escapeSegment(canonicalKey(parsed))}`;
    } catch {
      return undefined; // a malformed key names nothing we can find; skip it rather than fail the object
    }
  }
  if (raw.startsWith('v:') || raw.startsWith('i:')) return escapeSegment(raw);
  return undefined;
}

function decode(node: Record<string, unknown>, prefix: string, owner: Omit<Owner, 'whole'>, index: Map<string, Owner[]>): void {
  for (const [raw, child] of Object.entries(node)) {
    if (raw === '.') {
      add(index, prefix, { ...owner, whole: false });
      continue;
    }
    const segment = segmentOf(raw);
    if (segment === undefined || !isPlainObject(child)) continue;
    const path = `${prefix}/${segment}`;
    if (Object.keys(child).length === 0) add(index, path, { ...owner, whole: true });
    else decode(child, path, owner, index);
  }
}

function add(index: Map<string, Owner[]>, path: string, owner: Owner): void {
  const list = index.get(path);
  if (list) list.push(owner);
  else index.set(path, [owner]);
}

function roleOf(entry: ManagedFieldsEntry, cause: Cause, gitOpsPresent: boolean, created: string | undefined, config: Config): OwnerRole {
  const manager = entry.manager ?? '';
  if (cause === 'applier') {
    if (isGitOpsApplier(manager, config)) return 'applier';
    return gitOpsPresent ? 'former-applier' : 'applier';
  }
  // An Update at the creation time is the create itself: its fieldsV1 lists every defaulted field.
  if (entry.operation === 'Update' && created !== undefined && entry.time === created) return 'creator';
  return 'other';
}

export function buildOwnership(live: KubeObject, config: Config): OwnershipIndex {
  const byPath = new Map<string, Owner[]>();
  const entries = Array.isArray(live.metadata?.managedFields) ? live.metadata.managedFields : [];
  const gitOpsPresent = entries.some((entry) => isGitOpsApplier(entry.manager ?? '', config));
  const created = live.metadata?.creationTimestamp;
  for (const entry of entries) {
    if (!entry || !isPlainObject(entry.fieldsV1)) continue;
    if (entry.subresource === 'status') continue; // status is never compared
    const manager = entry.manager ?? '';
    const cause = classifyManager(manager, config, entry.operation);
    const owner = {
      manager, operation: entry.operation, time: entry.time, subresource: entry.subresource, cause,
      role: roleOf(entry, cause, gitOpsPresent, created, config),
    };
    decode(entry.fieldsV1, '', owner, byPath);
  }
  return { byPath };
}

/** The owner to name for a change: a non-applier, non-creator when there is one, the latest first. */
export function mainOwner(owners: readonly Owner[]): Owner | undefined {
  let best: Owner | undefined;
  const rank = (o: Owner): number => (o.role === 'other' ? 2 : o.role === 'creator' ? 1 : 0);
  for (const owner of owners) {
    if (!best || rank(owner) > rank(best) || (rank(owner) === rank(best) && (owner.time ?? '') > (best.time ?? ''))) best = owner;
  }
  return best;
}
