// desired = render(Kustomization path) + transforms + stamps, in kustomize-controller's order
// (internal/controller/kustomization_controller.go `build` then `apply`): the kustomization with the
// Kustomization's fields written in (wrapper.ts), post-build substitution, commonMetadata, owner labels.
import { parse } from 'yaml';
import { fieldPath } from '../k8s/index.js';
import {
  isPlainObject,
  keyId,
  keyOf,
  type DesiredObject,
  type FieldSource,
  type KubeObject,
  type ResourceKey,
  type SourceLocation,
  fromPointer,
} from '../model/index.js';
import { sourceName, stampDesired } from '../sources/identity.js';
import type { FluxTransforms, ImageTransform } from '../sources/types.js';
import { renderThroughWrapper, type DeclarationShape } from './wrapped.js';
import type { DeclaredSource, RenderSourceInputs, SourceRender } from './types.js';
import { setMetadata } from '../sources/stamp-metadata.js';
import { normalizeForFlux } from './flux-normalize.js';
import { keepUnambiguousPlaces, substituteObject } from './flux-substitute.js';
import { variablesOf } from './flux-variables.js';
import { maskEncrypted, SOPS_REASONS } from './sops.js';
import { findKustomizationFile } from '../manifests/index.js';
import { generatedResources } from './wrapper.js';

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
  const path = source.path ?? '';
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
    FLUX_WRAPPER,
    inputs.defaultNamespace,
    { helm: { disabled: FLUX_HELM_DISABLED } },
  );
  const file = declared.desired?.source.file;
  const transform = (what: string): FieldSource => ({
    origin: {
      type: 'source-transform',
      source: `Kustomization ${sourceName(source.id)}`,
      transform: what,
      ...(file ? { file } : {}),
    },
  });
  const sopsReason = transforms.decryption ? undefined : SOPS_REASONS.fluxWithoutDecryption;
  rendered.notes.push(...maskEncrypted(rendered.objects, inputs.live, sourceName(source.id), sopsReason));
  if (transforms.postBuild && rendered.errors.length === 0) substitutePostBuild(declared, inputs, rendered, transform);
  if (rendered.errors.length > 0) return { ...rendered, objects: [] };
  for (const desired of rendered.objects) {
    normalizeForFlux(desired, transform('normalization'));
    applyMetadata(desired, transforms, transform, source.id);
  }
  return rendered;
}

/** Where the wrapper kustomization writes the Kustomization's fields, for tracing them back. */
const FLUX_WRAPPER: DeclarationShape = {
  patchesAt: ['spec', 'patches'],
  imagesAt: ['spec', 'images'],
  imageFormat: 'object',
  transformAt: {
    namespace: 'targetNamespace',
    'namespace@pointer': '/spec/targetNamespace',
    'name-affix': 'namePrefix/nameSuffix',
    'name-affix@pointer': '/spec/namePrefix',
  },
};

/**
 * kustomize-controller's post-build substitution on every rendered object. What fails its build (an
 * envsubst error, an unset variable in strict mode, an invalid variable name) or makes an object's
 * identity unknown is an error of the source: it is not rendered, the cluster's other sources are.
 */
function substitutePostBuild(
  declared: DeclaredSource,
  inputs: RenderSourceInputs,
  rendered: SourceRender,
  transform: (what: string) => FieldSource,
): void {
  const { source } = declared;
  const name = sourceName(source.id);
  const { variables, problem } = variablesOf(source.transforms as FluxTransforms, source.id.namespace, inputs.live);
  const file = declared.desired?.source.file ?? source.path ?? '.';
  const fail = (message: string): void => void rendered.errors.push({ file, field: 'spec.postBuild', message });
  if (problem && variables.active) return fail(`post build failed: ${problem}`);
  variables.inline = inlinePlaces(declared);
  const liveByKey = new Map(inputs.live.map((obj) => [keyId(keyOf(obj)), obj]));
  for (const desired of rendered.objects) {
    const liveOf = (key: ResourceKey): KubeObject | undefined => liveByKey.get(keyId(key));
    const { notes, failure } = substituteObject(desired, variables, transform('postBuild.substitute'), liveOf);
    if (failure) return fail(`post build failed for '${desired.key.kind}/${desired.key.name}': ${failure}`);
    for (const note of notes) {
      const uses = [...note.variables].map(([variable, from]) => `\${${variable}} from ${from.join(' or ')}`);
      rendered.notes.push({
        ...{ code: 'not-checkable', source: name, key: desired.key, pointer: note.pointer },
        message: `${fieldPath(note.pointer, { ...desired.key, object: desired.object })} uses ${uses.join(', ')}, whose value the snapshot does not hold`,
      });
    }
  }
  keepUnambiguousPlaces(rendered.objects);
}

/** Where the Kustomization's file writes each inline `postBuild.substitute` value. */
function inlinePlaces(declared: DeclaredSource): Map<string, SourceLocation> {
  const places = new Map<string, SourceLocation>();
  const prefix = '/spec/postBuild/substitute/';
  for (const [pointer, field] of Object.entries(declared.desired?.source.fields ?? {}))
    if (pointer.startsWith(prefix) && field.location && field.origin.type === 'resource')
      places.set(fromPointer(pointer).at(-1)!, field.location);
  return places;
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
