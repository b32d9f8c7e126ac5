// Which kustomize directories are used by more than one kustomization in the repository: such a
// base is not edited for one cluster, because the edit would change every other user as well.
import { parse } from 'yaml';
import { basename, dirname, isPlainObject, joinPath } from '../model/index.js';
import { findKustomizationFile, KUSTOMIZATION_FILE_NAMES } from '../manifests/index.js';

export function isKustomizationFile(path: string): boolean {
  return (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(basename(path));
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
    const dir = dirname(path);
    for (const field of ['resources', 'components', 'bases']) {
      const entries = value[field];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (typeof entry !== 'string' || /^[a-z]+:\/\//.test(entry)) continue;
        // An entry that leaves the repository uses nothing in it.
        const target = joinPath(dir, entry);
        if (target === undefined) continue;
        if (findKustomizationFile(files, target) || files.has(target)) users.set(target, (users.get(target) ?? 0) + 1);
      }
    }
  }
  return users;
}
