// The live side of a text diff, shaped like the desired object: desired with each counted change's
// live value put in place. Comparing this with desired shows exactly the drifted fields in
// context, without status, server-set metadata and defaults (which are noise, not drift).
import { fromPointer, isPlainObject, ownValue, setOwn, type FieldChange, type PathSegment } from '../model/index.js';
import { indexOfItem as indexIn } from '../k8s/index.js';

type Container = Record<string, unknown> | unknown[];

function childOf(container: Container, segment: PathSegment): unknown {
  if (Array.isArray(container)) {
    const index = indexIn(container, segment);
    return index < 0 ? undefined : container[index];
  }
  return typeof segment === 'string' ? ownValue(container, segment) : undefined;
}

function assign(container: Container, segment: PathSegment, value: unknown): void {
  if (Array.isArray(container)) {
    const index = indexIn(container, segment);
    if (index < 0) container.push(value);
    else container[index] = value;
  } else if (typeof segment === 'string') {
    setOwn(container, segment, value);
  }
}

function remove(container: Container, segment: PathSegment): void {
  if (Array.isArray(container)) {
    const index = indexIn(container, segment);
    if (index >= 0) container.splice(index, 1);
  } else if (typeof segment === 'string') {
    delete container[segment];
  }
}

/** Sets (or, when `value` is undefined, deletes) the field at structured segments, creating parents. */
export function putAt(root: Record<string, unknown>, segments: PathSegment[], value: unknown): void {
  if (segments.length === 0) return;
  let current: Container = root;
  for (let i = 0; i < segments.length - 1; i++) {
    let next = childOf(current, segments[i]);
    if (!isPlainObject(next) && !Array.isArray(next)) {
      if (value === undefined) return;
      const following = segments[i + 1];
      next = typeof following === 'string' ? {} : [];
      if (typeof following === 'object' && 'key' in following) (next as unknown[]).push({ ...following.key });
      assign(current, segments[i], next);
    }
    current = next as Container;
  }
  const last = segments[segments.length - 1];
  if (value === undefined) remove(current, last);
  else assign(current, last, structuredClone(value));
}

/** Desired with the live value of each change in place (deleted where live has none). */
export function liveViewOf(desired: Record<string, unknown>, changes: FieldChange[]): Record<string, unknown> {
  const view = structuredClone(desired);
  for (const change of changes) putAt(view, segmentsOf(change), change.live);
  return view;
}

/** The structured segments of a change; its JSON pointer when the engine gave none. */
export function segmentsOf(change: FieldChange): PathSegment[] {
  return change.segments.length > 0 ? change.segments : fromPointer(change.path);
}

/** The concrete path (keys and indexes) a change's segments name in `root`, or undefined when absent. */
export function concretePath(root: unknown, segments: PathSegment[]): Array<string | number> | undefined {
  const path: Array<string | number> = [];
  let current = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      const index = indexIn(current, segment);
      if (index < 0) return undefined;
      path.push(index);
      current = current[index];
    } else if (isPlainObject(current) && typeof segment === 'string' && Object.hasOwn(current, segment)) {
      path.push(segment);
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return path;
}
