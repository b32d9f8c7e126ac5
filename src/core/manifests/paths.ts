// Repository-relative paths ('/' separators, '' is the root): joining, escaping checks, and which
// files sit under a directory. Files arrive as a map, so "does this directory exist" means "does
// any file live under it".
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** Joins and normalizes; undefined when the result would leave the repository. */
export function joinPath(dir: string, relative: string): string | undefined {
  const parts = relative.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

export function normalizeDir(dir: string): string {
  return joinPath('', dir) ?? '';
}

export function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The kustomization file of `dir` (kustomization.yaml, .yml or Kustomization), if it has one. */
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

/** Remote kustomize targets (git repositories, URLs) are not built from a file map. */
export function isRemoteTarget(entry: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^git@/.test(entry) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(entry) || /[?&]ref=/.test(entry) || /\.git(\/\/|$)/.test(entry);
}
