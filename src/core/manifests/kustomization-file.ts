// Reads a kustomization file and checks its fields: the supported subset is listed here, anything
// else is an error naming the file, line and field, never a silently different build.
import type { SourceProblem } from '../model/index.js';
import { loadYamlFileCached, type ParseCache } from './parse-cache.js';
import type { RenderBudget } from './render-budget.js';
import type { TrackedMap, TrackedNode } from './tracked.js';

export const SUPPORTED_FIELDS: ReadonlySet<string> = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'bases',
  'components',
  'namespace',
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'images',
  'replicas',
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'buildMetadata',
  'sortOptions',
  'replacements',
  'configurations',
  'crds',
  'generators',
  'transformers',
  'vars',
  'openapi',
]);

/** Fields kustomize has that this build does not do, with what to do instead. */
const UNSUPPORTED_HINTS: Readonly<Record<string, string>> = {
  validators: 'remove it',
  imageTags: 'rename it to images',
};

export interface KustomizationFile {
  path: string;
  dir: string;
  root: TrackedMap;
  isComponent: boolean;
}

/** Fields whose output driftback cannot produce (they run helm): the rest of the kustomization still renders. */
export const NOT_RENDERED_FIELDS: Readonly<Record<string, string>> = {
  helmCharts: 'kustomize inflates helmCharts only with --enable-helm',
  helmChartInflationGenerator:
    'helmChartInflationGenerator is the deprecated form of helmCharts, which driftback does not inflate: move its entries to helmCharts',
};

export type LoadedKustomization =
  | { ok: true; file: KustomizationFile; problems: SourceProblem[]; notRendered: SourceProblem[] }
  | { ok: false; problems: SourceProblem[] };

export function loadKustomization(
  path: string,
  dir: string,
  text: string,
  cache?: ParseCache,
  meter?: RenderBudget,
): LoadedKustomization {
  const loaded = loadYamlFileCached(path, text, cache, meter, true);
  if (loaded.problems.length > 0) return { ok: false, problems: loaded.problems };
  const docs = loaded.documents.filter((d) => d.root);
  if (docs.length !== 1 || docs[0].root?.kind !== 'map') {
    return {
      ok: false,
      problems: [{ file: path, line: 1, message: 'a kustomization file must hold exactly one YAML mapping' }],
    };
  }
  const root = caseFolded(docs[0].root);
  const problems: SourceProblem[] = [];
  const notRendered: SourceProblem[] = [];
  for (const [field, node] of root.entries) {
    if (SUPPORTED_FIELDS.has(field) || field === 'helmGlobals') continue;
    if (NOT_RENDERED_FIELDS[field]) {
      notRendered.push({ file: path, line: lineOfKey(text, node), field, message: NOT_RENDERED_FIELDS[field] });
      continue;
    }
    const hint = UNSUPPORTED_HINTS[field];
    problems.push({
      file: path,
      line: lineOfKey(text, node),
      field,
      message: hint
        ? `not supported by driftback's kustomize build: ${hint}`
        : 'unknown kustomization field (check its spelling)',
    });
  }
  const kind = root.entries.get('kind');
  const isComponent = kind?.kind === 'scalar' && kind.value === 'Component';
  return { ok: true, file: { path, dir, root, isComponent }, problems, notRendered };
}

const BY_LOWER_CASE = new Map([...SUPPORTED_FIELDS].map((name) => [name.toLowerCase(), name]));

/** kustomize reads its fields as Go's JSON decoder does, ignoring case: `nameprefix` is namePrefix. */
function caseFolded(root: TrackedMap): TrackedMap {
  if ([...root.entries.keys()].every((key) => SUPPORTED_FIELDS.has(key) || !BY_LOWER_CASE.has(key.toLowerCase())))
    return root;
  const entries = new Map<string, TrackedNode>();
  for (const [key, value] of root.entries) {
    const name = SUPPORTED_FIELDS.has(key) ? key : (BY_LOWER_CASE.get(key.toLowerCase()) ?? key);
    entries.set(name, value);
  }
  return { ...root, entries };
}

/** The line of a mapping key: the value node's line is the key's line unless the value starts on the next. */
function lineOfKey(text: string, value: TrackedNode): number | undefined {
  const location = value.source.location;
  if (!location) return undefined;
  if (value.kind === 'scalar') return location.line;
  // Block collections start on the line after their key: find the key line by scanning back.
  const before = text.slice(0, location.range[0]);
  const lastNewline = before.trimEnd().lastIndexOf('\n');
  const keyLine = before.slice(0, lastNewline + 1).split('\n').length;
  return before.trimEnd().endsWith(':') ? keyLine : location.line;
}

export function field(file: KustomizationFile, name: string): TrackedNode | undefined {
  return file.root.entries.get(name);
}

export function lineOf(node: TrackedNode | undefined): number | undefined {
  return node?.source.location?.line;
}

/** The items of a list field; a scalar or map where a list belongs is reported. */
export function listField(file: KustomizationFile, name: string, problems: SourceProblem[]): TrackedNode[] {
  const node = field(file, name);
  if (!node || (node.kind === 'scalar' && node.value === null)) return [];
  if (node.kind !== 'list') {
    problems.push({ file: file.path, line: lineOf(node), field: name, message: 'expected a list' });
    return [];
  }
  return node.items;
}

export function stringField(file: KustomizationFile, name: string, problems: SourceProblem[]): string | undefined {
  const node = field(file, name);
  if (!node || (node.kind === 'scalar' && node.value === null)) return undefined;
  if (node.kind !== 'scalar') {
    problems.push({ file: file.path, line: lineOf(node), field: name, message: 'expected a string' });
    return undefined;
  }
  return String(node.value);
}

/** A string → string map field (commonLabels, commonAnnotations, labels[].pairs). */
export function stringMap(
  node: TrackedNode | undefined,
  file: string,
  fieldName: string,
  problems: SourceProblem[],
): Map<string, string> {
  const out = new Map<string, string>();
  if (!node || (node.kind === 'scalar' && node.value === null)) return out;
  if (node.kind !== 'map') {
    problems.push({ file, line: lineOf(node), field: fieldName, message: 'expected a mapping of strings' });
    return out;
  }
  for (const [key, value] of node.entries) {
    if (value.kind !== 'scalar')
      problems.push({ file, line: lineOf(value), field: `${fieldName}.${key}`, message: 'expected a string value' });
    else out.set(key, value.value === null ? '' : String(value.value));
  }
  return out;
}
