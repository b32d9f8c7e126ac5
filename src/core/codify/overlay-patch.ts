// A change to an object from a shared base, written as a strategic-merge patch in this cluster's
// overlay: one file per resource, created or extended, registered in the overlay's `patches:`.
import type { DesiredObject, FieldChange, PathSegment } from '../model/index.js';
import { isPlainObject, ownValue } from '../model/index.js';
import { appendToKustomizationList } from './kustomization-lists.js';
import { manifestText, relativeTo } from './new-resource.js';
import { dirOf, joinPath } from './shared-bases.js';
import { setValueAt, type EditResult } from './yaml-edit.js';
import type { Workspace } from './workspace.js';

/** The patch file for one resource in an overlay directory. */
export function overlayPatchPath(overlayKustomization: string, desired: DesiredObject): string {
  const name = `driftback-${desired.key.kind.toLowerCase()}-${desired.source.sourceName}.yaml`;
  return joinPath(dirOf(overlayKustomization), name);
}

/**
 * A strategic merge patch replaces non-keyed lists whole, so a path through a list item named by
 * index is cut at that list and the whole live list is written.
 */
export function patchTarget(change: FieldChange, live: unknown): { segments: PathSegment[]; value: unknown } {
  const cut = change.segments.findIndex((segment) => typeof segment === 'object' && 'index' in segment);
  if (cut < 0) return { segments: [...change.segments], value: change.live };
  const segments = change.segments.slice(0, cut);
  return { segments, value: valueAtSegments(live, segments) };
}

function patchSkeleton(desired: DesiredObject): string {
  const metadata: Record<string, string> = { name: desired.source.sourceName };
  const namespace = desired.source.sourceNamespace ?? desired.key.namespace;
  if (namespace) metadata.namespace = namespace;
  return manifestText({ apiVersion: desired.object.apiVersion, kind: desired.object.kind, metadata });
}

export function writeOverlayPatch(workspace: Workspace, overlayKustomization: string, desired: DesiredObject, segments: readonly PathSegment[], value: unknown): EditResult & { file: string } {
  const file = overlayPatchPath(overlayKustomization, desired);
  const existing = workspace.read(file);
  const edited = setValueAt(existing ?? patchSkeleton(desired), 0, segments, value);
  if (!edited.ok) return { ...edited, file };
  workspace.write(file, edited.text);
  const kustomization = workspace.read(overlayKustomization);
  if (kustomization === undefined) return { ok: false, reason: `${overlayKustomization} is not in the repository`, file };
  const registered = appendToKustomizationList(kustomization, 'patches', { path: relativeTo(dirOf(overlayKustomization), file) });
  if (!registered.ok) return { ok: false, reason: `${overlayKustomization}: ${registered.reason}`, file };
  workspace.write(overlayKustomization, registered.text);
  return { ...edited, file };
}

/** Reads a value by segments, keyed-list items matched by their merge keys. */
export function valueAtSegments(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (typeof segment === 'string') current = isPlainObject(current) ? ownValue(current, segment) : undefined;
    else if (!Array.isArray(current)) return undefined;
    else if ('index' in segment) current = current[segment.index];
    else current = current.find((item) => isPlainObject(item) && Object.entries(segment.key).every(([k, v]) => String(item[k] ?? (k === 'protocol' ? 'TCP' : '')) === String(v)));
  }
  return current;
}
