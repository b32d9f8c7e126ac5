// `patches[]` and `images[]` entries as Flux and Argo CD write them (kustomize's own shapes).
import { isPlainObject } from '../model/index.js';
import { optionalString } from './fields.js';
import type { ImageTransform, PatchTarget, PatchTransform } from './types.js';

const TARGET_FIELDS = ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'] as const;

export function readPatches(value: unknown): PatchTransform[] {
  if (!Array.isArray(value)) return [];
  const patches: PatchTransform[] = [];
  for (const item of value) {
    if (!isPlainObject(item) || typeof item.patch !== 'string') continue;
    const target = readTarget(item.target);
    patches.push(target ? { patch: item.patch, target } : { patch: item.patch });
  }
  return patches;
}

function readTarget(value: unknown): PatchTarget | undefined {
  if (!isPlainObject(value)) return undefined;
  const target: PatchTarget = {};
  for (const name of TARGET_FIELDS) {
    const text = optionalString(value[name]);
    if (text !== undefined) target[name] = text;
  }
  return target;
}

/** Flux `spec.images[]`: `{name, newName, newTag, digest}` objects. */
export function readImageObjects(value: unknown): ImageTransform[] {
  if (!Array.isArray(value)) return [];
  const images: ImageTransform[] = [];
  for (const item of value) {
    if (!isPlainObject(item) || typeof item.name !== 'string') continue;
    const image: ImageTransform = { name: item.name };
    const newName = optionalString(item.newName);
    const newTag = optionalString(item.newTag);
    const digest = optionalString(item.digest);
    if (newName !== undefined) image.newName = newName;
    if (newTag !== undefined) image.newTag = newTag;
    if (digest !== undefined) image.digest = digest;
    images.push(image);
  }
  return images;
}

/**
 * An Argo CD `kustomize.images` string, as `kustomize edit set image` reads it
 * (kustomize `cmd/config/.../setimage.go`): `name=newName:tag@digest`, `name:tag`, `name@digest`,
 * or `newName:tag` alone (then the name is the new name without tag/digest).
 */
export function parseImageOverride(text: string): ImageTransform {
  const equals = text.indexOf('=');
  const name = equals >= 0 ? text.slice(0, equals) : undefined;
  let rest = equals >= 0 ? text.slice(equals + 1) : text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const image: ImageTransform = { name: name ?? rest };
  if (name !== undefined && rest !== '' && rest !== name) image.newName = rest;
  if (tag !== undefined) image.newTag = tag;
  if (digest !== undefined) image.digest = digest;
  return image;
}
