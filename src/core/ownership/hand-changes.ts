// Hand changes on an object that another owner manages (a Helm release's chart output): the fields a
// person's field manager still owns, with who and when. They are reported, never written into Git:
// the chart renders them, so the fix is in the release's values.
import type { Config } from '../config/index.js';
import type { FieldChange, KubeObject, PathSegment, Reported } from '../model/index.js';
import { escapeSegment } from '../model/index.js';
import { classifyManager } from '../classify/managers.js';
import { creationOf, indexOfItem, lastAppliedOf, ownedFieldsOf } from '../k8s/index.js';
import { isPlainObject, ownValue } from '../model/index.js';

/** The pointer and value at structured segments in live, or undefined when live no longer has the field. */
export function resolveSegments(
  object: unknown,
  segments: readonly PathSegment[],
): { pointer: string; value: unknown } | undefined {
  let node: unknown = object;
  let pointer = '';
  for (const segment of segments) {
    if (typeof segment === 'string') {
      if (!isPlainObject(node)) return undefined;
      node = ownValue(node, segment);
      pointer += `/${escapeSegment(segment)}`;
    } else {
      if (!Array.isArray(node)) return undefined;
      const at = indexOfItem(node, segment);
      if (at < 0) return undefined;
      node = node[at];
      pointer += `/${at}`;
    }
    if (node === undefined) return undefined;
  }
  return { pointer, value: node };
}

/** Why a chart's field is not codified, and where the change belongs instead. */
export function helmReason(release: string, path: string): string {
  return `managed by Helm release ${release}; ${helmRemedy(path)}`;
}

/** Where a hand change on a chart's field belongs instead (the HelmRelease's values). */
export function helmRemedy(path: string): string {
  const image = /\/containers\/\d+\/image$/.test(path);
  const where = image
    ? "the image in the HelmRelease's `spec.values` (e.g. `image.tag`)"
    : "the HelmRelease's `spec.values`";
  return `change ${where} instead`;
}

/**
 * A person's write that put back what the object's client-side `kubectl apply` declared (scaled back
 * to the install's replicas) leaves their managedFields entry but no change.
 */
function backToApplied(applied: unknown, segments: readonly PathSegment[], live: unknown): boolean {
  if (applied === undefined || isPlainObject(live) || Array.isArray(live)) return false;
  return resolveSegments(applied, segments)?.value === live;
}

/**
 * The fields people's managers own on a live object (metadata bookkeeping and status aside), each as a
 * change with its manager and time, marked reported with `reported`.
 * A field whose value is back at what the last client-side apply declared is none.
 */
export function handChangesOn(live: KubeObject, config: Config, reported: (path: string) => Reported): FieldChange[] {
  const changes: FieldChange[] = [];
  const entries = Array.isArray(live.metadata?.managedFields) ? live.metadata.managedFields : [];
  const created = creationOf(live);
  const applied = lastAppliedOf(live);
  for (const entry of entries) {
    if (!entry?.manager || entry.subresource === 'status') continue;
    // The write that created the object is its making, not a change to it (kind runs `kubectl create`).
    if (created && entry.manager === created.manager && entry.time === created.time && entry.operation === 'Update')
      continue;
    if (classifyManager(entry.manager, config, entry.operation) !== 'human') continue;
    for (const segments of ownedFieldsOf(entry.fieldsV1)) {
      const bookkeeping = segments[0] === 'metadata' && segments[1] !== 'labels' && segments[1] !== 'annotations';
      if (segments[0] === 'status' || bookkeeping) continue;
      const found = resolveSegments(live, segments);
      if (!found || backToApplied(applied, segments, found.value)) continue;
      changes.push({
        path: found.pointer,
        segments,
        op: 'replace',
        live: found.value,
        manager: entry.manager,
        ...(entry.operation ? { operation: entry.operation } : {}),
        ...(entry.time ? { time: entry.time } : {}),
        cause: 'human',
        managers: [entry.manager],
        reported: reported(found.pointer),
      });
    }
  }
  return changes;
}
