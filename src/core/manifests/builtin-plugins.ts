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
  /** A plugin that runs a program (or helm): not rendered. */
  | { type: 'refused'; reason: string }
  /** An `apiVersion: builtin` kind kustomize does not accept here: the build's error. */
  | { type: 'error'; reason: string };

/** What one plugin configuration does, as a kustomization of the field it stands for (or pairs to write). */
export function pluginRun(k: KustomizationFile, config: TrackedMap, generator: boolean): PluginRun {
  const kind = getString(config, ['kind']) ?? '';
  const apiVersion = getString(config, ['apiVersion']) ?? '';
  const known = generator ? BUILTIN_GENERATORS : BUILTIN_TRANSFORMERS;
  if (apiVersion === 'builtin' && kind === 'HelmChartInflationGenerator') {
    return {
      type: 'refused',
      reason: 'a HelmChartInflationGenerator plugin configuration is not inflated: list the chart under helmCharts',
    };
  }
  if (apiVersion === 'builtin' && !known.has(kind)) return { type: 'error', reason: `unable to load builtin ${kind}` };
  if (apiVersion !== 'builtin') {
    return {
      type: 'refused',
      reason: `${apiVersion}/${kind} is not one of kustomize's built-in ${generator ? 'generators' : 'transformers'}; plugins run programs and are not rendered`,
    };
  }
  const get = (key: string): TrackedNode | undefined => config.entries.get(key);
  const map = (entries: [string, TrackedNode | undefined][]): TrackedMap => ({
    kind: 'map',
    entries: new Map(entries.filter((e): e is [string, TrackedNode] => e[1] !== undefined)),
    source: config.source,
  });
  const list = (...items: (TrackedNode | undefined)[]): TrackedNode => ({
    kind: 'list',
    items: items.filter((i): i is TrackedNode => i !== undefined),
    source: config.source,
  });
  const scalar = (value: string | undefined): TrackedNode | undefined =>
    value === undefined ? undefined : { kind: 'scalar', value, source: config.source };
  const as = (fields: [string, TrackedNode | undefined][]): PluginRun => ({
    type: 'kustomization',
    file: { ...k, root: map(fields) },
  });
  const specs = (): PathSpec[] => {
    const fieldSpecs = get('fieldSpecs');
    return fieldSpecs ? (readConfig({ commonLabels: toPlain(fieldSpecs) }).commonLabels ?? []) : [];
  };
  const pairs = (key: string): Map<string, string> => {
    const node = get(key);
    const out = new Map<string, string>();
    if (node?.kind === 'map')
      for (const [name, value] of node.entries)
        if (value.kind === 'scalar') out.set(name, value.value === null ? '' : String(value.value));
    return out;
  };
  switch (kind) {
    case 'ConfigMapGenerator':
    case 'SecretGenerator': {
      const entry = new Map(config.entries);
      for (const key of ['apiVersion', 'kind', 'metadata']) entry.delete(key);
      // The generator's own `name` wins over the plugin configuration's metadata.name.
      const name = scalar(getString(config, ['metadata', 'name']));
      if (name && !entry.has('name')) entry.set('name', name);
      const namespace = scalar(getString(config, ['metadata', 'namespace']));
      if (namespace) entry.set('namespace', namespace);
      return as([
        [
          kind === 'ConfigMapGenerator' ? 'configMapGenerator' : 'secretGenerator',
          list({ kind: 'map', entries: entry, source: config.source }),
        ],
      ]);
    }
    case 'PatchTransformer':
      return as([
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
      ]);
    case 'PatchStrategicMergeTransformer': {
      const paths = get('paths');
      const items = paths?.kind === 'list' ? [...paths.items] : [];
      const patches = get('patches');
      if (patches) items.push(patches);
      return as([['patchesStrategicMerge', list(...items)]]);
    }
    case 'PatchJson6902Transformer':
      return as([
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
      ]);
    case 'NamespaceTransformer':
      return as([['namespace', scalar(getString(config, ['metadata', 'namespace']))]]);
    case 'PrefixSuffixTransformer':
    case 'PrefixTransformer':
    case 'SuffixTransformer':
      return as([
        ['namePrefix', get('prefix')],
        ['nameSuffix', get('suffix')],
      ]);
    case 'LabelTransformer':
      return { type: 'pairs', field: 'labels', pairs: pairs('labels'), specs: specs() };
    case 'AnnotationsTransformer':
      return { type: 'pairs', field: 'annotations', pairs: pairs('annotations'), specs: specs() };
    case 'ImageTagTransformer':
      return as([['images', list(get('imageTag'))]]);
    case 'ReplicaCountTransformer':
      return as([['replicas', list(get('replica'))]]);
    case 'ReplacementTransformer':
      return as([['replacements', get('replacements')]]);
    default:
      return { type: 'refused', reason: `${kind} is not rendered` };
  }
}

/** Writes a LabelTransformer's or AnnotationsTransformer's pairs at its own field specs only. */
export function runPairs(
  resources: BuildResource[],
  run: Extract<PluginRun, { type: 'pairs' }>,
  origin: FieldOrigin,
): void {
  writePairs(resources, run.pairs, run.specs, { origin });
}
