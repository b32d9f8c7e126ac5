// The field changes applying head would make to one live object: every field head declares whose
// live value differs (or is absent), with list items matched by merge key; and every field the
// applier owns in live (or base declared) that head no longer declares (the apply removes it).
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, toPointer, type FieldChange, type KubeObject, type PathSegment } from '../model/index.js';
import { mergeKeyOf, sameKey } from './merge-keys.js';
import { sameQuantity } from './quantity.js';
import { ownedLeaves, ownersOf } from './owners.js';
import type { ManagerClassifier } from './managers.js';

/** Metadata the server writes: never part of a plan. */
const SERVER_METADATA = new Set(['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds']);
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

interface Step {
  segment: PathSegment;
  /** Position in the desired list (for the display pointer), or in live when desired lacks it. */
  pointer: string | number;
}

function equalValues(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b) || sameQuantity(a, b) || (typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b) && typeof a !== typeof b && (typeof a === 'number' || typeof b === 'number'));
}

function skipped(steps: Step[]): boolean {
  const [first, second] = steps.map((s) => s.segment);
  // apiVersion is not identity: apps/v1 and a newer version of the same object are one object.
  if (first === 'status' || (first === 'apiVersion' && steps.length === 1)) return true;
  if (first === 'metadata' && typeof second === 'string' && SERVER_METADATA.has(second)) return true;
  return first === 'metadata' && second === 'annotations' && steps[2]?.segment === LAST_APPLIED;
}

/** Compares one desired value with live; pushes the leaf differences. */
function compareValue(desired: unknown, live: unknown, steps: Step[], out: Array<{ steps: Step[]; desired: unknown; live: unknown }>): void {
  if (skipped(steps)) return;
  if (isPlainObject(desired) && isPlainObject(live)) {
    for (const [name, value] of Object.entries(desired)) compareValue(value, live[name], [...steps, { segment: name, pointer: name }], out);
    return;
  }
  if (Array.isArray(desired) && Array.isArray(live)) {
    const field = steps.length ? String(steps[steps.length - 1].segment) : '';
    const keys = desired.map((item) => mergeKeyOf(field, item));
    if (keys.length > 0 && keys.every((k) => k !== undefined)) {
      desired.forEach((item, index) => {
        const match = live.find((candidate) => sameKey(mergeKeyOf(field, candidate), keys[index]));
        compareValue(item, match, [...steps, { segment: keys[index]!, pointer: index }], out);
      });
      return;
    }
    if (desired.length === live.length && desired.every((item, i) => subsetEqual(item, live[i]))) return;
    out.push({ steps, desired, live });
    return;
  }
  if (desired === null && live === undefined) return;
  if (!equalValues(desired, live) && !(isPlainObject(desired) && live === undefined && Object.keys(desired).length === 0)) {
    out.push({ steps, desired, live });
  }
}

/** Atomic list items: live may hold server-defaulted sub-fields desired never declared. */
function subsetEqual(desired: unknown, live: unknown): boolean {
  if (isPlainObject(desired) && isPlainObject(live)) return Object.entries(desired).every(([k, v]) => subsetEqual(v, live[k]));
  if (Array.isArray(desired) && Array.isArray(live)) return desired.length === live.length && desired.every((v, i) => subsetEqual(v, live[i]));
  return equalValues(desired, live);
}

function readSegments(value: unknown, segments: PathSegment[], field = ''): unknown {
  let current = value;
  let name = field;
  for (const segment of segments) {
    if (typeof segment === 'string') {
      current = isPlainObject(current) ? current[segment] : undefined;
      name = segment;
    } else if ('index' in segment) current = Array.isArray(current) ? current[segment.index] : undefined;
    else current = Array.isArray(current) ? current.find((item) => sameKey(mergeKeyOf(name, item), segment)) : undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

function pointerOf(value: unknown, segments: PathSegment[]): string {
  const parts: Array<string | number> = [];
  let current = value;
  let name = '';
  for (const segment of segments) {
    if (typeof segment === 'string') {
      parts.push(segment);
      name = segment;
      current = isPlainObject(current) ? current[segment] : undefined;
    } else if ('index' in segment) {
      parts.push(segment.index);
      current = Array.isArray(current) ? current[segment.index] : undefined;
    } else {
      const index = Array.isArray(current) ? current.findIndex((item) => sameKey(mergeKeyOf(name, item), segment)) : -1;
      parts.push(index);
      current = index >= 0 ? (current as unknown[])[index] : undefined;
    }
  }
  return toPointer(parts);
}

function describe(live: KubeObject | undefined, segments: PathSegment[], managers: ManagerClassifier): Pick<FieldChange, 'manager' | 'operation' | 'time' | 'cause'> {
  const owner = live ? ownersOf(live, segments).find((o) => managers.causeOf(o.manager) !== 'applier') ?? ownersOf(live, segments)[0] : undefined;
  return owner ? { manager: owner.manager, operation: owner.operation, time: owner.time, cause: managers.causeOf(owner.manager) } : { cause: 'unknown' };
}

export interface CompareInput {
  head: KubeObject;
  live: KubeObject;
  base?: KubeObject;
  managers: ManagerClassifier;
}

export function compareFields({ head, live, base, managers }: CompareInput): FieldChange[] {
  const found: Array<{ steps: Step[]; desired: unknown; live: unknown }> = [];
  compareValue(head, live, [], found);
  const changes: FieldChange[] = found.map(({ steps, desired, live: liveValue }) => {
    const segments = steps.map((s) => s.segment);
    return { path: toPointer(steps.map((s) => s.pointer)), segments, op: 'replace' as const, desired, live: liveValue, ...describe(live, segments, managers) };
  });
  // Removals: the applier's own leaves (server-side apply drops them) and what base declared.
  const candidates: PathSegment[][] = [];
  for (const entry of live.metadata.managedFields ?? []) {
    if (entry.subresource === 'status' || managers.causeOf(entry.manager) !== 'applier') continue;
    candidates.push(...ownedLeaves(entry));
  }
  const seen = new Set<string>();
  for (const segments of candidates) {
    const id = JSON.stringify(segments);
    if (seen.has(id) || skipped(segments.map((segment) => ({ segment, pointer: '' })))) continue;
    seen.add(id);
    if (readSegments(head, segments) !== undefined) continue;
    const liveValue = readSegments(live, segments);
    if (liveValue === undefined) continue;
    // Only the outermost missing field: a whole removed container is one change, not twenty.
    if (changes.some((c) => c.op === 'remove' && isPrefix(c.segments, segments))) continue;
    const outer = outermostMissing(head, segments);
    if (seen.has('outer:' + JSON.stringify(outer))) continue;
    seen.add('outer:' + JSON.stringify(outer));
    changes.push({ path: pointerOf(live, outer), segments: outer, op: 'remove', live: readSegments(live, outer), ...describe(live, outer, managers) });
  }
  if (base) for (const change of removedSinceBase(head, base, live, managers)) {
    if (!changes.some((c) => c.path === change.path || (c.op === 'remove' && isPrefix(c.segments, change.segments)))) changes.push(change);
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function isPrefix(prefix: PathSegment[], path: PathSegment[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => JSON.stringify(s) === JSON.stringify(path[i]));
}

function outermostMissing(head: KubeObject, segments: PathSegment[]): PathSegment[] {
  for (let n = 1; n <= segments.length; n++) if (readSegments(head, segments.slice(0, n)) === undefined) return segments.slice(0, n);
  return segments;
}

/** Top-level-ish fields base declared and head dropped: the applier removes them on apply. */
function removedSinceBase(head: KubeObject, base: KubeObject, live: KubeObject, managers: ManagerClassifier): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (value: unknown, segments: PathSegment[]): void => {
    if (skipped(segments.map((segment) => ({ segment, pointer: '' })))) return;
    if (readSegments(head, segments) === undefined) {
      const liveValue = readSegments(live, segments);
      if (liveValue !== undefined) out.push({ path: pointerOf(live, segments), segments, op: 'remove', live: liveValue, ...describe(live, segments, managers) });
      return;
    }
    if (isPlainObject(value)) for (const [name, child] of Object.entries(value)) walk(child, [...segments, name]);
    else if (Array.isArray(value)) {
      const field = String(segments[segments.length - 1] ?? '');
      for (const item of value) {
        const key = mergeKeyOf(field, item);
        if (key) walk(item, [...segments, key]);
      }
    }
  };
  walk(base, []);
  return out;
}
