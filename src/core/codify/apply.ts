// Carries out the selected intents on the workspace, one edit at a time, recording for each what
// was written where, or why it could not be.
import type { Config } from '../config/index.js';
import type { DefaultLookup } from '../k8s/index.js';
import type { DesiredObject, FieldChange, PathSegment, ResourceDiff } from '../model/index.js';
import { splitImage } from '../manifests/images-transformer.js';
import type { Intent } from './select.js';
import { conflictAsChange } from './select.js';
import type { ChartValueEdit, CodifiedChange, CodifyKind, ReportedChange } from './types.js';
import type { Workspace } from './workspace.js';
import { routeChange, overlayFor, type Route } from './route.js';
import { writeChartChange, type ChartEvidence, type ValueWriter } from './chart-values.js';
import type { HeldDrift } from './held-drift.js';
import { removeValueAt, setScalarAt, setValueAt, type EditResult } from './yaml-edit.js';
import { patchTarget, writeOverlayPatch } from './overlay-patch.js';
import { cleanLiveObject } from './clean-live.js';
import { manifestText, relativeTo } from './new-resource.js';
import { placeNewFile, type PathReader } from './new-file-place.js';
import { identityProblems } from '../k8s/object-names.js';
import { schemaProblems } from '../k8s/validate.js';
import { appendToKustomizationList } from './kustomization-lists.js';
import { dirname, isPlainObject } from '../model/index.js';
import { parseAllDocuments } from 'yaml';

export interface ApplyContext {
  workspace: Workspace;
  config: Config;
  root: string;
  cluster?: { name: string };
  /** namespace → directory a source renders it from (CodifyInput.newResourceHomes). */
  homes: Readonly<Record<string, string>>;
  /** What applies the repository's directories: a new file goes only where one of them reads it. */
  readers: readonly PathReader[];
  /** Directory → number of kustomizations that use it. */
  users: ReadonlyMap<string, number>;
  codified: CodifiedChange[];
  reported: ReportedChange[];
  /** Defaults the CRDs give custom resources' fields: left out of a new file's manifest. */
  customDefaults?: DefaultLookup;
  /** Renders candidate chart values (absent: a change on a chart's output is reported). */
  charts?: ChartEvidence;
  /** The own live drift of fields holding chart values this run wrote or tried to write. */
  held: HeldDrift[];
}

type Outcome =
  | {
      ok: true;
      file: string;
      line?: number;
      kind: CodifyKind;
      note?: string;
      chartValue?: ChartValueEdit;
      held?: HeldDrift;
    }
  | { ok: false; reason: string; held?: HeldDrift };

function editFile(ctx: ApplyContext, file: string, edit: (text: string) => EditResult): Outcome & { ok: boolean } {
  const text = ctx.workspace.read(file);
  if (text === undefined) return { ok: false, reason: `${file} is not in the repository` };
  const result = edit(text);
  if (!result.ok) return { ok: false, reason: `${file}: ${result.reason}` };
  ctx.workspace.write(file, result.text);
  return { ok: true, file, line: result.line || undefined, kind: 'replace' };
}

type ImagesRoute = Extract<Route, { type: 'images' }>;

/** Sets an `images:` entry so that kustomize renders the live image reference. */
function editImages(text: string, route: ImagesRoute, live: string): EditResult {
  const { index } = route;
  const document = route.document ?? 0;
  const list = route.list ?? ['images'];
  const parsed = parseAllDocuments(text)[document]?.toJS() as unknown;
  const entries = list.reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), parsed);
  const at = [...list, { index }];
  const ref = splitImage(live);
  if (route.format === 'argocd-string') {
    // Argo CD's `name=newName:tag@digest` (kustomize edit set image): the entry is rewritten whole.
    const entry = Array.isArray(entries) ? entries[index] : undefined;
    if (typeof entry !== 'string') return { ok: false, reason: `${list.join('.')}[${index}] is missing` };
    const name = entry.includes('=') ? entry.slice(0, entry.indexOf('=')) : undefined;
    const reference = `${ref.name}${ref.tag ? ':' + ref.tag : ''}${ref.digest ? '@' + ref.digest : ''}`;
    return setValueAt(text, document, at, name !== undefined ? `${name}=${reference}` : reference);
  }
  const entry = Array.isArray(entries) ? entries[index] : undefined;
  if (!isPlainObject(entry)) return { ok: false, reason: `${list.join('.')}[${index}] is missing` };
  let current: EditResult = { ok: true, text, line: 0 };
  const set = (field: string, value: string): void => {
    if (!current.ok || entry[field] === value) return;
    const next = setValueAt(current.text, document, [...at, field], value);
    current = next.ok && current.line ? { ...next, line: Math.min(current.line, next.line) } : next;
  };
  if (ref.name !== String(entry.newName ?? entry.name)) set('newName', ref.name);
  if (ref.tag) set('newTag', ref.tag);
  if (ref.digest) set('digest', ref.digest);
  if (!ref.digest && entry.digest !== undefined && current.ok) {
    current = removeValueAt(current.text, document, [...at, 'digest']);
  }
  if (!ref.tag && entry.newTag !== undefined && current.ok)
    current = removeValueAt(current.text, document, [...at, 'newTag']);
  return current;
}

/** Writes one field's value (or removes it when `value` is undefined) where the source map says it lives. */
function writeField(
  ctx: ApplyContext,
  resource: ResourceDiff,
  desired: DesiredObject,
  change: FieldChange,
  value: unknown,
): Outcome {
  const route = routeChange(desired, change.path);
  const kind: CodifyKind = value === undefined ? 'remove-field' : change.op === 'add' ? 'add' : 'replace';
  if (route.type === 'unsupported') return { ok: false, reason: route.reason };
  if (route.type === 'chart-values') return writeChartField(ctx, resource, change, route, value === undefined);
  if (route.type === 'images') return writeImage(ctx, route, value, kind);
  if (route.type === 'replicas') return writeReplicaCount(ctx, route, value, kind);
  const overlay = overlayFor(desired.source.kustomizations, route.owner, ctx.users, route.file);
  if (overlay === null)
    return {
      ok: false,
      reason: `${route.file} is in a base that other kustomizations use, and this cluster has no overlay of its own to patch`,
    };
  if (overlay) return writeOverlayField(ctx, overlay, route.file, resource, desired, change, value);
  return writeInFile(ctx, route, change.segments, value, kind);
}

/** A field kustomize's `images:` sets: the entry is changed so that it renders the live image. */
function writeImage(ctx: ApplyContext, route: ImagesRoute, value: unknown, kind: CodifyKind): Outcome {
  if (typeof value !== 'string')
    return { ok: false, reason: 'an image set by kustomize images: can only be changed to another image' };
  return { ...editFile(ctx, route.kustomization, (text) => editImages(text, route, value)), kind } as Outcome;
}

/** A count kustomize's `replicas:` sets: the entry's count is changed; it is never removed. */
function writeReplicaCount(
  ctx: ApplyContext,
  route: Extract<Route, { type: 'replicas' }>,
  value: unknown,
  kind: CodifyKind,
): Outcome {
  if (value === undefined)
    return {
      ok: false,
      reason: `the replica count is set by replicas: in ${route.kustomization}; remove that entry by hand`,
    };
  const at = [...(route.list ?? ['replicas']), { index: route.index }, 'count'];
  const edited = editFile(ctx, route.kustomization, (text) => setValueAt(text, route.document ?? 0, at, value));
  return { ...edited, kind } as Outcome;
}

/** A field of a shared base: written as a strategic-merge patch in the cluster's own overlay. */
function writeOverlayField(
  ctx: ApplyContext,
  overlay: string,
  file: string,
  resource: ResourceDiff,
  desired: DesiredObject,
  change: FieldChange,
  value: unknown,
): Outcome {
  if (value === undefined)
    return {
      ok: false,
      reason: `${file} is in a shared base: a field cannot be removed by a strategic-merge patch; remove it by hand`,
    };
  const target = patchTarget(change, resource.live);
  const result = writeOverlayPatch(ctx.workspace, overlay, desired, target.segments, target.value);
  return result.ok
    ? { ok: true, file: result.file, line: result.line, kind: 'patch' }
    : { ok: false, reason: result.reason };
}

/** A field edited where it is written: a JSON 6902 patch's scalar at its range, or the path in its document. */
function writeInFile(
  ctx: ApplyContext,
  route: Extract<Route, { type: 'document' | 'scalar' }>,
  segments: readonly PathSegment[],
  value: unknown,
  kind: CodifyKind,
): Outcome {
  const remove = value === undefined;
  if (route.type === 'scalar') {
    if (remove || !(value === null || ['string', 'number', 'boolean'].includes(typeof value))) {
      return { ok: false, reason: `${route.file}: a value set by a patch is only rewritten as a scalar` };
    }
    return {
      ...editFile(ctx, route.file, (text) => setScalarAt(text, route.range, value as string | number | boolean | null)),
      kind,
    } as Outcome;
  }
  const at: PathSegment[] = [...segments];
  return {
    ...editFile(ctx, route.file, (text) =>
      remove ? removeValueAt(text, route.document, at) : setValueAt(text, route.document, at, value),
    ),
    kind,
  } as Outcome;
}

/** A field of a chart's output: into the chart value proven to render it; a removal is left to a person. */
function writeChartField(
  ctx: ApplyContext,
  resource: ResourceDiff,
  change: FieldChange,
  route: Extract<Route, { type: 'chart-values' }>,
  remove: boolean,
): Outcome {
  if (remove) return { ok: false, reason: `set by the chart of ${route.source}; remove it from its values by hand` };
  const target = { key: resource.key, change, source: route.source, places: route.places };
  return writeChartChange(valueWriter(ctx), ctx.workspace, ctx.charts, target);
}

/** Edits on a given workspace, made as every other edit of the run is made. */
function valueWriter(ctx: ApplyContext): ValueWriter {
  return (workspace) => {
    const on: ApplyContext = { ...ctx, workspace, codified: [], reported: [], held: [] };
    return {
      editFile: (file, edit) => editFile(on, file, edit),
      writeObjectField: (desired, change, value) => {
        const declared: ResourceDiff = {
          key: desired.key,
          status: 'modified',
          changes: [],
          ignored: [],
          conflicts: [],
        };
        return writeField(on, declared, desired, change, value);
      },
    };
  };
}

function writeNewResource(ctx: ApplyContext, resource: ResourceDiff): Outcome {
  // Names become path segments: only names an API server would accept are written as files.
  const invalid = identityProblems(resource.live);
  if (invalid.length > 0)
    return { ok: false, reason: `${invalid[0].path} ${invalid[0].message}; no file is written for it` };
  // Where a source renders this namespace from, the file goes into that directory; otherwise where the
  // config's template says — in both cases only where a source of the cluster reads it.
  const home = Object.hasOwn(ctx.homes, resource.key.namespace) ? ctx.homes[resource.key.namespace] : undefined;
  const where = {
    ...(home !== undefined ? { home } : {}),
    root: ctx.root,
    template: ctx.config.pullRequests.newResourcePath,
    ...(ctx.cluster ? { cluster: ctx.cluster.name } : {}),
  };
  const placed = placeNewFile(resource.key, where, ctx.readers, ctx.workspace.files());
  if (!placed.ok) return placed;
  const { file, kustomization, note } = placed;
  if (ctx.workspace.read(file) !== undefined)
    return {
      ok: false,
      reason: `${file} already exists; pullRequests.newResourcePath gives the same file for two resources`,
    };
  // Checked against the kind's OpenAPI schema before anything is written: the API server must accept it.
  const manifest = cleanLiveObject(resource.live!, ctx.customDefaults);
  const invalidField = schemaProblems(manifest)[0];
  if (invalidField) {
    const where = `${invalidField.path} ${invalidField.message}`;
    return { ok: false, reason: `the manifest written for it would be rejected: ${where}; no file is written` };
  }
  // List it first: when the kustomization cannot take it, no orphan file is left behind.
  if (kustomization) {
    const entry = relativeTo(dirname(kustomization), file);
    const listed = editFile(ctx, kustomization, (text) => appendToKustomizationList(text, 'resources', entry));
    if (!listed.ok) return listed;
  }
  ctx.workspace.write(file, manifestText(manifest));
  return { ok: true, file, line: 1, kind: 'new-file', ...(note ? { note } : {}) };
}

export function applyIntent(ctx: ApplyContext, intent: Intent): void {
  const { resource } = intent;
  let outcome: Outcome;
  let change: FieldChange | undefined;
  if (intent.type === 'new-file') outcome = writeNewResource(ctx, resource);
  else if (!resource.desired) outcome = { ok: false, reason: 'the desired object has no source map' };
  else if (intent.type === 'set') {
    change = intent.change;
    outcome = writeField(ctx, resource, resource.desired, change, change.live);
  } else {
    change = conflictAsChange(intent.conflict);
    outcome = writeField(ctx, resource, resource.desired, change, undefined);
  }
  if (outcome.held) ctx.held.push(outcome.held);
  if (outcome.ok)
    ctx.codified.push({
      key: resource.key,
      ...(change ? { change } : {}),
      file: outcome.file,
      ...(outcome.line ? { line: outcome.line } : {}),
      kind: outcome.kind,
      ...(outcome.note ? { note: outcome.note } : {}),
      ...(outcome.chartValue ? { chartValue: outcome.chartValue } : {}),
    });
  else ctx.reported.push({ key: resource.key, ...(change ? { change } : {}), reason: outcome.reason });
}
