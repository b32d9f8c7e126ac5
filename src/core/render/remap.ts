// After a wrapper render: every field the wrapper set is traced to the controller object that declares
// the transform — a Flux patch to the inline text of `spec.patches[i].patch` in the Kustomization's file,
// an image to `spec.images[i]` —, so codify writes where the value comes from, and nothing points into
// the wrapper, which no repository has.
import { inlineOffsetMap } from '../manifests/inline-text.js';
import type { TrackedNode } from '../manifests/tracked.js';
import {
  escapeSegment,
  lineStartsOf,
  locationAt,
  type DesiredObject,
  type FieldOrigin,
  type FieldSource,
  type SourceLocation,
} from '../model/index.js';
import type { Wrapper } from './wrapper.js';
import { isWrapperPath } from './wrapper.js';

/** The controller object a wrapper stands for, as the repository declares it (absent: only live). */
export interface Declaration {
  /** `Kustomization flux-system/apps`. */
  display: string;
  /** Its rendered object, with the source map of its file; undefined for a live-only source. */
  desired?: DesiredObject;
  /** The text of its file. */
  text?: string;
  /** Path of the patches list in the object: `['spec', 'patches']`, `['spec', 'source', 'kustomize', 'patches']`. */
  patchesAt: string[];
  imagesAt: string[];
  imageFormat: 'object' | 'argocd-string';
  /** Path of the replicas list (Argo CD `spec.source.kustomize.replicas`); Flux has none. */
  replicasAt?: string[];
  /** Pointers of the other transforms, by the wrapper field that carries them. */
  transformAt: Record<string, string>;
}

function pointerOf(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${escapeSegment(segment)}`).join('');
}

/** A location inside a virtual patch file, mapped into the block scalar that holds the patch text. */
function patchLocation(declaration: Declaration, index: number, location: SourceLocation): SourceLocation | undefined {
  const { desired, text } = declaration;
  if (!desired || text === undefined) return undefined;
  const scalar = desired.source.fields[pointerOf([...declaration.patchesAt, index, 'patch'])];
  const patch = desired.object as unknown as Record<string, unknown>;
  const value = declaration.patchesAt.reduce<unknown>(
    (node, key) => (node as Record<string, unknown> | undefined)?.[key],
    patch,
  );
  const patchText = Array.isArray(value) ? (value[index] as Record<string, unknown> | undefined)?.patch : undefined;
  if (!scalar?.location || typeof patchText !== 'string') return undefined;
  const node = { kind: 'scalar', value: patchText, source: scalar } as unknown as TrackedNode;
  const map = inlineOffsetMap(text, node);
  const start = map(location.range[0]);
  const last = map(Math.max(location.range[0], location.range[1] - 1));
  if (start === undefined || last === undefined) return undefined;
  const end = last + (location.range[1] > location.range[0] ? 1 : 0);
  return locationAt(lineStartsOf(text), desired.source.file, desired.source.document, start, end);
}

function declaredLocation(declaration: Declaration, pointer: string | undefined): SourceLocation | undefined {
  return pointer === undefined ? undefined : declaration.desired?.source.fields[pointer]?.location;
}

function remapSource(source: FieldSource, wrapper: Wrapper, declaration: Declaration): FieldSource {
  const { origin } = source;
  const file = declaration.desired?.source.file;
  if (!('kustomization' in origin) || origin.kustomization !== wrapper.kustomization) {
    return source.location && isWrapperPath(source.location.file) ? { origin } : source;
  }
  let mapped: FieldOrigin;
  let location: SourceLocation | undefined;
  switch (origin.type) {
    case 'patch': {
      const kustomization = file ?? declaration.display;
      mapped = { type: 'patch', kustomization, index: origin.index, patchType: origin.patchType };
      location = source.location ? patchLocation(declaration, origin.index, source.location) : undefined;
      break;
    }
    case 'images': {
      const entry = pointerOf([...declaration.imagesAt, origin.index]);
      if (!file) return { origin: { type: 'source-transform', source: declaration.display, transform: 'images' } };
      mapped = {
        type: 'images',
        kustomization: file,
        index: origin.index,
        part: origin.part,
        document: declaration.desired!.source.document,
        list: declaration.imagesAt,
        format: declaration.imageFormat,
      };
      location =
        declaredLocation(declaration, declaration.imageFormat === 'object' ? `${entry}/${origin.part}` : entry) ??
        declaredLocation(declaration, entry);
      break;
    }
    case 'replicas': {
      if (!file || !declaration.replicasAt) {
        return { origin: { type: 'source-transform', source: declaration.display, transform: 'replicas' } };
      }
      const document = declaration.desired!.source.document;
      mapped = { type: 'replicas', kustomization: file, index: origin.index, document, list: declaration.replicasAt };
      location = declaredLocation(declaration, `${pointerOf([...declaration.replicasAt, origin.index])}/count`);
      break;
    }
    default: {
      const transform = declaration.transformAt[origin.type] ?? origin.type;
      mapped = { type: 'source-transform', source: declaration.display, transform, ...(file ? { file } : {}) };
      location = declaredLocation(declaration, declaration.transformAt[`${origin.type}@pointer`]);
    }
  }
  return location ? { location, origin: mapped } : { origin: mapped };
}

/** The wrapper render's objects with every trace of the wrapper replaced by the declaration. */
export function remapWrapperRender(
  objects: DesiredObject[],
  wrapper: Wrapper,
  declaration: Declaration,
): DesiredObject[] {
  return objects.map((object) => {
    const fields: Record<string, FieldSource> = {};
    for (const [pointer, source] of Object.entries(object.source.fields)) {
      fields[pointer] = remapSource(source, wrapper, declaration);
    }
    return {
      ...object,
      source: {
        ...object.source,
        kustomizations: object.source.kustomizations.filter((path) => !isWrapperPath(path)),
        fields,
      },
    };
  });
}
