// Two managers, one field: head declares a field that a controller (not the applier, not a person)
// owns in live. Found over every declared field, not only changed ones: an HPA that happens to agree
// with Git today still fights it tomorrow.
import { isPlainObject, toPointer, type Conflict, type KubeObject, type PathSegment } from '../model/index.js';
import { mergeKeyOf } from './merge-keys.js';
import { ownersOf } from './owners.js';
import type { ManagerClassifier } from './managers.js';

interface Leaf {
  segments: PathSegment[];
  pointer: Array<string | number>;
  desired: unknown;
  live: unknown;
}

function declaredLeaves(desired: unknown, live: unknown, segments: PathSegment[], pointer: Array<string | number>, out: Leaf[]): void {
  if (segments[0] === 'status') return;
  if (isPlainObject(desired)) {
    for (const [name, value] of Object.entries(desired)) declaredLeaves(value, isPlainObject(live) ? live[name] : undefined, [...segments, name], [...pointer, name], out);
    return;
  }
  if (Array.isArray(desired)) {
    const field = String(segments[segments.length - 1] ?? '');
    const keys = desired.map((item) => mergeKeyOf(field, item));
    if (keys.length && keys.every(Boolean)) {
      desired.forEach((item, i) => {
        const match = Array.isArray(live) ? live.find((c) => JSON.stringify(mergeKeyOf(field, c)) === JSON.stringify(keys[i])) : undefined;
        declaredLeaves(item, match, [...segments, keys[i]!], [...pointer, i], out);
      });
      return;
    }
  }
  out.push({ segments, pointer, desired, live });
}

export function findConflicts(head: KubeObject, live: KubeObject, managers: ManagerClassifier): Conflict[] {
  const leaves: Leaf[] = [];
  declaredLeaves(head, live, [], [], leaves);
  const conflicts: Conflict[] = [];
  for (const leaf of leaves) {
    if (leaf.segments[0] === 'metadata' && (leaf.segments[1] === 'name' || leaf.segments[1] === 'namespace')) continue;
    const owner = ownersOf(live, leaf.segments).find((o) => managers.causeOf(o.manager) === 'controller');
    if (!owner) continue;
    conflicts.push({
      path: toPointer(leaf.pointer),
      segments: leaf.segments,
      manager: owner.manager,
      time: owner.time,
      desired: leaf.desired,
      live: leaf.live,
      fix: `remove ${toPointer(leaf.pointer)} from Git so ${owner.manager} alone sets it, or add an ignore rule for it with managers: [${owner.manager}]`,
    });
  }
  return conflicts;
}
