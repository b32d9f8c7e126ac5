// Labels and annotations a source sets on every object it applies after the build: Flux
// `commonMetadata` (kustomize-controller `apply`: ssautil.SetCommonMetadata, overriding same-named keys)
// and the stamps of DESIGN's vocabulary. Each set key carries the source as its origin.
import { escapeSegment, isPlainObject, type DesiredObject, type FieldSource } from '../model/index.js';

export type MetadataMap = 'labels' | 'annotations';

/** Sets `metadata.<map>[key]` on a desired object, with `source` as the origin of the key (and of a new map). */
export function setMetadataKey(
  desired: DesiredObject,
  map: MetadataMap,
  key: string,
  value: string,
  source: FieldSource,
): void {
  const object = desired.object;
  if (!isPlainObject(object.metadata)) object.metadata = {};
  const metadata = object.metadata;
  if (!isPlainObject(metadata[map])) {
    metadata[map] = {};
    desired.source.fields[`/metadata/${map}`] = source;
  }
  (metadata[map] as Record<string, string>)[key] = value;
  desired.source.fields[`/metadata/${map}/${escapeSegment(key)}`] = source;
}

/** Sets every key of `values` (in order) on the object. */
export function setMetadata(
  desired: DesiredObject,
  map: MetadataMap,
  values: Record<string, string>,
  source: FieldSource,
): void {
  for (const [key, value] of Object.entries(values)) setMetadataKey(desired, map, key, value, source);
}

/** The label or annotation `key` of an object (Flux's per-object switches are read from either). */
export function metadataValue(desired: DesiredObject, key: string): string | undefined {
  return desired.object.metadata?.labels?.[key] ?? desired.object.metadata?.annotations?.[key];
}
