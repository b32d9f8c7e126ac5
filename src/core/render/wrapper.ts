// A source's transforms as kustomize sees them. Flux writes its Kustomization's fields into the
// kustomization it builds (kustomize-controller internal/generator: targetNamespace → namespace,
// namePrefix/nameSuffix, patches appended, images merged, components); Argo CD runs `kustomize edit` on
// a copy (util/kustomize/kustomize.go). Both are modelled as a wrapper kustomization, in a directory of
// its own that no repository has, around the source's path; the render is then the renderer's own, and
// every field the wrapper set is traced back to the controller object that declares it (remap.ts).
import { findKustomizationFile } from '../manifests/index.js';
import { normalizeDir } from '../model/index.js';
import type { ImageTransform, PatchTransform } from '../sources/types.js';

/** Where wrappers live: a directory name no Git tree path starts with in practice. */
export const WRAPPER_ROOT = '.driftback-sources';

export interface WrapperSpec {
  /** Resources relative to the source path: `.` (its kustomization), or the generated list. */
  resources: string[];
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  commonLabels?: Record<string, string>;
  commonAnnotations?: Record<string, string>;
  patches: PatchTransform[];
  images: ImageTransform[];
  replicas?: Array<{ name: string; count: number }>;
  /** Relative to the source path. */
  components: string[];
}

export interface Wrapper {
  dir: string;
  kustomization: string;
  /** Virtual patch file of each `patches[i]`. */
  patchFiles: string[];
  files: Map<string, string>;
}

/** The wrapper directory of one source (`.driftback-sources/flux/flux-system/apps`). */
export function wrapperDir(controller: string, namespace: string, name: string): string {
  return `${WRAPPER_ROOT}/${controller}/${namespace || '_'}/${name || '_'}`;
}

/** True for paths of wrappers (never shown, never read as the repository's). */
export function isWrapperPath(path: string): boolean {
  return path === WRAPPER_ROOT || path.startsWith(`${WRAPPER_ROOT}/`);
}

function upFrom(dir: string): string {
  return dir
    .split('/')
    .map(() => '..')
    .join('/');
}

/** A path relative to the source path, as the wrapper refers to it. */
function fromWrapper(dir: string, sourcePath: string, relative: string): string {
  const target = normalizeDir([sourcePath, relative].filter((part) => part && part !== '.').join('/'));
  return target ? `${upFrom(dir)}/${target}` : upFrom(dir);
}

/** The wrapper's files (its kustomization, as JSON, which is YAML; one file per patch). */
export function buildWrapper(dir: string, sourcePath: string, spec: WrapperSpec): Wrapper {
  const files = new Map<string, string>();
  const patchFiles = spec.patches.map((_, index) => `${dir}/patch-${index}.yaml`);
  spec.patches.forEach((patch, index) => files.set(patchFiles[index]!, patch.patch));
  const kustomization: Record<string, unknown> = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: spec.resources.map((resource) => fromWrapper(dir, sourcePath, resource)),
  };
  if (spec.namespace) kustomization.namespace = spec.namespace;
  if (spec.namePrefix) kustomization.namePrefix = spec.namePrefix;
  if (spec.nameSuffix) kustomization.nameSuffix = spec.nameSuffix;
  if (spec.commonLabels && Object.keys(spec.commonLabels).length > 0) kustomization.commonLabels = spec.commonLabels;
  if (spec.commonAnnotations && Object.keys(spec.commonAnnotations).length > 0) {
    kustomization.commonAnnotations = spec.commonAnnotations;
  }
  if (spec.patches.length > 0) {
    kustomization.patches = spec.patches.map((patch, index) => ({
      path: `patch-${index}.yaml`,
      ...(patch.target ? { target: patch.target } : {}),
    }));
  }
  if (spec.images.length > 0) kustomization.images = spec.images;
  if (spec.replicas && spec.replicas.length > 0) kustomization.replicas = spec.replicas;
  if (spec.components.length > 0) {
    kustomization.components = spec.components.map((component) => fromWrapper(dir, sourcePath, component));
  }
  const path = `${dir}/kustomization.yaml`;
  files.set(path, JSON.stringify(kustomization, null, 2) + '\n');
  return { dir, kustomization: path, patchFiles, files };
}

/** The files a repository file map holds plus the wrapper's, without copying the repository's. */
export function withWrapper(files: ReadonlyMap<string, string>, wrapper: Wrapper): ReadonlyMap<string, string> {
  return new OverlayFiles(files, wrapper.files);
}

/** A read-only map of the repository's files with a few more laid over them. */
class OverlayFiles implements ReadonlyMap<string, string> {
  constructor(
    private readonly base: ReadonlyMap<string, string>,
    private readonly extra: ReadonlyMap<string, string>,
  ) {}
  get size(): number {
    return this.base.size + [...this.extra.keys()].filter((k) => !this.base.has(k)).length;
  }
  get(key: string): string | undefined {
    return this.extra.get(key) ?? this.base.get(key);
  }
  has(key: string): boolean {
    return this.extra.has(key) || this.base.has(key);
  }
  *entries(): MapIterator<[string, string]> {
    yield* this.extra.entries();
    for (const entry of this.base.entries()) if (!this.extra.has(entry[0])) yield entry;
  }
  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }
  *values(): MapIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }
  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}

/**
 * What Flux builds at a path with no kustomization file (fluxcd/pkg kustomize/kustomize_generator.go
 * `scanManifests`): every `.yaml`/`.yml` file below it, except in a directory that holds a kustomization
 * file, which is one resource and not descended. Paths relative to `sourcePath`.
 */
export function generatedResources(files: ReadonlyMap<string, string>, sourcePath: string): string[] {
  const prefix = sourcePath ? `${sourcePath}/` : '';
  const withKustomization = new Set<string>();
  const candidates: string[] = [];
  for (const path of files.keys()) {
    if (!path.startsWith(prefix) || isWrapperPath(path) || isIgnoredBySource(path.slice(prefix.length))) continue;
    candidates.push(path.slice(prefix.length));
  }
  for (const relative of candidates) {
    const dir = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
    if (dir && findKustomizationFile(files, prefix + dir)) withKustomization.add(dir);
  }
  // Only the outermost kustomization directory of a branch is a resource.
  const outermost = [...withKustomization].filter(
    (dir) => ![...withKustomization].some((other) => other !== dir && dir.startsWith(`${other}/`)),
  );
  const resources = new Set<string>(outermost);
  for (const relative of candidates.sort()) {
    if (!/\.ya?ml$/i.test(relative)) continue;
    if (outermost.some((dir) => relative.startsWith(`${dir}/`))) continue;
    resources.add(relative);
  }
  return [...resources].sort();
}

/**
 * Paths Flux's source artifact leaves out by default (fluxcd/pkg sourceignore/sourceignore.go):
 * VCS and CI files, `.github/` among them, so `.github/driftback.yml` is never part of a Flux render.
 */
function isIgnoredBySource(relative: string): boolean {
  const parts = relative.split('/');
  const name = parts[parts.length - 1]!;
  if (parts.some((part) => ['.git', '.github', '.circleci'].includes(part))) return true;
  return (
    [
      '.gitignore',
      '.gitmodules',
      '.gitattributes',
      '.travis.yml',
      '.gitlab-ci.yml',
      'appveyor.yml',
      '.drone.yml',
      'cloudbuild.yaml',
      '.goreleaser.yml',
      '.sops.yaml',
      '.flux.yaml',
    ].includes(name) || /^codeship-.*\.yml$/.test(name)
  );
}
