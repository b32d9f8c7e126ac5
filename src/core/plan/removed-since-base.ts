// Fields base declared and head no longer declares, that live still has: the next apply removes
// them. The diff engine finds removals from the applier's managedFields and last-applied record;
// the agent strips last-applied, so for a client-side applier (CI's kubectl) base is the evidence.
// Lists are matched as server-side apply matches them: keyed lists item by item, atomic lists
// (volumeClaimTemplates, args, Ingress rules) as one value that the apply replaces whole.
import {
  escapeSegment,
  groupOf,
  isPlainObject,
  ownValue,
  toPointer,
  versionOf,
  type FieldChange,
  type KubeObject,
  type PathSegment,
} from '../model/index.js';
import {
  indexOfItem,
  itemKey,
  latestOwner,
  listersOf,
  resolveListKeys,
  ownNodeAt,
  SERVER_SET_METADATA,
  valueAtSegments,
  type OwnershipIndex,
} from '../k8s/index.js';
import { buildOwnership } from '../classify/index.js';
import type { Config } from '../config/index.js';

const SERVER_SET: ReadonlySet<string> = new Set(SERVER_SET_METADATA);

function skipped(segments: readonly PathSegment[]): boolean {
  const [first, second] = segments;
  if (first === 'status' || (first === 'apiVersion' && segments.length === 1)) return true;
  return first === 'metadata' && typeof second === 'string' && SERVER_SET.has(second);
}

/** The JSON pointer of segments in `value`, keyed items at their index there. */
function pointerOf(value: unknown, segments: readonly PathSegment[]): string {
  const parts: Array<string | number> = [];
  let current = value;
  for (const segment of segments) {
    if (typeof segment === 'string') {
      parts.push(segment);
      current = isPlainObject(current) ? ownValue(current, segment) : undefined;
    } else {
      const index = Array.isArray(current) ? indexOfItem(current, segment) : -1;
      parts.push(index);
      current = index >= 0 ? (current as unknown[])[index] : undefined;
    }
  }
  return toPointer(parts);
}

type Writer = Pick<FieldChange, 'manager' | 'operation' | 'time' | 'cause'>;

/** Who last wrote the path in live (any entry that lists it); the applier when none does. */
function describe(ownership: OwnershipIndex, segments: readonly PathSegment[]): Writer {
  const owner = latestOwner(listersOf(ownNodeAt(ownership, segments)));
  if (!owner) return { cause: 'applier' };
  return { manager: owner.manager, operation: owner.operation, time: owner.time, cause: owner.cause };
}

/** Whether base declared a field inside an atomic value that head dropped and live still holds. */
function droppedInside(base: unknown, head: unknown, live: unknown): boolean {
  if (Array.isArray(base)) {
    const liveList = Array.isArray(live) ? live : [];
    return Array.isArray(head) && base.some((item, i) => droppedInside(item, head[i], liveList[i]));
  }
  if (!isPlainObject(base) || !isPlainObject(head)) return false;
  const liveMap = isPlainObject(live) ? live : {};
  return Object.keys(base).some((field) =>
    head[field] === undefined ? liveMap[field] !== undefined : droppedInside(base[field], head[field], liveMap[field]),
  );
}

/** Fields base declared and head dropped: the applier removes them on apply. */
export function removedSinceBase(head: KubeObject, base: KubeObject, live: KubeObject, config: Config): FieldChange[] {
  const group = groupOf(live.apiVersion ?? head.apiVersion ?? '');
  const version = versionOf(live.apiVersion ?? head.apiVersion ?? '');
  const kind = live.kind ?? head.kind;
  const ownership = buildOwnership(live, config);
  const out: FieldChange[] = [];
  const removal = (segments: PathSegment[], op: FieldChange['op'], desired: unknown, liveValue: unknown): void => {
    const path = pointerOf(live, segments);
    const declared = desired !== undefined ? { desired } : {};
    out.push({ path, segments, op, ...declared, live: liveValue, ...describe(ownership, segments) });
  };
  const walk = (value: unknown, segments: PathSegment[], pattern: string): void => {
    if (skipped(segments)) return;
    const headValue = valueAtSegments(head, segments);
    if (headValue === undefined) {
      const liveValue = valueAtSegments(live, segments);
      if (liveValue !== undefined) removal(segments, 'remove', undefined, liveValue);
      return;
    }
    if (isPlainObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        walk(child, [...segments, name], `${pattern}/${escapeSegment(name)}`);
      }
      return;
    }
    if (!Array.isArray(value)) return;
    const keys = resolveListKeys(group, kind, version, pattern, { live });
    if (!keys) {
      // Atomic: the apply writes head's list as it is, so a field dropped inside it goes too.
      const liveValue = valueAtSegments(live, segments);
      if (droppedInside(value, headValue, liveValue)) removal(segments, 'replace', headValue, liveValue);
      return;
    }
    for (const item of value) {
      const key = itemKey(item, keys);
      if (key) walk(item, [...segments, { key }], `${pattern}/*`);
    }
  };
  walk(base, [], '');
  return out;
}
