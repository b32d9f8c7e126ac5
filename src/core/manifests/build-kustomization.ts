// Builds one kustomization directory the way `kustomize build` does: accumulate resources (files and
// nested kustomizations), then components, then generators, then the built-in transformers in
// kustomize's order (patchesStrategicMerge, patches, namespace, prefix/suffix, labels, annotations,
// patchesJson6902, replicas, images). Hash suffixes and name references are done once, by the caller,
// at the end of the whole build, as kustomize does.
import type { FieldOrigin, FieldSource, SourceProblem } from '../model/index.js';
import type { BuildContext } from './build-context.js';
import { generate } from './generators.js';
import { HELM_NOT_ENABLED, inflateHelmCharts } from './helm-charts.js';
import { applyImages, type ImageRule } from './images-transformer.js';
import {
  field,
  lineOf,
  listField,
  loadKustomization,
  stringField,
  stringMap,
  type KustomizationFile,
} from './kustomization-file.js';
import { labelSpecs, writePairs } from './metadata-transformers.js';
import { ConflictingFieldSpecs, mergeConfig, readConfig, type TransformerConfig } from './transformer-config.js';
import { configFromCrdDefinitions } from './crd-config.js';
import { inlineConfigs, pluginRun, runPairs, type PluginRun } from './builtin-plugins.js';
import { builtinTransformers, noteTransformers } from './transformations.js';
import { applyNameAffix } from './name-affix.js';
import { applyNamespace } from './namespace-transformer.js';
import { applyPatchField, type PatchField } from './patches.js';
import {
  findKustomizationFile,
  isDirectory,
  isRemoteTarget,
  joinPath,
  kustomizationFilesIn,
  outsideDir,
} from './paths.js';
import { readResourceFile } from './read-resource-file.js';
import { applyReplicas, type ReplicaRule } from './replicas-transformer.js';
import {
  describeResource,
  groupOfResource,
  kindOf,
  nameOf,
  namespaceOf,
  type BuildResource,
  type PluginConfiguration,
} from './resource.js';
import { strategicMerge } from './strategic-merge.js';
import { getString, toPlain, type TrackedMap, type TrackedNode } from './tracked.js';
import { applyReplacements, readReplacement } from './replacements.js';
import { bindVars } from './vars.js';
import { readCustomSchema } from './openapi-schema.js';
import { isBuiltInGroup } from '../k8s/index.js';
import { loadYamlFileCached } from './parse-cache.js';

/** Builds `dir` (which has a kustomization file); `initial` is the parent's resources when `dir` is a component. */
export function buildKustomization(
  dir: string,
  kustomizationPath: string,
  context: BuildContext,
  initial: BuildResource[] = [],
): BuildResource[] {
  const text = context.files.get(kustomizationPath) ?? '';
  context.filesRead.add(kustomizationPath);
  const loaded = loadKustomization(kustomizationPath, dir, text, context.cache, context.meter);
  context.problems.push(...loaded.problems);
  if (!loaded.ok) return initial;
  const k = loaded.file;
  const others = kustomizationFilesIn(context.files, dir).filter((path) => path !== kustomizationPath);
  if (others.length > 0)
    context.problems.push({
      file: kustomizationPath,
      message: `Found multiple kustomization files under ${dir || '.'}: ${others.join(', ')} too; keep one`,
    });
  context.stack.push(dir);
  context.namespaces.push(stringField(k, 'namespace', []) ?? '');
  recordNotRendered(loaded.notRendered, context);
  try {
    readOpenApi(k, context);
    // Read first: whether the build tracks transformers holds for its bases too.
    if (context.stack.length === 1) readRootOptions(k, dir, context);
    let resources = loadResources(k, initial, context);
    // kustomize's order: resources, configurations and crds, generators, components, transformers.
    readConfigurations(k, context);
    resources = runGenerators(k, resources, context);
    resources = runHelmCharts(k, resources, context);
    resources = runPlugins(k, 'generators', resources, context);
    resources = buildComponents(k, resources, context);
    resources = runTransformers(k, resources, context);
    resources = runPlugins(k, 'transformers', resources, context);
    context.problems.push(...bindVars(k, listField(k, 'vars', context.problems), resources, context.vars));
    return resources;
  } finally {
    context.stack.pop();
    context.namespaces.pop();
  }
}

/** `initial` and what `resources` and `bases` list; a resource declared twice is refused, as kustomize does. */
function loadResources(k: KustomizationFile, initial: BuildResource[], context: BuildContext): BuildResource[] {
  const resources = [...initial];
  const ids = new Map(resources.map((r) => [idOf(r), r]));
  const entries = [...listField(k, 'resources', context.problems), ...listField(k, 'bases', context.problems)];
  for (const entry of entries) {
    for (const resource of loadEntry(k, entry, 'resources', context)) {
      if (!isBuiltInGroup(groupOfResource(resource))) context.customKindMet = true;
      const clash = ids.get(idOf(resource));
      if (clash) {
        context.problems.push({
          file: resource.file,
          line: resource.location.line,
          message: `${describeResource(resource)} is declared twice (also in ${clash.file}); kustomize refuses duplicate resources`,
        });
      } else {
        resources.push(resource);
        ids.set(idOf(resource), resource);
      }
    }
  }
  return resources;
}

/** What only the top kustomization of a build sets: sort options and build metadata. */
function readRootOptions(k: KustomizationFile, dir: string, context: BuildContext): void {
  readSortOptions(k, context);
  const metadata = field(k, 'buildMetadata');
  const options =
    metadata?.kind === 'list' ? metadata.items.flatMap((i) => (i.kind === 'scalar' ? [String(i.value)] : [])) : [];
  context.root = { dir, file: k.path, buildMetadata: options };
}

/** Each component built on the resources so far, in order; an entry that cannot be one is reported. */
function buildComponents(k: KustomizationFile, resources: BuildResource[], context: BuildContext): BuildResource[] {
  for (const entry of listField(k, 'components', context.problems)) {
    const componentDir = resolveEntry(k, entry, 'components', context);
    if (componentDir === undefined) continue;
    const file = findKustomizationFile(context.files, componentDir);
    const problem = !file
      ? `"${String((entry as { value?: unknown }).value)}" is not a directory with a kustomization file`
      : (cycleError(context, componentDir) ?? kustomizationKindError(context, file, true));
    if (problem || !file) {
      report(context, k, entry, 'components', problem!);
      continue;
    }
    resources = buildKustomization(componentDir, file, context, resources);
    for (const r of resources)
      if (!r.kustomizations.includes(k.path) && r.kustomizations.includes(file)) r.kustomizations.push(k.path);
  }
  return resources;
}

/** The fields this build does not render; helmCharts only when the build does not enable helm, with why. */
function recordNotRendered(fields: readonly SourceProblem[], context: BuildContext): void {
  for (const skipped of fields) {
    if (skipped.field === 'helmCharts' && context.helm && !context.helm.disabled) continue;
    const reason = skipped.field === 'helmCharts' ? (context.helm?.disabled ?? HELM_NOT_ENABLED) : skipped.message;
    notRendered(context, skipped.file, skipped.line, skipped.field, reason);
  }
}

/** A directory already being built further up: following it again would never end. */
function cycleError(context: BuildContext, dir: string): string | undefined {
  if (!context.stack.includes(dir)) return undefined;
  return `cycle: ${[...context.stack, dir].map((d) => d || '.').join(' → ')}: remove the entry that points back`;
}

/** kustomize's rule: `components` lists Components (apiVersion v1alpha1), `resources` lists no Component. */
function kustomizationKindError(context: BuildContext, file: string, component: boolean): string | undefined {
  const text = context.files.get(file) ?? '';
  const kind = /^kind:\s*["']?(\w+)/m.exec(text)?.[1] ?? 'Kustomization';
  const apiVersion = /^apiVersion:\s*["']?([\w./-]+)/m.exec(text)?.[1];
  if (component && kind !== 'Component') return `expected kind 'Component' for path '${file}' but got '${kind}'`;
  if (!component && kind === 'Component')
    return `expected kind != 'Component' for path '${file}': list it under components`;
  if (component && apiVersion && apiVersion !== 'kustomize.config.k8s.io/v1alpha1') {
    return 'apiVersion for Component should be kustomize.config.k8s.io/v1alpha1';
  }
  return undefined;
}

/** Records what is not rendered, with the namespace its objects would get (the outermost `namespace:` on the way). */
function notRendered(
  context: BuildContext,
  file: string,
  line: number | undefined,
  field: string | undefined,
  reason: string,
): void {
  const namespace = context.namespaces.find((ns) => ns !== '');
  context.notRendered.push({
    file,
    ...(line ? { line } : {}),
    ...(field ? { field } : {}),
    reason,
    ...(namespace ? { namespace } : {}),
  });
}

function idOf(r: BuildResource): string {
  return `${groupOfResource(r)}/${kindOf(r)}/${namespaceOf(r)}/${nameOf(r)}`;
}

function report(
  context: BuildContext,
  k: KustomizationFile,
  node: TrackedNode | undefined,
  fieldName: string,
  message: string,
): void {
  context.problems.push({ file: k.path, line: lineOf(node), field: fieldName, message });
}

/** Resolves a resources/components entry to a repository path, reporting remote and escaping entries. */
function resolveEntry(
  k: KustomizationFile,
  entry: TrackedNode,
  fieldName: string,
  context: BuildContext,
): string | undefined {
  if (entry.kind !== 'scalar' || typeof entry.value !== 'string') {
    report(context, k, entry, fieldName, 'expected a path');
    return undefined;
  }
  if (isRemoteTarget(entry.value)) {
    notRendered(
      context,
      k.path,
      lineOf(entry),
      fieldName,
      `remote target "${entry.value}" is not fetched: vendor it into the repository to have it rendered`,
    );
    return undefined;
  }
  const path = joinPath(k.dir, entry.value);
  if (path === undefined)
    report(
      context,
      k,
      entry,
      fieldName,
      `"${entry.value}" leaves the repository: driftback reads only files inside it, so vendor the file into the repository and point at that copy`,
    );
  return path;
}

/** One `resources`/`bases` entry: a file's objects, a nested kustomization's build, or a problem saying why neither. */
function loadEntry(
  k: KustomizationFile,
  entry: TrackedNode,
  fieldName: string,
  context: BuildContext,
): BuildResource[] {
  const path = resolveEntry(k, entry, fieldName, context);
  if (path === undefined) return [];
  if (context.files.has(path)) return loadResourceFile(k, entry, fieldName, path, context);
  const nested = findKustomizationFile(context.files, path);
  if (nested) return buildNested(k, entry, fieldName, path, nested, context);
  reportMissingEntry(k, entry, fieldName, path, context);
  return [];
}

/** A file's objects, unless the build is restricted to the kustomization's directory and the file lies outside it. */
function loadResourceFile(
  k: KustomizationFile,
  entry: TrackedNode,
  fieldName: string,
  path: string,
  context: BuildContext,
): BuildResource[] {
  if (context.rootOnly && outsideDir(k.dir, path)) {
    const message = `security; file "${String((entry as { value: unknown }).value)}" is not in or below the kustomization's directory`;
    report(context, k, entry, fieldName, message);
    return [];
  }
  return readResourceFile(path, context, [k.path]);
}

/** A nested kustomization's build, refused when it points back up the stack or is a Component. */
function buildNested(
  k: KustomizationFile,
  entry: TrackedNode,
  fieldName: string,
  path: string,
  nested: string,
  context: BuildContext,
): BuildResource[] {
  const problem = cycleError(context, path) ?? kustomizationKindError(context, nested, false);
  if (problem) {
    report(context, k, entry, fieldName, problem);
    return [];
  }
  const built = buildKustomization(path, nested, context);
  for (const r of built) r.kustomizations.push(k.path);
  return built;
}

/** Why an entry that is neither a file nor a kustomization directory was not read. */
function reportMissingEntry(
  k: KustomizationFile,
  entry: TrackedNode,
  fieldName: string,
  path: string,
  context: BuildContext,
): void {
  const value = String((entry as { value: unknown }).value);
  const unfollowed = context.unfollowed.get(path);
  const message =
    unfollowed === 'symlink'
      ? `"${value}" (${path}) is a symbolic link, and links in the repository are not followed: commit the file itself at this path, or list the link's target`
      : unfollowed === 'submodule'
        ? `"${value}" (${path}) is a git submodule, whose files are not read: vendor the manifests into the repository`
        : isDirectory(context.files, path)
          ? `directory "${value}" has no kustomization.yaml (kustomize builds directories only through one)`
          : `"${value}" (${path}) does not exist`;
  report(context, k, entry, fieldName, message);
}

function runGenerators(k: KustomizationFile, resources: BuildResource[], context: BuildContext): BuildResource[] {
  let current = resources;
  for (const fieldName of ['configMapGenerator', 'secretGenerator'] as const) {
    const entries = listField(k, fieldName, context.problems);
    const generated = generate(k, fieldName, entries, {
      files: context.files,
      filesRead: context.filesRead,
      problems: context.problems,
      rootOnly: context.rootOnly,
      meter: context.meter,
    });
    // Each generated object counts as a document read, like one a file holds.
    if (generated.length > 0) context.meter?.charge(k.path, { documents: generated.length });
    generated.forEach((made) => {
      const existing = current.find(
        (r) =>
          kindOf(r) === kindOf(made) &&
          r.names.includes(nameOf(made)) &&
          (!namespaceOf(made) || r.namespaces.includes(namespaceOf(made))),
      );
      const entryLine = made.location.line;
      if (made.behavior === 'create' || made.behavior === undefined) {
        if (existing)
          context.problems.push({
            file: k.path,
            line: entryLine,
            field: fieldName,
            message: `${describeResource(made)} already exists in a base: use behavior: merge or replace`,
          });
        else current = [...current, made];
        return;
      }
      if (!existing) {
        context.problems.push({
          file: k.path,
          line: entryLine,
          field: fieldName,
          message: `behavior ${made.behavior} needs ${describeResource(made)} from a base, and there is none`,
        });
        return;
      }
      combine(existing, made);
    });
  }
  return current;
}

/** helmCharts' objects join the build after the other generators' (kustomize's builtin generator order). */
function runHelmCharts(k: KustomizationFile, resources: BuildResource[], context: BuildContext): BuildResource[] {
  if (!context.helm || context.helm.disabled || !field(k, 'helmCharts')) return resources;
  const inflated = inflateHelmCharts(k, context);
  for (const problem of inflated.problems) context.problems.push({ file: k.path, ...problem });
  for (const part of inflated.notRendered) notRendered(context, k.path, part.line, part.field, part.reason);
  const ids = new Set(resources.map(idOf));
  const out = [...resources];
  for (const made of inflated.resources) {
    if (ids.has(idOf(made))) {
      const message = `${describeResource(made)} from helmCharts is already in the build; kustomize refuses the duplicate id`;
      context.problems.push({ file: k.path, line: made.location.line, field: 'helmCharts', message });
      continue;
    }
    ids.add(idOf(made));
    out.push(made);
  }
  return out;
}

/** behavior merge: the new data and metadata win key by key; replace: the new data replaces the old. */
function combine(existing: BuildResource, made: BuildResource): void {
  const context = { group: groupOfResource(existing), kind: kindOf(existing) };
  const patch = { ...made.root, entries: new Map(made.root.entries) };
  patch.entries.delete('apiVersion');
  patch.entries.delete('kind');
  const metadata = patch.entries.get('metadata');
  if (metadata?.kind === 'map') {
    const meta = new Map(metadata.entries);
    meta.delete('name');
    meta.delete('namespace');
    patch.entries.set('metadata', { ...metadata, entries: meta });
  }
  if (made.behavior === 'replace') {
    existing.root.entries.delete('data');
    existing.root.entries.delete('binaryData');
  }
  const merged = strategicMerge(existing.root, patch, context);
  // A replacing generator is the object's origin from then on; a merging one keeps the base's.
  if (merged?.kind === 'map')
    existing.root = made.behavior === 'replace' ? { ...merged, source: made.root.source } : merged;
  // kustomize keeps the base's hash suffix only while the merging generator also wants one.
  existing.needsHash = Boolean(existing.needsHash && made.needsHash);
  existing.kustomizations = [...existing.kustomizations];
}

/** The built-in transformers in kustomize's order, each reading its own field of `k`. */
/** `tracked`: false for a `transformers:` configuration, recorded as itself rather than as the fields it stands for. */
function runTransformers(
  k: KustomizationFile,
  resources: BuildResource[],
  context: BuildContext,
  tracked = true,
): BuildResource[] {
  const note = (group: Parameters<typeof builtinTransformers>[1]): void => {
    if (tracked) noteTransformers(current, builtinTransformers(k, group), context);
  };
  let current = applyPatches(k, 'patchesStrategicMerge', resources, context);
  note('patchesStrategicMerge');
  current = applyPatches(k, 'patches', current, context);
  note('patches');
  applyNameFields(k, current, context);
  note('names');
  applyLabels(k, current, context);
  note('labels');
  applyAnnotations(k, current, context);
  note('annotations');
  current = applyPatches(k, 'patchesJson6902', current, context);
  note('patchesJson6902');
  applyReplicaCounts(k, current, context);
  applyImages(current, readImageRules(k, context), context.config.images);
  runReplacements(k, current, context);
  note('rest');
  return current;
}

function applyPatches(
  k: KustomizationFile,
  fieldName: PatchField,
  resources: BuildResource[],
  context: BuildContext,
): BuildResource[] {
  const inputs = {
    files: context.files,
    filesRead: context.filesRead,
    problems: context.problems,
    rootOnly: context.rootOnly,
    schema: context.schema,
  };
  return applyPatchField(k, fieldName, listField(k, fieldName, context.problems), resources, inputs);
}

function sourceOf(node: TrackedNode | undefined, origin: FieldOrigin): FieldSource {
  return { location: node?.source.location, origin };
}

/** `namespace`, then `namePrefix` and `nameSuffix`. */
function applyNameFields(k: KustomizationFile, resources: BuildResource[], context: BuildContext): void {
  const namespace = stringField(k, 'namespace', context.problems);
  if (namespace)
    applyNamespace(resources, namespace, sourceOf(field(k, 'namespace'), { type: 'namespace', kustomization: k.path }));
  const prefix = stringField(k, 'namePrefix', context.problems) ?? '';
  const suffix = stringField(k, 'nameSuffix', context.problems) ?? '';
  applyNameAffix(
    resources,
    { prefix, suffix },
    { prefix: context.config.namePrefix, suffix: context.config.nameSuffix },
    sourceOf(field(k, prefix ? 'namePrefix' : 'nameSuffix'), affixOrigin(k)),
  );
}

const affixOrigin = (k: KustomizationFile): FieldOrigin => ({ type: 'name-affix', kustomization: k.path });

/** kustomize's order: each `labels:` entry with its own field specs, then `commonLabels`. */
function applyLabels(k: KustomizationFile, resources: BuildResource[], context: BuildContext): void {
  const origin: FieldOrigin = { type: 'labels', kustomization: k.path };
  listField(k, 'labels', context.problems).forEach((entry, index) => {
    if (entry.kind !== 'map') return report(context, k, entry, `labels[${index}]`, 'expected a mapping with pairs');
    const specs = labelEntrySpecs(entry, context);
    forEachPair(entry.entries.get('pairs'), k, `labels[${index}].pairs`, context.problems, (pair, node) =>
      writePairs(resources, pair, specs, sourceOf(node, origin)),
    );
  });
  forEachPair(field(k, 'commonLabels'), k, 'commonLabels', context.problems, (pair, node) =>
    writePairs(resources, pair, context.config.commonLabels, sourceOf(node, origin)),
  );
}

/** Where one `labels:` entry writes: its include flags and its own `fields`. */
function labelEntrySpecs(entry: TrackedMap, context: BuildContext): ReturnType<typeof labelSpecs> {
  const flag = (name: string): boolean =>
    entry.entries.get(name)?.kind === 'scalar' && (entry.entries.get(name) as { value: unknown }).value === true;
  const fields = entry.entries.get('fields');
  const fieldSpecs = fields ? (readConfig({ commonLabels: toPlain(fields) }).commonLabels ?? []) : [];
  return labelSpecs(context.config, {
    includeSelectors: flag('includeSelectors'),
    includeTemplates: flag('includeTemplates'),
    includeVolumeClaimTemplates: flag('includeVolumeClaimTemplates'),
    fieldSpecs,
  });
}

function applyAnnotations(k: KustomizationFile, resources: BuildResource[], context: BuildContext): void {
  const origin: FieldOrigin = { type: 'annotations', kustomization: k.path };
  forEachPair(field(k, 'commonAnnotations'), k, 'commonAnnotations', context.problems, (pair, node) =>
    writePairs(resources, pair, context.config.commonAnnotations, sourceOf(node, origin)),
  );
}

/** `replicas:`; a rule naming no workload in this build is reported. */
function applyReplicaCounts(k: KustomizationFile, resources: BuildResource[], context: BuildContext): void {
  for (const rule of applyReplicas(resources, readReplicaRules(k, context))) {
    context.problems.push({
      file: k.path,
      line: rule.source.location?.line,
      field: 'replicas',
      message: `no Deployment, StatefulSet, ReplicaSet or ReplicationController named "${rule.name}" in this build`,
    });
  }
}

/**
 * `openapi: {path}` or `{version}`: the schema for custom resources' merge keys. kustomize reads it
 * before the kustomization's resources, and the first choice wins: the root's, then its bases' and
 * components' in build order.
 */
function readOpenApi(k: KustomizationFile, context: BuildContext): void {
  const node = field(k, 'openapi');
  if (!node || context.schemaChosen) return;
  const pathNode = node.kind === 'map' ? node.entries.get('path') : undefined;
  const version = getString(node, ['version']);
  if (pathNode && version)
    return report(context, k, node, 'openapi', 'builtin version and custom schema provided, cannot use both');
  // `version:` picks kustomize's built-in Kubernetes schema, of which it has one: v1.21.2.
  if (version && version !== 'v1.21.2')
    return report(
      context,
      k,
      node,
      'openapi.version',
      `the built-in schema ${version} is not one of kustomize's (v1.21.2)`,
    );
  if (!pathNode) {
    if (version) context.schemaChosen = true;
    return;
  }
  const relative = pathNode.kind === 'scalar' ? String(pathNode.value) : '';
  const path = joinPath(k.dir, relative);
  const text = path === undefined ? undefined : context.files.get(path);
  if (path === undefined || text === undefined)
    return report(
      context,
      k,
      pathNode,
      'openapi.path',
      `schema file "${relative}" does not exist (remote schemas are not fetched)`,
    );
  context.filesRead.add(path);
  const loaded = loadYamlFileCached(path, text, context.cache, context.meter);
  context.problems.push(...loaded.problems);
  const document = loaded.documents[0]?.root ? toPlain(loaded.documents[0].root) : undefined;
  const schema = document === undefined ? undefined : readCustomSchema(document, context.customKindMet === true);
  if (!schema) return report(context, k, pathNode, 'openapi.path', 'expected an OpenAPI document with definitions');
  context.schema = schema;
  context.schemaChosen = true;
}

/** The root kustomization's sortOptions decide the order of the objects. */
function readSortOptions(k: KustomizationFile, context: BuildContext): void {
  const node = field(k, 'sortOptions');
  if (node?.kind !== 'map') return;
  const order = getString(node, ['order']);
  if (order !== 'fifo' && order !== 'legacy')
    return report(context, k, node, 'sortOptions.order', 'must be one of [fifo, legacy]');
  if (order === 'fifo' && node.entries.has('legacySortOptions'))
    return report(
      context,
      k,
      node,
      'sortOptions.legacySortOptions',
      "is set but the selected sort order is 'fifo', not 'legacy'",
    );
  context.order = order;
  const legacy = node.entries.get('legacySortOptions');
  const kinds = (key: string): string[] | undefined => {
    const list = legacy?.kind === 'map' ? legacy.entries.get(key) : undefined;
    return list?.kind === 'list'
      ? list.items.flatMap((i) => (i.kind === 'scalar' ? [String(i.value)] : []))
      : undefined;
  };
  if (legacy) context.legacyKinds = { first: kinds('orderFirst') ?? [], last: kinds('orderLast') ?? [] };
}

/**
 * `configurations:` files add field specs to the built-in transformers, then `crds:` files of
 * OpenAPI definitions add theirs (kustomize merges both into the build's configuration).
 */
function readConfigurations(k: KustomizationFile, context: BuildContext): void {
  readConfigFiles(k, 'configurations', readConfig, context);
  readConfigFiles(k, 'crds', configFromCrdDefinitions, context);
}

function readConfigFiles(
  k: KustomizationFile,
  fieldName: 'configurations' | 'crds',
  read: (value: unknown) => Partial<TransformerConfig>,
  context: BuildContext,
): void {
  listField(k, fieldName, context.problems).forEach((entry, index) => {
    const where = `${fieldName}[${index}]`;
    const relative = entry.kind === 'scalar' ? String(entry.value) : '';
    const path = joinPath(k.dir, relative);
    const text = path === undefined ? undefined : context.files.get(path);
    if (path === undefined || text === undefined)
      return report(
        context,
        k,
        entry,
        where,
        `${fieldName === 'crds' ? 'CRD' : 'configuration'} file "${relative}" does not exist`,
      );
    context.filesRead.add(path);
    const loaded = loadYamlFileCached(path, text, context.cache, context.meter);
    context.problems.push(...loaded.problems);
    for (const doc of loaded.documents) {
      if (!doc.root) continue;
      try {
        mergeConfig(context.config, read(toPlain(doc.root)));
      } catch (error) {
        if (!(error instanceof ConflictingFieldSpecs)) throw error;
        report(context, k, entry, where, `${error.message}: kustomize refuses the build`);
      }
    }
  });
}

/** `generators:` / `transformers:` entries naming kustomize's built-in plugins, run in order. */
function runPlugins(
  k: KustomizationFile,
  fieldName: 'generators' | 'transformers',
  resources: BuildResource[],
  context: BuildContext,
): BuildResource[] {
  let current = resources;
  listField(k, fieldName, context.problems).forEach((entry, index) => {
    const where = `${fieldName}[${index}]`;
    if (entry.kind !== 'scalar' || typeof entry.value !== 'string')
      return report(context, k, entry, where, 'expected a file, a directory or inline YAML');
    let configs: TrackedMap[] = [];
    if (entry.value.includes('\n')) {
      const inline = inlineConfigs(k, entry.value);
      if (inline.problem) return report(context, k, entry, where, inline.problem);
      configs = inline.configs;
    } else {
      const path = resolveEntry(k, entry, fieldName, context);
      if (path === undefined) return;
      const nested = context.files.has(path) ? undefined : findKustomizationFile(context.files, path);
      if (nested) configs = buildKustomization(path, nested, context).map((r) => r.root);
      else {
        const text = context.files.get(path);
        if (text === undefined) return report(context, k, entry, where, `"${entry.value}" (${path}) does not exist`);
        context.filesRead.add(path);
        const loaded = loadYamlFileCached(path, text, context.cache, context.meter);
        context.problems.push(...loaded.problems);
        configs = loaded.documents.flatMap((d) => (d.root?.kind === 'map' ? [d.root] : []));
      }
    }
    const inlineIn = entry.value.includes('\n') ? k.path : undefined;
    for (const config of configs) {
      const run = pluginRun(k, config, fieldName === 'generators');
      if (run.type === 'refused') return notRendered(context, k.path, lineOf(entry), where, run.reason);
      if (run.type === 'error') return report(context, k, entry, where, run.reason);
      const configuration = pluginConfiguration(config, inlineIn);
      current = applyPlugin(k, run, current, context, fieldName === 'generators' ? configuration : undefined);
      if (fieldName === 'transformers')
        noteTransformers(current, [{ ...configuration, kind: getString(config, ['kind']) ?? '' }], context);
    }
  });
  return current;
}

/** One built-in plugin configuration run over the objects so far; what a generator makes records its configuration. */
function applyPlugin(
  k: KustomizationFile,
  run: Exclude<PluginRun, { type: 'refused' | 'error' }>,
  current: BuildResource[],
  context: BuildContext,
  generator: PluginConfiguration | undefined,
): BuildResource[] {
  if (run.type === 'pairs') runPairs(current, run, { type: run.field, kustomization: k.path });
  else if (run.type === 'affix')
    applyNameAffix(current, run, { prefix: run.specs, suffix: run.specs }, { origin: affixOrigin(k) });
  else if (!generator) return runTransformers(run.file, current, context, false);
  else {
    const before = new Set(current);
    const after = runGenerators(run.file, current, context);
    for (const made of after) if (!before.has(made)) made.configuredBy = generator;
    return after;
  }
  return current;
}

/** The generator configuration that made an object (its file, name and namespace), for its origin annotation. */
function pluginConfiguration(config: TrackedMap, inlineIn: string | undefined): PluginConfiguration {
  const name = getString(config, ['metadata', 'name']);
  const namespace = getString(config, ['metadata', 'namespace']);
  return {
    file: inlineIn ?? config.source.location?.file ?? '',
    ...(name ? { name } : {}),
    ...(namespace ? { namespace } : {}),
  };
}

/** `replacements:` entries, inline or `path:` files holding one replacement or a list of them. */
function runReplacements(k: KustomizationFile, resources: BuildResource[], context: BuildContext): void {
  listField(k, 'replacements', context.problems).forEach((entry, index) => {
    const where = `replacements[${index}]`;
    const pathNode = entry.kind === 'map' ? entry.entries.get('path') : undefined;
    let items: { value: unknown; node?: TrackedNode }[];
    if (pathNode) {
      const relative = pathNode.kind === 'scalar' ? String(pathNode.value) : '';
      const path = joinPath(k.dir, relative);
      const text = path === undefined ? undefined : context.files.get(path);
      if (path === undefined || text === undefined)
        return report(context, k, pathNode, where, `replacement file "${relative}" does not exist`);
      context.filesRead.add(path);
      const loaded = loadYamlFileCached(path, text, context.cache, context.meter);
      context.problems.push(...loaded.problems);
      items = loaded.documents
        .flatMap((d) => (!d.root ? [] : d.root.kind === 'list' ? d.root.items : [d.root]))
        .map((node) => ({ value: toPlain(node), node }));
    } else items = [{ value: toPlain(entry), node: entry }];
    for (const item of items) {
      const sourceValue = item.node?.kind === 'map' ? item.node.entries.get('sourceValue') : undefined;
      const replacement = readReplacement(item.value, index, sourceValue);
      if (typeof replacement === 'string') return report(context, k, entry, where, replacement);
      try {
        applyReplacements(resources, [replacement], k.path);
      } catch (error) {
        return report(context, k, entry, where, (error as Error).message);
      }
    }
  });
}

function forEachPair(
  node: TrackedNode | undefined,
  k: KustomizationFile,
  fieldName: string,
  problems: SourceProblem[],
  apply: (pair: Map<string, string>, node: TrackedNode) => void,
): void {
  const pairs = stringMap(node, k.path, fieldName, problems);
  if (node?.kind !== 'map') return;
  for (const [key, value] of pairs) apply(new Map([[key, value]]), node.entries.get(key)!);
}

/** A scalar as written: `newTag: 1.20` is the tag "1.20", not the number 1.2. */
function writtenText(k: KustomizationFile, node: TrackedNode | undefined, context: BuildContext): string | undefined {
  if (node?.kind !== 'scalar' || node.value === null) return undefined;
  if (typeof node.value === 'string') return node.value;
  const range = node.source.location?.range;
  const file = node.source.location?.file ?? k.path;
  const raw = range ? (context.files.get(file) ?? '').slice(range[0], range[1]) : '';
  return raw.replace(/^["']|["']$/g, '') || String(node.value);
}

function readImageRules(k: KustomizationFile, context: BuildContext): ImageRule[] {
  const rules: ImageRule[] = [];
  listField(k, 'images', context.problems).forEach((entry, index) => {
    if (entry.kind !== 'map' || !getString(entry, ['name']))
      return report(context, k, entry, `images[${index}]`, 'needs a name');
    const part = (['newTag', 'digest', 'newName'] as const).find((p) => entry.entries.has(p)) ?? 'newTag';
    rules.push({
      name: getString(entry, ['name'])!,
      newName: writtenText(k, entry.entries.get('newName'), context),
      newTag: writtenText(k, entry.entries.get('newTag'), context),
      digest: writtenText(k, entry.entries.get('digest'), context),
      source: {
        location: entry.entries.get(part)?.source.location ?? entry.source.location,
        origin: { type: 'images', kustomization: k.path, index, part },
      },
    });
  });
  return rules;
}

function readReplicaRules(k: KustomizationFile, context: BuildContext): ReplicaRule[] {
  const rules: ReplicaRule[] = [];
  listField(k, 'replicas', context.problems).forEach((entry, index) => {
    const count = entry.kind === 'map' ? entry.entries.get('count') : undefined;
    const name = getString(entry, ['name']);
    if (
      !name ||
      count?.kind !== 'scalar' ||
      typeof count.value !== 'number' ||
      !Number.isInteger(count.value) ||
      count.value < 0
    ) {
      return report(context, k, entry, `replicas[${index}]`, 'needs a name and a whole-number count');
    }
    rules.push({
      name,
      count: count.value,
      source: { location: count.source.location, origin: { type: 'replicas', kustomization: k.path, index } },
    });
  });
  return rules;
}
