// kustomize's `generators:` and `transformers:` fields when they name its built-in plugins
// (`apiVersion: builtin`): ConfigMapGenerator, SecretGenerator, PatchTransformer,
// PatchStrategicMergeTransformer, PatchJson6902Transformer, NamespaceTransformer,
// PrefixSuffixTransformer (and Prefix-/SuffixTransformer), LabelTransformer, AnnotationsTransformer,
// ImageTagTransformer, ReplicaCountTransformer and ReplacementTransformer. Each configuration is run
// as the kustomization field it stands for; entries may be files, inline YAML or kustomization
// directories whose output is configurations. Other plugins run programs and are not rendered.
import type { FieldOrigin } from '../model/index.js';
import type { KustomizationFile } from './kustomization-file.js';
import { writePairs } from './metadata-transformers.js';
import { loadYamlFile } from './read-yaml.js';
import type { BuildResource } from './resource.js';
import { readConfig, type PathSpec } from './transformer-config.js';
import { getString, toPlain, type TrackedMap, type TrackedNode } from './tracked.js';

export const BUILTIN_GENERATORS: ReadonlySet<string> = new Set(['ConfigMapGenerator', 'SecretGenerator']);
export const BUILTIN_TRANSFORMERS: ReadonlySet<string> = new Set([
  'PatchTransformer',
  'PatchStrategicMergeTransformer',
  'PatchJson6902Transformer',
  'NamespaceTransformer',
  'PrefixSuffixTransformer',
  'PrefixTransformer',
  'SuffixTransformer',
  'LabelTransformer',
  'AnnotationsTransformer',
  'ImageTagTransformer',
  'ReplicaCountTransformer',
  'ReplacementTransformer',
]);

/** Documents of an inline entry (YAML text in the kustomization), with no locations in any file. */
export function inlineConfigs(k: KustomizationFile, text: string): { configs: TrackedMap[]; problem?: string } {
  const loaded = loadYamlFile(`${k.path}#inline`, text);
  if (loaded.problems.length > 0)
    return { configs: [], problem: `invalid inline configuration: ${loaded.problems[0].message}` };
  return { configs: loaded.documents.flatMap((d) => (d.root?.kind === 'map' ? [d.root] : [])) };
}

export type PluginRun =
  | { type: 'kustomization'; file: KustomizationFile }
  | { type: 'pairs'; field: 'labels' | 'annotations'; pairs: Map<string, string>; specs: PathSpec[] }
  /** A prefix and/or suffix written at the plugin's own field specs. */
  | { type: 'affix'; prefix: string; suffix: string; specs: PathSpec[] }
  /** A plugin that runs a program (or helm): not rendered. */
  | { type: 'refused'; reason: string }
  /** An `apiVersion: builtin` kind kustomize does not accept here: the build's error. */
  | { type: 'error'; reason: string };

/** What one plugin configuration does, as a kustomization of the field it stands for (or pairs to write). */
export function pluginRun(k: KustomizationFile, config: TrackedMap, generator: boolean): PluginRun {
  const kind = getString(config, ['kind']) ?? '';
  const refused = notBuiltin(kind, getString(config, ['apiVersion']) ?? '', generator);
  if (refused) return refused;
  const nodes = nodeBuilders(config);
  if (kind === 'LabelTransformer' || kind === 'AnnotationsTransformer') {
    const field = kind === 'LabelTransformer' ? 'labels' : 'annotations';
    return { type: 'pairs', field, pairs: pairsOf(nodes.get(field)), specs: specsOf(nodes.get('fieldSpecs')) };
  }
  if (AFFIXES.has(kind)) return affixRun(kind, config);
  const fields =
    kind === 'ConfigMapGenerator' || kind === 'SecretGenerator'
      ? generatorFields(kind, config, nodes)
      : Object.hasOwn(KUSTOMIZATION_FIELDS, kind)
        ? KUSTOMIZATION_FIELDS[kind]!(nodes, config)
        : undefined;
  if (!fields) return { type: 'refused', reason: `${kind} is not rendered` };
  return { type: 'kustomization', file: { ...k, root: nodes.map(fields) } };
}

/** Why a configuration is not one of kustomize's built-in plugins of this kind; undefined when it is. */
function notBuiltin(kind: string, apiVersion: string, generator: boolean): PluginRun | undefined {
  if (apiVersion === 'builtin' && kind === 'HelmChartInflationGenerator')
    return {
      type: 'refused',
      reason: 'a HelmChartInflationGenerator plugin configuration is not inflated: list the chart under helmCharts',
    };
  const known = generator ? BUILTIN_GENERATORS : BUILTIN_TRANSFORMERS;
  if (apiVersion === 'builtin' && !known.has(kind)) return { type: 'error', reason: `unable to load builtin ${kind}` };
  if (apiVersion === 'builtin') return undefined;
  return {
    type: 'refused',
    reason: `${apiVersion}/${kind} is not one of kustomize's built-in ${generator ? 'generators' : 'transformers'}; plugins run programs and are not rendered`,
  };
}

type Field = [string, TrackedNode | undefined];
type NodeBuilders = ReturnType<typeof nodeBuilders>;

/** Tracked nodes made from a plugin configuration's entries, located at the configuration. */
function nodeBuilders(config: TrackedMap) {
  const source = config.source;
  return {
    get: (key: string): TrackedNode | undefined => config.entries.get(key),
    map: (entries: Field[]): TrackedMap => ({
      kind: 'map',
      entries: new Map(entries.filter((e): e is [string, TrackedNode] => e[1] !== undefined)),
      source,
    }),
    list: (...items: (TrackedNode | undefined)[]): TrackedNode => ({
      kind: 'list',
      items: items.filter((i): i is TrackedNode => i !== undefined),
      source,
    }),
    scalar: (value: string | undefined): TrackedNode | undefined =>
      value === undefined ? undefined : { kind: 'scalar', value, source },
  };
}

/** A LabelTransformer's fieldSpecs, read as commonLabels' specs are. */
function specsOf(fieldSpecs: TrackedNode | undefined): PathSpec[] {
  return fieldSpecs ? (readConfig({ commonLabels: toPlain(fieldSpecs) }).commonLabels ?? []) : [];
}

/** The name → value pairs of a labels or annotations map. */
function pairsOf(node: TrackedNode | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (node?.kind === 'map')
    for (const [name, value] of node.entries)
      if (value.kind === 'scalar') out.set(name, value.value === null ? '' : String(value.value));
  return out;
}

/** A ConfigMapGenerator or SecretGenerator configuration as one entry of the kustomization field. */
function generatorFields(kind: string, config: TrackedMap, nodes: NodeBuilders): Field[] {
  const entry = new Map(config.entries);
  for (const key of ['apiVersion', 'kind', 'metadata']) entry.delete(key);
  // The generator's own `name` wins over the plugin configuration's metadata.name.
  const name = nodes.scalar(getString(config, ['metadata', 'name']));
  if (name && !entry.has('name')) entry.set('name', name);
  const namespace = nodes.scalar(getString(config, ['metadata', 'namespace']));
  if (namespace) entry.set('namespace', namespace);
  const field = kind === 'ConfigMapGenerator' ? 'configMapGenerator' : 'secretGenerator';
  return [[field, nodes.list({ kind: 'map', entries: entry, source: config.source })]];
}

/** Each built-in transformer as the kustomization fields it stands for. */
const KUSTOMIZATION_FIELDS: Record<string, (nodes: NodeBuilders, config: TrackedMap) => Field[]> = {
  PatchTransformer: ({ get, map, list }) => [
    [
      'patches',
      list(
        map([
          ['path', get('path')],
          ['patch', get('patch')],
          ['target', get('target')],
          ['options', get('options')],
        ]),
      ),
    ],
  ],
  PatchStrategicMergeTransformer: ({ get, list }) => {
    const paths = get('paths');
    const items = paths?.kind === 'list' ? [...paths.items] : [];
    const patches = get('patches');
    if (patches) items.push(patches);
    return [['patchesStrategicMerge', list(...items)]];
  },
  PatchJson6902Transformer: ({ get, map, list }) => [
    [
      'patchesJson6902',
      list(
        map([
          ['target', get('target')],
          ['path', get('path')],
          ['patch', get('jsonOp')],
        ]),
      ),
    ],
  ],
  NamespaceTransformer: ({ scalar }, config) => [['namespace', scalar(getString(config, ['metadata', 'namespace']))]],
  ImageTagTransformer: ({ get, list }) => [['images', list(get('imageTag'))]],
  ReplicaCountTransformer: ({ get, list }) => [['replicas', list(get('replica'))]],
  ReplacementTransformer: ({ get }) => [['replacements', get('replacements')]],
};

const AFFIXES: ReadonlySet<string> = new Set(['PrefixSuffixTransformer', 'PrefixTransformer', 'SuffixTransformer']);

/** kustomize's PrefixTransformer and SuffixTransformer (PrefixSuffixTransformer runs both), each at its fieldSpecs. */
function affixRun(kind: string, config: TrackedMap): PluginRun {
  const fieldSpecs = config.entries.get('fieldSpecs');
  if (!fieldSpecs || fieldSpecs.kind === 'scalar')
    return { type: 'error', reason: `${kind}: fieldSpecs is not expected to be nil` };
  return {
    type: 'affix',
    prefix: kind === 'SuffixTransformer' ? '' : (getString(config, ['prefix']) ?? ''),
    suffix: kind === 'PrefixTransformer' ? '' : (getString(config, ['suffix']) ?? ''),
    specs: specsOf(fieldSpecs),
  };
}

/** Writes a LabelTransformer's or AnnotationsTransformer's pairs at its own field specs only. */
export function runPairs(
  resources: BuildResource[],
  run: Extract<PluginRun, { type: 'pairs' }>,
  origin: FieldOrigin,
): void {
  writePairs(resources, run.pairs, run.specs, { origin });
}
