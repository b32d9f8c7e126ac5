// A change to an object from a shared base, written as a strategic-merge patch in this cluster's
// overlay: one file per resource, created or extended, registered in the overlay's `patches:`.
import { dirname, type DesiredObject, type FieldChange, type PathSegment } from '../model/index.js';
import { valueAtSegments } from '../k8s/index.js';
import { appendToKustomizationList } from './kustomization-lists.js';
import { manifestText, relativeTo } from './new-resource.js';

import { setValueAt, type EditResult } from './yaml-edit.js';
import type { Workspace } from './workspace.js';

/** The patch file for one resource in an overlay directory. */
export function overlayPatchPath(overlayKustomization: string, desired: DesiredObject): string {
  const name = `driftback-${desired.key.kind.toLowerCase()}-${desired.source.sourceName}.yaml`;
  const dir = dirname(overlayKustomization);
  return dir ? `${dir}/${name}` : name;
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
  // A namespace a source sets at apply time (Flux targetNamespace) is not there yet inside the overlay.
  const setBySource = desired.source.fields['/metadata/namespace']?.origin.type === 'source-transform';
  const namespace = desired.source.sourceNamespace ?? (setBySource ? undefined : desired.key.namespace);
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
  const entry = { path: relativeTo(dirname(overlayKustomization), file) };
  const registered = appendToKustomizationList(kustomization, 'patches', entry);
  if (!registered.ok) return { ok: false, reason: `${overlayKustomization}: ${registered.reason}`, file };
  workspace.write(overlayKustomization, registered.text);
  return { ...edited, file };
}
