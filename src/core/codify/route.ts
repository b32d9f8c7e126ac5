// Where one change is written, from the object's source map: the resource document, the patch
// that set the field, the kustomization's `images:` or `replicas:` entry — or, when that place is
// in a base other kustomizations also use, this cluster's overlay.
import type { ChartValuePlaces, DesiredObject, FieldOrigin, FieldSource } from '../model/index.js';
import { dirname } from '../model/index.js';

export type Route =
  /** Edit the value in place: navigate `segments` in one document of `file`. */
  | { type: 'document'; file: string; document: number; owner?: string }
  /** A JSON 6902 patch value: only its scalar can be rewritten, at the source-map range. */
  | { type: 'scalar'; file: string; range: [number, number]; owner?: string }
  /**
   * An `images` entry: a kustomization's (top-level `images`, document 0), or a source's own override
   * (`list` in `document`: a Flux Kustomization's `spec.images`, an Argo CD Application's
   * `spec.source.kustomize.images` strings).
   */
  | {
      type: 'images';
      kustomization: string;
      index: number;
      document?: number;
      list?: string[];
      format?: 'object' | 'argocd-string';
    }
  | { type: 'replicas'; kustomization: string; index: number; document?: number; list?: string[] }
  /** A field of a chart's output: written into the chart value that renders it (chart-values.ts). */
  | { type: 'chart-values'; source: string; places: ChartValuePlaces }
  | { type: 'unsupported'; reason: string };

/** Why a field of a SOPS-encrypted file is reported, not written: any edit breaks the file's MAC. */
const SOPS_EDIT_REFUSED = (file: string): string =>
  `${file} is SOPS-encrypted and its MAC covers every value, encrypted or not: any edit by driftback makes ` +
  `sops --decrypt (and the controller's decryption) fail with a MAC mismatch; change it with sops ${file}`;

/** The source of the field at `pointer`, or of its nearest ancestor that has one. */
export function nearestSource(desired: DesiredObject, pointer: string): FieldSource | undefined {
  let path = pointer;
  for (;;) {
    const source = desired.source.fields[path];
    if (source) return source;
    if (path === '') return undefined;
    path = path.slice(0, path.lastIndexOf('/'));
  }
}

/** Where the change at `pointer` is written, from the nearest source of the field. */
export function routeChange(desired: DesiredObject, pointer: string): Route {
  const source = nearestSource(desired, pointer);
  const origin = source?.origin ?? { type: 'resource' as const };
  switch (origin.type) {
    case 'resource': {
      if (desired.source.sopsEncrypted) return { type: 'unsupported', reason: SOPS_EDIT_REFUSED(desired.source.file) };
      const owner = desired.source.kustomizations[0];
      return { type: 'document', file: desired.source.file, document: desired.source.document, owner };
    }
    case 'patch':
      return patchRoute(origin, source, desired, pointer);
    case 'images':
      if (!/\/image$/.test(pointer)) break;
      return {
        type: 'images',
        kustomization: origin.kustomization,
        index: origin.index,
        ...(origin.list
          ? { document: origin.document ?? 0, list: origin.list, format: origin.format ?? 'object' }
          : {}),
      };
    case 'replicas':
      if (pointer !== '/spec/replicas') break;
      return {
        type: 'replicas',
        kustomization: origin.kustomization,
        index: origin.index,
        ...(origin.list ? { document: origin.document ?? 0, list: origin.list } : {}),
      };
    case 'replacement':
    case 'var':
      return copiedValueRoute(origin, desired, pointer);
    default:
      break;
  }
  if (origin.type === 'source-transform' && origin.variables) return variableRoute(origin, desired, pointer);
  if (origin.type === 'source-transform' && origin.transform === 'chart' && origin.values)
    return { type: 'chart-values', source: origin.source, places: origin.values };
  return transformerRoute(origin);
}

/** A field set by a patch: its file's document, or only its scalar when the patch is JSON 6902 or inline. */
function patchRoute(
  origin: Extract<FieldOrigin, { type: 'patch' }>,
  source: FieldSource | undefined,
  desired: DesiredObject,
  pointer: string,
): Route {
  // Only a leaf this patch itself wrote has a scalar of its own to rewrite.
  const leaf = source?.origin === origin && pointerIsLeaf(desired, pointer) ? source.location : undefined;
  if (origin.patchType === 'json6902') {
    if (leaf) return { type: 'scalar', file: leaf.file, range: leaf.range, owner: origin.kustomization };
    return {
      type: 'unsupported',
      reason: `set by a JSON 6902 patch in ${origin.kustomization}: only its existing scalar values are rewritten`,
    };
  }
  // An inline patch is YAML inside a string of the kustomization (or of a Flux Kustomization's
  // spec.patches): its nodes are not the file's, but a leaf's bytes are, so a scalar is rewritten there.
  if (!origin.file && leaf) return { type: 'scalar', file: leaf.file, range: leaf.range, owner: origin.kustomization };
  if (!origin.file || !source?.location)
    return {
      type: 'unsupported',
      reason: `set by an inline patch in ${origin.kustomization}; change it there by hand`,
    };
  return { type: 'document', file: origin.file, document: source.location.document, owner: origin.kustomization };
}

/** A value copied by a replacement or var from a scalar written elsewhere: that scalar is what to edit. */
function copiedValueRoute(
  origin: Extract<FieldOrigin, { type: 'replacement' | 'var' }>,
  desired: DesiredObject,
  pointer: string,
): Route {
  const by = origin.type === 'var' ? `the var ${origin.name}` : 'a replacement';
  if (origin.from && pointerIsLeaf(desired, pointer))
    return { type: 'scalar', file: origin.from.file, range: origin.from.range, owner: origin.kustomization };
  return {
    type: 'unsupported',
    reason: `set by ${by} in ${origin.kustomization} from a value that is not one written scalar; change its source by hand`,
  };
}

/** A field a transformer produced (kustomize's or a source's own): reported, changed by hand at its origin. */
function transformerRoute(origin: FieldOrigin): Route {
  if (origin.type === 'source-transform') {
    const where = origin.file ? ` (${origin.file})` : '';
    const reason = `set by ${origin.transform} of ${origin.source}${where}; change it there by hand`;
    return { type: 'unsupported', reason };
  }
  const where = 'kustomization' in origin ? ` in ${origin.kustomization}` : '';
  return {
    type: 'unsupported',
    reason: `set by kustomize's ${origin.type} transformer${where}; change it there by hand`,
  };
}

/**
 * A field whose Git text reads post-build variables: the literal live value is never written over
 * `${VAR}` (other clusters read that file). One variable alone, set inline in this Kustomization and read
 * by no other field, is edited there; otherwise the change is reported with each variable and its source.
 */
function variableRoute(
  origin: Extract<FieldOrigin, { type: 'source-transform' }>,
  desired: DesiredObject,
  pointer: string,
): Route {
  const [only] = origin.variables!;
  if (origin.variables!.length === 1 && only!.at && pointerIsLeaf(desired, pointer))
    return { type: 'scalar', file: only!.at.file, range: only!.at.range };
  const where = origin.file ? ` (${origin.file})` : '';
  const sources = origin.variables!.map((v) => `\${${v.name}} from ${v.from}`).join(', ');
  const reason =
    `Git writes \`${origin.text}\`, substituted by ${origin.source}${where}: ${sources}; ` +
    'change the variable where it is set for this cluster, not the manifest';
  return { type: 'unsupported', reason };
}

function pointerIsLeaf(desired: DesiredObject, pointer: string): boolean {
  return Object.keys(desired.source.fields).every((other) => other === pointer || !other.startsWith(pointer + '/'));
}

/**
 * The kustomization whose directory receives an overlay patch instead of an in-place edit, when
 * the edit's owner (or a kustomization between it and the root) is a base used more than once.
 * undefined: edit in place. null: shared all the way up, no overlay of this cluster to patch.
 */
export function overlayFor(
  chain: readonly string[],
  owner: string | undefined,
  users: ReadonlyMap<string, number>,
  file?: string,
): string | undefined | null {
  if (!owner) return undefined;
  const start = chain.indexOf(owner);
  if (start < 0) return undefined;
  // A file listed by name in several kustomizations is shared like a base directory.
  let outermostShared = file && (users.get(file) ?? 0) > 1 ? start - 1 : -2;
  for (let i = start; i < chain.length; i++) if ((users.get(dirname(chain[i])) ?? 0) > 1) outermostShared = i;
  if (outermostShared < -1) return undefined;
  return chain[outermostShared + 1] ?? null;
}
