// Where a hand-made resource's new manifest goes (`pullRequests.newResourcePath`) and its text.
import { posix } from 'node:path';
import type { KubeObject, ResourceKey } from '../model/index.js';
import { renderCollection, DEFAULT_BLOCK_STYLE } from './block-render.js';
import { normalizeDir } from '../model/index.js';

/** Fills `{cluster_path}` `{cluster}` `{namespace}` `{kind}` (lower-case) `{name}`; empty parts collapse. */
export function newResourcePath(
  template: string,
  key: ResourceKey,
  clusterPath: string,
  cluster: string | undefined,
): string {
  const filled = template
    .replace(/\{cluster_path\}/g, clusterPath)
    .replace(/\{cluster\}/g, cluster ?? '')
    .replace(/\{namespace\}/g, key.namespace)
    .replace(/\{kind\}/g, key.kind.toLowerCase())
    .replace(/\{name\}/g, key.name);
  return normalizeDir(filled);
}

/**
 * Whether `path` (normalized, relative to the repository) lies inside the directory `root`. Files the
 * App creates (new manifests, overlay patches) must: a path built from names must never reach
 * another cluster's directory or `.github/`.
 */
export function isInside(path: string, root: string): boolean {
  if (
    path === '' ||
    path.startsWith('/') ||
    path.split('/').some((part) => part === '..' || part === '.' || part === '' || part === '.git')
  )
    return false;
  return root === '' || path.startsWith(`${root}/`);
}

/** The manifest text of a new resource, in the house block style (2 spaces, indented lists). */
export function manifestText(object: KubeObject): string {
  return renderCollection(object, 0, DEFAULT_BLOCK_STYLE).join('\n') + '\n';
}

/** `file` relative to `dir`, as a kustomization lists it. */
export function relativeTo(dir: string, file: string): string {
  return posix.relative(dir === '' ? '.' : dir, file === '' ? '.' : file);
}
