// patchesStrategicMerge, patches and patchesJson6902: load each patch (file or inline), find its
// targets, apply it. Patched nodes keep the patch's own location, so a check run can point at the
// overlay line that set a value.
import type { FieldOrigin, SourceProblem } from '../model/index.js';
import { inlineOffsetMap, relocate } from './inline-text.js';
import { applyJsonPatch } from './json-patch.js';
import { lineOf, type KustomizationFile } from './kustomization-file.js';
import { joinPath, outsideDir } from './paths.js';
import { loadYamlFile } from './read-yaml.js';
import {
  currentId,
  describeResource,
  groupOfResource,
  kindOf,
  nameOf,
  storePreviousId,
  versionOfResource,
  type BuildResource,
} from './resource.js';
import type { CustomSchema } from './openapi-schema.js';
import { compileSelector, readSelector, type TargetSelector } from './select-target.js';
import { strategicMerge } from './strategic-merge.js';
import { cloneTracked, getIn, getString, type TrackedMap, type TrackedNode } from './tracked.js';

export interface PatchInputs {
  files: ReadonlyMap<string, string>;
  filesRead: Set<string>;
  problems: SourceProblem[];
  rootOnly?: boolean;
  schema?: CustomSchema;
}

export type PatchField = 'patches' | 'patchesStrategicMerge' | 'patchesJson6902';

interface LoadedPatch {
  documents: TrackedNode[];
  file?: string;
}

type Report = (message: string, node?: TrackedNode) => void;
type Target = Extract<ReturnType<typeof compileSelector>, { ok: true }>;

/** Applies one patch list field; returns the resources left (a `$patch: delete` removes some). */
export function applyPatchField(
  kustomization: KustomizationFile,
  fieldName: PatchField,
  entries: TrackedNode[],
  resources: BuildResource[],
  inputs: PatchInputs,
): BuildResource[] {
  let current = resources;
  entries.forEach((entry, index) => {
    const where = `${fieldName}[${index}]`;
    const report: Report = (message, node = entry) => {
      inputs.problems.push({ file: kustomization.path, line: lineOf(node), field: where, message });
    };
    const { contentNode, target: selector } = entryParts(fieldName, entry);
    if (!contentNode) return report('needs a path or an inline patch');
    const target = selector ? compileSelector(selector) : undefined;
    if (target && !target.ok) return report(target.message, entry.kind === 'map' ? entry.entries.get('target') : entry);
    const isPath =
      fieldName === 'patchesStrategicMerge'
        ? !looksInline(contentNode)
        : entry.kind === 'map' && entry.entries.has('path');
    const origin = { type: 'patch', kustomization: kustomization.path, index, patchType: 'strategic-merge' } as const;
    const loaded = loadPatch(kustomization, contentNode, isPath, origin, where, inputs);
    if (!loaded) return;
    if (fieldName === 'patchesJson6902' || loaded.documents[0]?.kind === 'list') {
      setPatchType(loaded.documents, 'json6902');
      if (!target) return report('a JSON 6902 patch needs a target');
      // kustomize applies a targeted patch to whatever matches, nothing included.
      return applyJson6902(target.select(current), loaded.documents[0]!, report);
    }
    for (const patch of loaded.documents)
      current = applyStrategicMerge(current, { patch, entry, target, schema: inputs.schema }, report);
  });
  return current;
}

function applyJson6902(selected: BuildResource[], patch: TrackedNode, report: Report): void {
  for (const resource of selected) {
    const result = applyJsonPatch(resource.root, cloneTracked(patch));
    if (!result.ok) report(`${describeResource(resource)}: operation ${result.operation}: ${result.message}`);
    else if (result.root.kind === 'map') {
      // A JSON patch may rename: the object keeps its earlier id, as kustomize records it.
      const before = currentId(resource);
      resource.root = result.root;
      if (nameOf(resource) !== before.name || kindOf(resource) !== before.kind) {
        (resource.prevIds ??= []).push(before);
        resource.names.push(nameOf(resource));
      }
    }
  }
}

/** One strategic merge patch document on its targets (or the one object it names); the resources left. */
function applyStrategicMerge(
  current: BuildResource[],
  at: { patch: TrackedNode; entry: TrackedNode; target: Target | undefined; schema: CustomSchema | undefined },
  report: Report,
): BuildResource[] {
  const { patch, entry, target } = at;
  if (patch.kind !== 'map') {
    report('a strategic merge patch is a mapping');
    return current;
  }
  const selected = target ? target.select(current) : selectByIdentity(current, patch);
  const named = `${getString(patch, ['kind'])}/${getString(patch, ['metadata', 'name'])}`;
  if (selected.length === 0 && !target) {
    report(`no resource matches ${named}`);
    return current;
  }
  if (selected.length > 1 && !target) {
    // A patch without a target names one object (by any name it had); kustomize refuses an ambiguous one.
    report(
      `${named} names ${selected.length} objects (${selected.map(describeResource).join(', ')}): kustomize needs a unique target; add a target or a namespace`,
    );
    return current;
  }
  const allow = (option: string): boolean =>
    getIn(entry, ['options', option])?.kind === 'scalar' &&
    (getIn(entry, ['options', option]) as { value: unknown }).value === true;
  let left = current;
  for (const resource of selected) {
    const merged = strategicMerge(resource.root, withoutIdentity(cloneTracked(patch)), {
      group: groupOfResource(resource),
      kind: kindOf(resource),
      version: versionOfResource(resource),
      schema: at.schema,
    });
    if (merged === undefined) left = left.filter((r) => r !== resource);
    else if (merged.kind === 'map') {
      resource.root = merged;
      renameByPatch(resource, patch, allow('allowNameChange'), allow('allowKindChange'));
    }
  }
  return left;
}

function entryParts(fieldName: PatchField, entry: TrackedNode): { contentNode?: TrackedNode; target?: TargetSelector } {
  if (fieldName === 'patchesStrategicMerge') return { contentNode: entry };
  if (entry.kind !== 'map') return {};
  return {
    contentNode: entry.entries.get('path') ?? entry.entries.get('patch'),
    target: readSelector(entry.entries.get('target')),
  };
}

function looksInline(node: TrackedNode): boolean {
  return node.kind === 'scalar' && typeof node.value === 'string' && node.value.includes('\n');
}

function loadPatch(
  kustomization: KustomizationFile,
  node: TrackedNode,
  isPath: boolean,
  origin: FieldOrigin & { type: 'patch' },
  where: string,
  inputs: PatchInputs,
): LoadedPatch | undefined {
  const report = (message: string): undefined => {
    inputs.problems.push({ file: kustomization.path, line: lineOf(node), field: where, message });
    return undefined;
  };
  if (node.kind !== 'scalar' || typeof node.value !== 'string') return report('expected a file path or patch text');
  if (isPath) {
    const path = joinPath(kustomization.dir, node.value);
    if (path === undefined)
      return report(
        `"${node.value}" leaves the repository: driftback reads only files inside it, so vendor the file into the repository and point at that copy`,
      );
    if (inputs.rootOnly && outsideDir(kustomization.dir, path))
      return report(`security; file "${node.value}" is not in or below the kustomization's directory`);
    const text = inputs.files.get(path);
    if (text === undefined) return report(`patch file "${node.value}" (${path}) does not exist`);
    inputs.filesRead.add(path);
    const loaded = loadYamlFile(path, text, { ...origin, file: path });
    inputs.problems.push(...loaded.problems);
    if (loaded.problems.length > 0) return undefined;
    const documents = loaded.documents.flatMap((d) => (d.root ? [d.root] : []));
    // kustomize ignores an empty file under `patches`, and refuses one under patchesStrategicMerge.
    if (documents.length === 0 && where.startsWith('patchesStrategicMerge'))
      return report(`patch file "${node.value}" appears to be empty`);
    return { documents, file: path };
  }
  const loaded = loadYamlFile(kustomization.path, node.value, origin);
  if (loaded.problems.length > 0) return report(`invalid inline patch: ${loaded.problems[0].message}`);
  const kustomizationText = inputs.files.get(kustomization.path) ?? '';
  const map = inlineOffsetMap(kustomizationText, node);
  const documents = loaded.documents.flatMap((d) => (d.root ? [d.root] : []));
  for (const doc of documents) relocate(doc, kustomizationText, kustomization.path, map, node.source.location!);
  return { documents };
}

function setPatchType(documents: TrackedNode[], patchType: 'json6902'): void {
  const visit = (n: TrackedNode): void => {
    if (n.source.origin.type === 'patch') n.source = { ...n.source, origin: { ...n.source.origin, patchType } };
    if (n.kind === 'map') for (const child of n.entries.values()) visit(child);
    if (n.kind === 'list') for (const child of n.items) visit(child);
  };
  documents.forEach(visit);
}

/** Without a target, a strategic merge patch names its resource by kind, name and (optionally) namespace. */
function selectByIdentity(resources: BuildResource[], patch: TrackedMap): BuildResource[] {
  const kind = getString(patch, ['kind']);
  const name = getString(patch, ['metadata', 'name']);
  const namespace = getString(patch, ['metadata', 'namespace']);
  const apiVersion = getString(patch, ['apiVersion']);
  const group = apiVersion?.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : apiVersion ? '' : undefined;
  if (name === undefined) return [];
  // One id the object had (kustomize's current and previous ids) must match kind and name together.
  return resources.filter(
    (r) =>
      (group === undefined || groupOfResource(r) === group) &&
      (namespace === undefined || r.namespaces.includes(namespace)) &&
      [currentId(r), ...(r.prevIds ?? [])].some(
        (id) => id.kind === kind && (id.name === name || (id.kind === kindOf(r) && r.names.includes(name))),
      ),
  );
}

/** With `options.allowNameChange` / `allowKindChange`, a targeted patch's name and kind replace the target's. */
function renameByPatch(resource: BuildResource, patch: TrackedMap, allowName: boolean, allowKind: boolean): void {
  // kustomize records the id once, before the patch, whenever a change of name or kind is allowed.
  if (allowName || allowKind) storePreviousId(resource);
  const name = getIn(patch, ['metadata', 'name']);
  if (allowName && name?.kind === 'scalar' && typeof name.value === 'string' && name.value !== nameOf(resource)) {
    const metadata = resource.root.entries.get('metadata');
    if (metadata?.kind === 'map') {
      metadata.entries.set('name', name);
      resource.names.push(name.value);
      resource.renamedBy = name.source.origin;
    }
  }
  const kind = patch.entries.get('kind');
  if (allowKind && kind?.kind === 'scalar' && typeof kind.value === 'string' && kind.value !== kindOf(resource))
    resource.root.entries.set('kind', kind);
}

/** The target keeps its identity: kustomize restores name, namespace and kind after merging. */
function withoutIdentity(patch: TrackedMap): TrackedMap {
  const entries = new Map(patch.entries);
  entries.delete('apiVersion');
  entries.delete('kind');
  const metadata = entries.get('metadata');
  if (metadata?.kind === 'map') {
    const meta = new Map(metadata.entries);
    meta.delete('name');
    meta.delete('namespace');
    if (meta.size === 0 && !entries.has('$patch')) entries.delete('metadata');
    else entries.set('metadata', { ...metadata, entries: meta });
  }
  return { ...patch, entries };
}
