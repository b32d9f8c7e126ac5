// Which kustomize directories are used by more than one kustomization in the repository: such a
// base is not edited for one cluster, because the edit would change every other user as well.
import { posix } from 'node:path';
import { parse } from 'yaml';
import { isPlainObject } from '../model/index.js';
import { KUSTOMIZATION_FILES } from './kustomization-lists.js';

export function isKustomizationFile(path: string): boolean {
  return KUSTOMIZATION_FILES.includes(posix.basename(path));
}

/** The kustomization file in `dir`, when the repository has one. */
export function kustomizationIn(files: ReadonlyMap<string, string>, dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((name) => joinPath(dir, name)).find((path) => files.has(path));
}

export function joinPath(...parts: string[]): string {
  const joined = posix.normalize(posix.join(...parts.map((p) => (p === '' ? '.' : p))));
  return joined === '.' ? '' : joined.replace(/^\.\//, '');
}

/** The directory of a repository path, `''` for the root. */
export function dirOf(path: string): string {
  return joinPath(posix.dirname(path));
}

/** Directory or file → number of kustomizations that list it in `resources:` or `components:`. */
export function kustomizationUsers(files: ReadonlyMap<string, string>): Map<string, number> {
  const users = new Map<string, number>();
  for (const [path, text] of files) {
    if (!isKustomizationFile(path)) continue;
    let value: unknown;
    try {
      value = parse(text);
    } catch {
      continue;
    }
    if (!isPlainObject(value)) continue;
    const dir = dirOf(path);
    for (const field of ['resources', 'components', 'bases']) {
      const entries = value[field];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (typeof entry !== 'string' || /^[a-z]+:\/\//.test(entry)) continue;
        const target = joinPath(dir, entry);
        if (kustomizationIn(files, target) || files.has(target)) users.set(target, (users.get(target) ?? 0) + 1);
      }
    }
  }
  return users;
}
