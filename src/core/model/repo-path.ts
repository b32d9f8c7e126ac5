// Repository-relative paths ('/' separators, '' is the root), as kustomizations and cluster paths
// name them: joined and normalized, never leaving the repository.

/** Joins and normalizes; undefined when the result would leave the repository. `/…` starts at the root. */
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

/** `./clusters/prod/` → `clusters/prod`; a path that leaves the repository → ''. */
export function normalizeDir(dir: string): string {
  return joinPath('', dir) ?? '';
}

/** The directory of a path, '' for a file at the root. */
export function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
