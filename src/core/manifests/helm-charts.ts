// kustomize's `helmCharts` (HelmChartInflationGenerator, `kustomize build --enable-helm`): each entry
// renders a chart found at `<chartHome>/<name>` (`<chartHome>/<name>-<version>/<name>` when it names a
// repo and a version; chartHome is `helmGlobals.chartHome`, default `charts`, relative to the
// kustomization) or, when the repository holds no such directory, the chart `repo` serves. Values:
// the values file (`valuesFile`, default the chart's values.yaml) with `valuesInline` merged in as
// `valuesMerge` says, then `additionalValuesFiles`. The objects join the build as generated ones,
// before components and transformers, so the kustomization's patches and namespace apply on top.
// Only a controller that passes --enable-helm inflates them (Argo CD with it in kustomize.buildOptions;
// never Flux's kustomize-controller); elsewhere they are not rendered, with that controller's reason.
import { parse } from 'yaml';
import {
  chartFileNotRead,
  isPlainObject,
  type ChartLocation,
  type ChartRenderer,
  type ChartValuePlaces,
  type ChartValuesLayer,
  type FieldSource,
} from '../model/index.js';
import { chartDefaultValues } from './chart-defaults.js';
import type { BuildContext } from './build-context.js';
import { templateFile, templatesOf } from './helm-output.js';
import { kustomizeHelmValues } from './helm-values-merge.js';
import { field, lineOf, listField, type KustomizationFile } from './kustomization-file.js';
import { isDirectory, joinPath, outsideDir } from './paths.js';
import { loadYamlFile } from './read-yaml.js';
import { documentsToResources, type BuildResource } from './resource.js';
import { getString, toPlain, type TrackedNode } from './tracked.js';

/** Whether and how this build inflates helmCharts (kustomize's --enable-helm and --helm-* flags). */
export interface KustomizeHelm {
  /** Why helmCharts are not inflated here (the controller builds without --enable-helm); absent: they are. */
  disabled?: string;
  /** Runs Helm; absent (no Helm binary): the charts are not rendered, "helm not found". */
  charts?: ChartRenderer;
  /** `--helm-kube-version` and `--helm-api-versions`; an entry's own `kubeVersion`/`apiVersions` win. */
  kubeVersion?: string;
  apiVersions?: readonly string[];
}

/** Without a word from the controller: kustomize's own default, helm off. */
export const HELM_NOT_ENABLED =
  'kustomize inflates helmCharts only with --enable-helm, which the controller of this path does not pass';

type Outcome = { resources: BuildResource[] } | { problem: string } | { notRendered: string };

interface Entry {
  name: string;
  version?: string;
  repo?: string;
  releaseName?: string;
  namespace?: string;
  valuesFile?: string;
  additionalValuesFiles: string[];
  valuesInline: Record<string, unknown>;
  valuesMerge: 'override' | 'merge' | 'replace';
  includeCRDs: boolean;
  skipTests: boolean;
  kubeVersion?: string;
  apiVersions?: string[];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

function readEntry(node: TrackedNode): Entry | string {
  const plain = toPlain(node);
  if (!isPlainObject(plain)) return 'expected a mapping (name, repo, version, releaseName, …)';
  const name = text(plain.name);
  if (!name) return 'chart name cannot be empty';
  const merge = plain.valuesMerge ?? 'override';
  if (merge !== 'override' && merge !== 'merge' && merge !== 'replace')
    return 'valuesMerge must be one of [merge override replace]';
  if (plain.nameTemplate !== undefined) return 'nameTemplate is not supported: give a releaseName';
  const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
  const optional = (key: string): Record<string, string> => (text(plain[key]) ? { [key]: text(plain[key])! } : {});
  return {
    name,
    ...optional('version'),
    ...optional('repo'),
    ...optional('releaseName'),
    ...optional('namespace'),
    ...optional('valuesFile'),
    ...optional('kubeVersion'),
    ...(Array.isArray(plain.apiVersions) ? { apiVersions: list(plain.apiVersions) } : {}),
    additionalValuesFiles: list(plain.additionalValuesFiles),
    valuesInline: isPlainObject(plain.valuesInline) ? plain.valuesInline : {},
    valuesMerge: merge,
    includeCRDs: plain.includeCRDs === true,
    skipTests: plain.skipTests === true,
  };
}

/** `<chartHome>` and the chart's directory in the repository, as absChartHome() places them. */
function chartHomeOf(k: KustomizationFile, entry: Entry): { home: string; dir: string } | string {
  const globals = field(k, 'helmGlobals');
  const chartHome = (globals && getString(globals, ['chartHome'])) || 'charts';
  const base = joinPath(k.dir, chartHome);
  if (base === undefined || chartHome.startsWith('/')) return `chartHome ${chartHome} leaves the repository`;
  const home = entry.version && entry.repo ? `${base}/${entry.name}-${entry.version}` : base;
  return { home, dir: `${home}/${entry.name}` };
}

/** A file a values field names, relative to the kustomization, under kustomize's load restriction. */
function loadFile(
  k: KustomizationFile,
  relative: string,
  context: BuildContext,
  what: string,
): string | { problem: string } {
  const path = joinPath(k.dir, relative);
  const text = path === undefined ? undefined : context.files.get(path);
  if (path === undefined || text === undefined)
    return { problem: `${what} ${relative}: no such file in the repository` };
  if (context.rootOnly && outsideDir(k.dir, path))
    return { problem: `${what} ${relative}: security; file is not in or below the kustomization's directory` };
  context.filesRead.add(path);
  return text;
}

function parseValues(text: string, what: string): { values: Record<string, unknown> } | { problem: string } {
  try {
    const parsed: unknown = parse(text, { uniqueKeys: false, maxAliasCount: 100 });
    if (parsed === null || parsed === undefined) return { values: {} };
    return isPlainObject(parsed) ? { values: parsed } : { problem: `${what}: not a map of values` };
  } catch (error) {
    return { problem: `${what}: not YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}

/** The values files helm is given, in order: the (merged) values file, then additionalValuesFiles. */
function valueFiles(
  k: KustomizationFile,
  entry: Entry,
  chart: { dir: string; local: boolean },
  context: BuildContext,
): { files: string[] } | { problem: string } | { notRendered: string } {
  const inline = Object.keys(entry.valuesInline).length > 0;
  let first: string | undefined;
  const needsFile = !inline || entry.valuesMerge !== 'replace';
  if (needsFile && entry.valuesFile) {
    const loaded = loadFile(k, entry.valuesFile, context, 'valuesFile');
    if (typeof loaded !== 'string') return loaded;
    first = loaded;
  } else if (needsFile && chart.local) {
    first = context.files.get(`${chart.dir}/values.yaml`);
    if (first === undefined)
      return { problem: `${chart.dir}/values.yaml: no such file (the chart's default values file)` };
  } else if (needsFile && inline && entry.valuesMerge === 'merge') {
    return {
      notRendered: 'valuesMerge: merge reads the values.yaml of a chart pulled from its repo; give a valuesFile',
    };
  }
  const files: string[] = [];
  if (inline) {
    const base = first === undefined ? { values: {} } : parseValues(first, 'valuesFile');
    if ('problem' in base) return base;
    files.push(JSON.stringify(kustomizeHelmValues(base.values, entry.valuesInline, entry.valuesMerge)));
  } else if (first !== undefined) files.push(first);
  for (const extra of entry.additionalValuesFiles) {
    const loaded = loadFile(k, extra, context, 'additionalValuesFiles');
    if (typeof loaded !== 'string') return loaded;
    files.push(loaded);
  }
  return { files };
}

/** A values file of the entry, as a place codify may edit (none when it does not read). */
function fileLayer(path: string | undefined, context: BuildContext): ChartValuesLayer[] {
  const text = path === undefined ? undefined : context.files.get(path);
  const read = text === undefined ? undefined : parseValues(text, path!);
  if (!read || 'problem' in read) return [];
  return [{ label: path!, values: read.values, at: { type: 'file', file: path!, document: 0, path: [] } }];
}

/**
 * Where the entry's values are set, lowest precedence first: the chart's defaults, the values file and
 * `valuesInline` in `valuesMerge`'s order, then `additionalValuesFiles`; a value only the chart's defaults
 * set is added to `valuesInline`.
 */
function valuePlaces(
  k: KustomizationFile,
  entry: Entry,
  index: number,
  where: { dir: string; chart: ChartLocation; archive?: Record<string, unknown> },
  context: BuildContext,
): ChartValuePlaces {
  // A repository chart's defaults are read by the renderer from its archive (ChartOutput `defaults`).
  const chartDefaults = where.chart.type === 'files' ? chartDefaultValues(where.chart.files) : where.archive;
  const defaults = chartDefaults ? [{ label: "the chart's default values", values: chartDefaults }] : [];
  const valuesFile = entry.valuesFile ? joinPath(k.dir, entry.valuesFile) : undefined;
  const file = valuesFile === `${where.dir}/values.yaml` ? [] : fileLayer(valuesFile, context);
  const at = { type: 'file' as const, file: k.path, document: 0, path: ['helmCharts', { index }, 'valuesInline'] };
  const label = `helmCharts[${index}].valuesInline of ${k.path}`;
  const inline = [{ label, values: entry.valuesInline, at }];
  const merged =
    entry.valuesMerge === 'replace'
      ? inline
      : entry.valuesMerge === 'merge'
        ? [...inline, ...file]
        : [...file, ...inline];
  const additional = entry.additionalValuesFiles.flatMap((extra) => fileLayer(joinPath(k.dir, extra), context));
  return { layers: [...defaults, ...merged, ...additional], defaults: defaults.length, addTo: { label, at } };
}

function locate(entry: Entry, dir: string, context: BuildContext): ChartLocation | { problem: string } {
  if (context.files.has(`${dir}/Chart.yaml`)) {
    const prefix = `${dir}/`;
    const files = new Map<string, string>();
    for (const [path, body] of context.files) if (path.startsWith(prefix)) files.set(path.slice(prefix.length), body);
    for (const path of files.keys()) context.filesRead.add(prefix + path);
    return { type: 'files', files };
  }
  if (!entry.repo) {
    const why = isDirectory(context.files, dir) ? 'holds no Chart.yaml' : 'does not exist';
    return { problem: `no repo specified for pull, and ${dir} ${why}` };
  }
  const url = entry.repo.startsWith('oci://') ? entry.repo.replace(/\/+$/, '') : entry.repo;
  return { type: 'repository', url, name: entry.name, version: entry.version ?? '' };
}

/** Every node of a chart's object is the chart's: one origin, the helmCharts entry. */
function retag(node: TrackedNode, source: FieldSource): void {
  node.source = source;
  if (node.kind === 'map') for (const child of node.entries.values()) retag(child, source);
  else if (node.kind === 'list') for (const child of node.items) retag(child, source);
}

function readManifest(
  manifest: string,
  chartDir: string,
  k: KustomizationFile,
  source: FieldSource,
  context: BuildContext,
) {
  const resources: BuildResource[] = [];
  for (const [template, body] of templatesOf(manifest)) {
    const file = templateFile(chartDir, template);
    const loaded = loadYamlFile(file, body, source.origin, context.meter);
    context.problems.push(...loaded.problems);
    const read = documentsToResources(file, loaded.documents, [k.path], body);
    context.problems.push(...read.errors);
    for (const resource of read.resources) {
      // Hooks are not desired state: Argo CD runs them as hooks, and they are never compared.
      if (getString(resource.root, ['metadata', 'annotations', 'helm.sh/hook']) !== undefined) continue;
      retag(resource.root, source);
      resources.push(resource);
    }
  }
  return resources;
}

function inflate(k: KustomizationFile, node: TrackedNode, index: number, context: BuildContext): Outcome {
  const helm = context.helm;
  if (!helm || helm.disabled) return { notRendered: helm?.disabled ?? HELM_NOT_ENABLED };
  const entry = readEntry(node);
  if (typeof entry === 'string') return { problem: entry };
  const place = chartHomeOf(k, entry);
  if (typeof place === 'string') return { problem: place };
  const chart = locate(entry, place.dir, context);
  if ('problem' in chart) return chart;
  const values = valueFiles(k, entry, { dir: place.dir, local: chart.type === 'files' }, context);
  if (!('files' in values)) return values;
  if (!entry.releaseName)
    return { notRendered: 'no releaseName: helm generates a new name at every build; give the entry a releaseName' };
  if (!helm.charts) return { notRendered: 'helm not found' };
  const notRead = chartFileNotRead(chart, place.dir);
  if (notRead !== undefined) return { notRendered: notRead };
  const output = helm.charts({
    where: chart.type === 'files' ? place.dir : `${entry.repo} ${entry.name} ${entry.version ?? ''}`.trim(),
    chart,
    releaseName: entry.releaseName,
    namespace: entry.namespace ?? 'default',
    valueFiles: values.files,
    set: [],
    ...(entry.kubeVersion || helm.kubeVersion ? { kubeVersion: entry.kubeVersion ?? helm.kubeVersion } : {}),
    apiVersions: entry.apiVersions ?? [...(helm.apiVersions ?? [])],
    includeCrds: entry.includeCRDs,
    skipTests: entry.skipTests,
  });
  if (!output.ok) return { notRendered: output.reason };
  const source: FieldSource = {
    ...(node.source.location ? { location: node.source.location } : {}),
    origin: {
      type: 'source-transform',
      source: `helmCharts[${index}] ${entry.name} of ${k.path}`,
      transform: 'chart',
      file: k.path,
      values: valuePlaces(k, entry, index, { dir: place.dir, chart, archive: output.defaults }, context),
    },
  };
  return { resources: readManifest(output.manifest, place.dir, k, source, context) };
}

export interface InflatedCharts {
  resources: BuildResource[];
  problems: Array<{ line?: number; field: string; message: string }>;
  notRendered: Array<{ line?: number; field: string; reason: string }>;
}

/** The objects of every helmCharts entry, in order, with what kept an entry from rendering. */
export function inflateHelmCharts(k: KustomizationFile, context: BuildContext): InflatedCharts {
  const out: InflatedCharts = { resources: [], problems: [], notRendered: [] };
  listField(k, 'helmCharts', context.problems).forEach((node, index) => {
    const where = { line: lineOf(node), field: `helmCharts[${index}]` };
    const outcome = inflate(k, node, index, context);
    if ('resources' in outcome) out.resources.push(...outcome.resources);
    else if ('problem' in outcome) out.problems.push({ ...where, message: outcome.problem });
    else out.notRendered.push({ ...where, reason: outcome.notRendered });
  });
  return out;
}
