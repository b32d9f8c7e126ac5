// A verified emergency fix is still followed for emergency.followFor: a live value that moves away
// from the merged value while Git still declares it is the fix undone (a rollback, another hand edit,
// a stale pipeline); a field Git changes since is no longer followed. Pure: the record and what this
// snapshot shows in, the record as it now stands out (none once the window is over and nothing moved).
import { stableJson } from '../classify/index.js';
import { fromPointer, getAt, keyId, type FieldChange, type KubeObject, type ResourceKey } from '../model/index.js';
import type { EmergencyRecord } from './follow.js';

/** A field whose live value moved away from the value a verified fix set, while Git still declares it. */
export interface MovedField {
  key: ResourceKey;
  field: string;
  pointer: string;
  /** The value the fix set (and Git declares). */
  from: unknown;
  /** The live value now. */
  to: unknown;
  /** Who wrote the live value, and when (managedFields). */
  manager?: string;
  time?: string;
}

export interface VerifiedObservation {
  capturedAt: string;
  /** emergency.followFor, in seconds. */
  followFor: number;
  /** Live objects by key id. */
  live: ReadonlyMap<string, KubeObject>;
  /** The whole diff's field changes (Git → live), by resource key id. */
  changes: ReadonlyMap<string, readonly FieldChange[]>;
}

const same = (a: unknown, b: unknown): boolean => stableJson(a ?? null) === stableJson(b ?? null);

type Followed = EmergencyRecord['changes'][number];

/** One followed field: still held, moved away (Git unchanged), or released (Git declares another value). */
function judge(change: Followed, seen: VerifiedObservation): 'held' | 'released' | MovedField {
  const object = seen.live.get(keyId(change.key));
  // A deleted object is not a changed value: its controller recreates it, or Git removed it.
  if (!object) return 'held';
  const now = getAt(object, fromPointer(change.pointer));
  if (same(now, change.value)) return 'held';
  const drift = seen.changes.get(keyId(change.key))?.find((entry) => entry.path === change.pointer);
  // No drift on the field: Git declares what live holds. Drift: Git declares `desired`.
  const git = drift ? drift.desired : now;
  if (!same(git, change.value)) return 'released';
  return {
    key: change.key,
    field: change.field,
    pointer: change.pointer,
    from: change.value,
    to: now,
    ...(drift?.manager ? { manager: drift.manager } : {}),
    ...(drift?.time ? { time: drift.time } : {}),
  };
}

/**
 * A verified record one snapshot on; undefined once its window is over (retired), unless a move seen
 * within the window is still open: that one is followed until the value is back or Git changes it.
 */
export function followVerified(record: EmergencyRecord, seen: VerifiedObservation): EmergencyRecord | undefined {
  const start = Date.parse(record.verifiedAt ?? record.resumedAt ?? record.since);
  const over = !(Date.parse(seen.capturedAt) - start <= seen.followFor * 1000);
  if (over && !record.moved) return undefined;
  const kept: Followed[] = [];
  const moved: MovedField[] = [];
  const released = [...(record.released ?? [])];
  for (const change of record.changes) {
    const verdict = judge(change, seen);
    if (verdict === 'released') {
      released.push(change.field);
      continue;
    }
    kept.push(change);
    if (verdict !== 'held') moved.push(verdict);
  }
  const { moved: before, released: _released, ...rest } = record;
  return {
    ...rest,
    changes: kept,
    ...(released.length > 0 ? { released } : {}),
    ...(moved.length > 0 ? { moved: { at: before?.at ?? seen.capturedAt, fields: moved } } : {}),
  };
}
