// desired = render(Kustomization path) + transforms + stamps, in kustomize-controller's order
// (internal/controller/kustomization_controller.go `build` then `apply`): the kustomization with the
// Kustomization's fields written in (wrapper.ts), post-build substitution, commonMetadata, owner labels.
import { parse } from 'yaml';
import { isPlainObject, keyId, keyOf, type DesiredObject, type FieldSource, type KubeObject } from '../model/index.js';
import { sourceName, stampDesired } from '../sources/identity.js';
import type { FluxTransforms, ImageTransform } from '../sources/types.js';
import { renderThroughWrapper } from './wrapped.js';
import type { DeclaredSource, RenderSourceInputs, SourceNote, SourceRender } from './types.js';
import { setMetadata } from '../sources/stamp-metadata.js';
import { normalizeForFlux } from './flux-normalize.js';
import { substituteObject, type Variables } from './flux-substitute.js';
import { findKustomizationFile } from '../manifests/index.js';
import { generatedResources } from './wrapper.js';

function liveData(
  live: readonly KubeObject[],
  kind: string,
  namespace: string,
  name: string,
): Record<string, unknown> | undefined {
  const found = live.find(
    (obj) =>
      obj.kind === kind &&
      obj.apiVersion === 'v1' &&
      obj.metadata?.namespace === namespace &&
      obj.metadata?.name === name,
  );
  return found ? ((found.data ?? {}) as Record<string, unknown>) : undefined;
}

/** The variables of `postBuild`: substituteFrom in order (later wins), then the inline substitute. */
function variablesOf(
  transforms: FluxTransforms,
  namespace: string,
  inputs: RenderSourceInputs,
  notes: SourceNote[],
  name: string,
): Variables {
  const variables: Variables = { values: new Map(), unknown: new Map() };
  for (const ref of transforms.postBuild?.substituteFrom ?? []) {
    const data = liveData(inputs.live, ref.kind, namespace, ref.name);
    if (!data) {
      if (!ref.optional) {
        const message =
          `postBuild.substituteFrom ${ref.kind} ${namespace}/${ref.name} is not in the snapshot: ` +
          'its variables cannot be checked';
        notes.push({ code: 'not-checkable', source: name, message });
      }
      continue;
    }
    for (const [key, value] of Object.entries(data)) {
      if (ref.kind === 'Secret') {
        variables.unknown.set(key, `${namespace}/${ref.name}`);
        variables.values.delete(key);
      } else {
        variables.values.set(key, String(value).replace(/\r?\n/g, ''));
        variables.unknown.delete(key);
      }
    }
  }
  for (const [key, value] of Object.entries(transforms.postBuild?.substitute ?? {})) {
    variables.values.set(key, value.replace(/\r?\n/g, ''));
    variables.unknown.delete(key);
  }
  return variables;
}

/**
 * Flux merges its `images` into the kustomization's by name (a `newName` there stays unless Flux sets
 * one). The wrapper runs after that kustomization's images transformer, so an entry the kustomization
 * already renamed is matched by its new name.
 */
function mergedImages(
  files: ReadonlyMap<string, string>,
  path: string,
  images: readonly ImageTransform[],
): ImageTransform[] {
  const file = findKustomizationFile(files, path);
  if (!file || images.length === 0) return [...images];
  let own: unknown;
  try {
    own = parse(files.get(file)!);
  } catch {
    return [...images]; // the render reports the file's problems
  }
  const entries = isPlainObject(own) && Array.isArray(own.images) ? own.images : [];
  return images.map((image) => {
    const renamed = entries.find(
      (entry) => isPlainObject(entry) && entry.name === image.name && typeof entry.newName === 'string',
    );
    return renamed && !image.newName ? { ...image, name: String((renamed as Record<string, unknown>).newName) } : image;
  });
}

/** kustomize-controller builds without --enable-helm (its build fails on helmCharts): what Flux says, and what to do. */
const FLUX_HELM_DISABLED =
  "Flux's kustomize-controller builds without --enable-helm, so it does not apply this kustomization (must specify --enable-helm): declare the chart as a HelmRelease";

export function renderFluxSource(declared: DeclaredSource, inputs: RenderSourceInputs): SourceRender {
  const { source } = declared;
  const transforms = source.transforms as FluxTransforms;
  const name = sourceName(source.id);
  const path = source.path ?? '';
  const file = declared.desired?.source.file;
  const rendered = renderThroughWrapper(
    declared,
    inputs,
    {
      resources: findKustomizationFile(inputs.files, path) ? ['.'] : generatedResources(inputs.files, path),
      namespace: transforms.targetNamespace,
      namePrefix: transforms.namePrefix,
      nameSuffix: transforms.nameSuffix,
      patches: transforms.patches,
      images: mergedImages(inputs.files, path, transforms.images),
      components: transforms.components,
    },
    {
      patchesAt: ['spec', 'patches'],
      imagesAt: ['spec', 'images'],
      imageFormat: 'object',
      transformAt: {
        namespace: 'targetNamespace',
        'namespace@pointer': '/spec/targetNamespace',
        'name-affix': 'namePrefix/nameSuffix',
        'name-affix@pointer': '/spec/namePrefix',
      },
    },
    inputs.defaultNamespace,
    { disabled: FLUX_HELM_DISABLED },
  );
  const transform = (what: string): FieldSource => ({
    origin: { type: 'source-transform', source: `Kustomization ${name}`, transform: what, ...(file ? { file } : {}) },
  });
  const liveByKey = new Map(inputs.live.map((obj) => [keyId(keyOf(obj)), obj]));
  if (transforms.postBuild) {
    const variables = variablesOf(transforms, source.id.namespace, inputs, rendered.notes, name);
    for (const desired of rendered.objects) {
      const live = liveByKey.get(keyId(desired.key));
      for (const note of substituteObject(desired, variables, transform('postBuild.substitute'), live)) {
        rendered.notes.push({
          code: 'not-checkable',
          source: name,
          key: desired.key,
          pointer: note.pointer,
          message:
            `${note.pointer} uses ${note.variables.map((v) => '${' + v + '}').join(', ')} from a Secret, ` +
            'whose value the snapshot does not hold',
        });
      }
    }
  }
  for (const desired of rendered.objects) {
    normalizeForFlux(desired, transform('normalization'));
    applyMetadata(desired, transforms, transform, source.id);
  }
  return rendered;
}

function applyMetadata(
  desired: DesiredObject,
  transforms: FluxTransforms,
  transform: (what: string) => FieldSource,
  id: DeclaredSource['source']['id'],
): void {
  setMetadata(desired, 'labels', transforms.commonMetadata.labels, transform('commonMetadata'));
  setMetadata(desired, 'annotations', transforms.commonMetadata.annotations, transform('commonMetadata'));
  stampDesired(desired, id, transform('stamp'));
}
