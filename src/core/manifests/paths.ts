// Repository-relative paths ('/' separators, '' is the root): joining, escaping checks, and which
// files sit under a directory. Files arrive as a map, so "does this directory exist" means "does
// any file live under it".
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

export { basename, dirname, joinPath } from '../model/repo-path.js';
import { normalizeDir } from '../model/repo-path.js';

/** The kustomization file of `dir` (kustomization.yaml, .yml or Kustomization), if it has one. */
/** Every kustomization file of `dir` (kustomize refuses a directory with more than one). */
export function kustomizationFilesIn(files: ReadonlyMap<string, string>, dir: string): string[] {
  const base = normalizeDir(dir);
  return KUSTOMIZATION_FILE_NAMES.map((name) => (base ? `${base}/${name}` : name)).filter((path) => files.has(path));
}

export function findKustomizationFile(files: ReadonlyMap<string, string>, dir: string): string | undefined {
  const base = normalizeDir(dir);
  for (const name of KUSTOMIZATION_FILE_NAMES) {
    const candidate = base ? `${base}/${name}` : name;
    if (files.has(candidate)) return candidate;
  }
  return undefined;
}

export function isDirectory(files: ReadonlyMap<string, string>, dir: string): boolean {
  const prefix = dir ? `${dir}/` : '';
  for (const path of files.keys()) if (path.startsWith(prefix)) return true;
  return false;
}

const MANIFEST_EXTENSIONS = /\.(ya?ml|json)$/i;

/** Manifest files under `dir`, recursively, in path order. */
export function manifestFilesUnder(files: ReadonlyMap<string, string>, dir: string): string[] {
  const prefix = dir ? `${dir}/` : '';
  return [...files.keys()].filter((path) => path.startsWith(prefix) && MANIFEST_EXTENSIONS.test(path)).sort();
}

/** `to` as a path relative to directory `from` (`../base/x.yaml`). */
export function relativePath(from: string, to: string): string {
  const a = from ? from.split('/') : [];
  const b = to.split('/');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common += 1;
  return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
}

/** Whether `path` lies outside directory `dir` (kustomize's root-only load restriction refuses such files). */
export function outsideDir(dir: string, path: string): boolean {
  return dir !== '' && path !== dir && !path.startsWith(`${dir}/`);
}

/** Remote kustomize targets (git repositories, URLs) are not built from a file map. */
export function isRemoteTarget(entry: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ||
    /^git@/.test(entry) ||
    /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(entry) ||
    /[?&]ref=/.test(entry) ||
    /\.git(\/\/|$)/.test(entry)
  );
}
