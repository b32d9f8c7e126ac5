// Fields base declared and head no longer declares, that live still has: the next apply removes
// them. The diff engine finds removals from the applier's managedFields and last-applied record;
// the agent strips last-applied, so for a client-side applier (CI's kubectl) base is the evidence.
import { isPlainObject, ownValue, toPointer, type FieldChange, type KubeObject, type PathSegment } from '../model/index.js';
import { mergeKeyOf, sameKey } from './merge-keys.js';
import { ownersOf } from './owners.js';
import { classifyManager } from '../classify/index.js';
import type { Config } from '../config/index.js';

const SERVER_METADATA = new Set(['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds']);

function skipped(segments: PathSegment[]): boolean {
  const [first, second] = segments;
  if (first === 'status' || (first === 'apiVersion' && segments.length === 1)) return true;
  return first === 'metadata' && typeof second === 'string' && SERVER_METADATA.has(second);
}

function readSegments(value: unknown, segments: PathSegment[], field = ''): unknown {
  let current = value;
  let name = field;
  for (const segment of segments) {
    if (typeof segment === 'string') {
      current = isPlainObject(current) ? ownValue(current, segment) : undefined;
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
      current = isPlainObject(current) ? ownValue(current, segment) : undefined;
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

function describe(live: KubeObject, segments: PathSegment[], config: Config): Pick<FieldChange, 'manager' | 'operation' | 'time' | 'cause'> {
  const owner = ownersOf(live, segments)[0];
  return owner ? { manager: owner.manager, operation: owner.operation, time: owner.time, cause: classifyManager(owner.manager, config, owner.operation) } : { cause: 'applier' };
}

/** Top-level-ish fields base declared and head dropped: the applier removes them on apply. */
export function removedSinceBase(head: KubeObject, base: KubeObject, live: KubeObject, config: Config): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (value: unknown, segments: PathSegment[]): void => {
    if (skipped(segments)) return;
    if (readSegments(head, segments) === undefined) {
      const liveValue = readSegments(live, segments);
      if (liveValue !== undefined) out.push({ path: pointerOf(live, segments), segments, op: 'remove', live: liveValue, ...describe(live, segments, config) });
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
