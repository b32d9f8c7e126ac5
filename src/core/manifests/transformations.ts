// buildMetadata: [transformerAnnotations]: `alpha.config.kubernetes.io/transformations`, the list of
// built-in transformers kustomize ran over each object, in order (api/internal/target). Every
// transformer a kustomization configures is recorded on every object of that kustomization when it
// runs, whether it changed the object or not, as kustomize 5.7.1 records it.
import type { BuildContext } from './build-context.js';
import { field, type KustomizationFile } from './kustomization-file.js';
import { relativePath } from './paths.js';
import type { BuildResource, PluginConfiguration } from './resource.js';
import type { TrackedNode } from './tracked.js';

export const TRANSFORMATIONS_ANNOTATION = 'alpha.config.kubernetes.io/transformations';

/** Records on each object the transformers `configured` (configuration and kind, in order), when the build tracks them. */
export function noteTransformers(
  resources: readonly BuildResource[],
  configured: readonly (PluginConfiguration & { kind: string })[],
  context: BuildContext,
): void {
  if (configured.length === 0 || !context.root?.buildMetadata.includes('transformerAnnotations')) return;
  for (const resource of resources) (resource.transformations ??= []).push(...configured);
}

/** How many entries a kustomization field holds: list items, map pairs, or one for a non-empty string. */
function entries(node: TrackedNode | undefined): number {
  if (!node) return 0;
  if (node.kind === 'list') return node.items.length;
  if (node.kind === 'map') return node.entries.size;
  return node.value === null || node.value === '' ? 0 : 1;
}

/**
 * The built-in transformers kustomize configures for one kustomization field group, in its order:
 * one per patch, image and replica entry; one for all strategic merge patches, the namespace, the
 * prefix, the suffix, the common annotations and the replacements; one per `labels:` entry plus one
 * for commonLabels when there are labels at all.
 */
export function builtinTransformers(
  k: KustomizationFile,
  group: 'patchesStrategicMerge' | 'patches' | 'names' | 'labels' | 'annotations' | 'patchesJson6902' | 'rest',
): (PluginConfiguration & { kind: string })[] {
  const count = (name: string): number => entries(field(k, name));
  const one = (name: string): number => Math.min(1, count(name));
  const kinds: [string, number][] = {
    patchesStrategicMerge: [['PatchStrategicMergeTransformer', one('patchesStrategicMerge')]],
    patches: [['PatchTransformer', count('patches')]],
    names: [
      ['NamespaceTransformer', one('namespace')],
      ['PrefixTransformer', one('namePrefix')],
      ['SuffixTransformer', one('nameSuffix')],
    ],
    labels: [['LabelTransformer', count('labels') + one('commonLabels') > 0 ? count('labels') + 1 : 0]],
    annotations: [['AnnotationsTransformer', one('commonAnnotations')]],
    patchesJson6902: [['PatchJson6902Transformer', count('patchesJson6902')]],
    rest: [
      ['ReplicaCountTransformer', count('replicas')],
      ['ImageTagTransformer', count('images')],
      ['ReplacementTransformer', one('replacements')],
    ],
  }[group] as [string, number][];
  return kinds.flatMap(([kind, n]) => Array.from({ length: n }, () => ({ file: k.path, kind })));
}

/** The annotation's value: kustomize's YAML list of origins, paths relative to the root kustomization. */
export function transformationsValue(
  rootDir: string,
  transformations: readonly (PluginConfiguration & { kind: string })[],
): string {
  return transformations
    .map((t) =>
      [
        `- configuredIn: ${relativePath(rootDir, t.file)}`,
        '  configuredBy:',
        '    apiVersion: builtin',
        `    kind: ${t.kind}`,
        ...(t.name ? [`    name: ${t.name}`] : []),
        ...(t.namespace ? [`    namespace: ${t.namespace}`] : []),
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
