// A change to an object from a shared base, written as a strategic-merge patch in this cluster's
// overlay: into the patch the overlay already lists for the resource, else one file per resource,
// created or extended, registered in the overlay's `patches:`.
import { parse, parseAllDocuments } from 'yaml';
import {
  dirname,
  isPlainObject,
  joinPath,
  type DesiredObject,
  type FieldChange,
  type PathSegment,
} from '../model/index.js';
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

/**
 * A strategic-merge patch file the overlay already lists for this object (`patches[].path` or
 * `patchesStrategicMerge`), and the document in it: a change goes there rather than into a new file.
 */
function existingPatch(
  workspace: Workspace,
  overlayKustomization: string,
  desired: DesiredObject,
): { file: string; document: number } | undefined {
  let kustomization: unknown;
  try {
    kustomization = parse(workspace.read(overlayKustomization) ?? '');
  } catch {
    return undefined;
  }
  if (!isPlainObject(kustomization)) return undefined;
  const dir = dirname(overlayKustomization);
  const listed: string[] = [];
  if (Array.isArray(kustomization.patches)) {
    for (const entry of kustomization.patches) {
      if (isPlainObject(entry) && typeof entry.path === 'string') listed.push(entry.path);
    }
  }
  if (Array.isArray(kustomization.patchesStrategicMerge)) {
    for (const entry of kustomization.patchesStrategicMerge) {
      if (typeof entry === 'string' && !entry.includes('\n')) listed.push(entry);
    }
  }
  for (const path of listed) {
    const file = joinPath(dir, path);
    const text = file === undefined ? undefined : workspace.read(file);
    if (file === undefined || text === undefined) continue;
    let documents: unknown[];
    try {
      documents = parseAllDocuments(text).map((doc) => doc.toJS() as unknown);
    } catch {
      continue;
    }
    const document = documents.findIndex(
      (doc) =>
        isPlainObject(doc) &&
        doc.kind === desired.object.kind &&
        isPlainObject(doc.metadata) &&
        doc.metadata.name === desired.source.sourceName,
    );
    if (document >= 0) return { file, document };
  }
  return undefined;
}

export function writeOverlayPatch(
  workspace: Workspace,
  overlayKustomization: string,
  desired: DesiredObject,
  segments: readonly PathSegment[],
  value: unknown,
): EditResult & { file: string } {
  const listed = existingPatch(workspace, overlayKustomization, desired);
  if (listed) {
    const edited = setValueAt(workspace.read(listed.file)!, listed.document, segments, value);
    if (edited.ok) workspace.write(listed.file, edited.text);
    return { ...edited, file: listed.file };
  }
  const file = overlayPatchPath(overlayKustomization, desired);
  const existing = workspace.read(file);
  const edited = setValueAt(existing ?? patchSkeleton(desired), 0, segments, value);
  if (!edited.ok) return { ...edited, file };
  workspace.write(file, edited.text);
  const kustomization = workspace.read(overlayKustomization);
  if (kustomization === undefined)
    return { ok: false, reason: `${overlayKustomization} is not in the repository`, file };
  const entry = { path: relativeTo(dirname(overlayKustomization), file) };
  const registered = appendToKustomizationList(kustomization, 'patches', entry);
  if (!registered.ok) return { ok: false, reason: `${overlayKustomization}: ${registered.reason}`, file };
  workspace.write(overlayKustomization, registered.text);
  return { ...edited, file };
}
