// Where a hand-made resource's new manifest is written: only where what applies the repository reads
// it. A directory with a kustomization file reads what it lists (the file is added there); without
// one, each controller reads a directory its own way — Flux generates a kustomization of every manifest
// below the path (fluxcd/pkg kustomize/kustomize_generator.go), an Argo CD directory source reads the top
// level unless `directory.recurse`, then its include/exclude globs (reposerver/repository/repository.go),
// and `kubectl apply -f DIR` reads subdirectories only with `-R`. The preferred place comes first; when
// nothing reads it, the top level of the path is taken and the pull request says why.
import type { ResourceKey } from '../model/index.js';
import { findKustomizationFile } from '../manifests/index.js';
import { directoryFiles } from '../render/argocd-render.js';
import { generatedResources } from '../render/wrapper.js';
import { compileArgoGlob } from '../patterns/index.js';
import { isInside, newResourcePath, relativeTo } from './new-resource.js';

/** How a reader reads a directory that holds no kustomization file. */
export type DirectoryReading =
  | { type: 'flux' }
  | { type: 'argocd'; recurse: boolean; include?: string; exclude?: string }
  /** `recursive`: CI applies with `-R`, or the render reads subdirectories (the CLI on files). */
  | { type: 'kubectl'; recursive: boolean };

/** Something that applies a directory of the repository to the cluster. */
export interface PathReader {
  /** As a sentence names it: `Argo CD Application argocd/guestbook`. */
  name: string;
  /** The directory it applies, repository-relative (`''` the root). */
  path: string;
  reading: DirectoryReading;
}

export type Reading = { reads: true; kustomization?: string } | { reads: false; reason: string };

/** Whether `reader` applies `file` once it is written (`files` without it), and the kustomization to list it in. */
export function readsNewFile(reader: PathReader, files: ReadonlyMap<string, string>, file: string): Reading {
  const { path, reading, name } = reader;
  const kustomization = findKustomizationFile(files, path);
  if (kustomization) return { reads: true, kustomization };
  const relative = relativeTo(path, file);
  const withFile = new Map(files).set(file, '');
  if (reading.type === 'flux') {
    if (generatedResources(withFile, path).includes(relative)) return { reads: true };
    // A directory below the path with a kustomization file is one resource of the generated kustomization.
    const own = ancestors(relative).find((dir) => findKustomizationFile(files, joined(path, dir)));
    const reason = own
      ? `${name} builds ${joined(path, own)} by its own kustomization, which does not list ${relativeTo(joined(path, own), file)}`
      : `the kustomization ${name} generates for ${path || '(repository root)'} does not include ${relative}`;
    return { reads: false, reason };
  }
  if (reading.type === 'argocd') return readsAsArgo(reader, reading, withFile, file, relative);
  if (reading.recursive || !relative.includes('/')) return { reads: true };
  return {
    reads: false,
    reason: `${name} reads the subdirectories of ${path || '(repository root)'} only with kubectl apply -R, and none of its manifests is in one`,
  };
}

function readsAsArgo(
  { name, path }: PathReader,
  reading: Extract<DirectoryReading, { type: 'argocd' }>,
  withFile: ReadonlyMap<string, string>,
  file: string,
  relative: string,
): Reading {
  const chosen = directoryFiles(withFile, path, reading);
  if ('problem' in chosen) return { reads: false, reason: `${name}: ${chosen.problem}` };
  if (chosen.files.includes(file)) return { reads: true };
  if (!reading.recurse && relative.includes('/'))
    return {
      reads: false,
      reason: `${name} reads only the top level of ${path || '(repository root)'} (directory.recurse is off)`,
    };
  const exclude = reading.exclude !== undefined ? compileArgoGlob(reading.exclude) : undefined;
  if (exclude?.ok && exclude.pattern.test(relative))
    return { reads: false, reason: `${name} leaves out files matching directory.exclude \`${reading.exclude}\`` };
  return { reads: false, reason: `${name} reads only files matching directory.include \`${reading.include ?? ''}\`` };
}

/** The directories of a relative path, outermost first (`a/b/c.yaml` → `a`, `a/b`). */
function ancestors(relative: string): string[] {
  const parts = relative.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

function joined(dir: string, relative: string): string {
  return dir ? `${dir}/${relative}` : relative;
}

export type Placement =
  { ok: true; file: string; kustomization?: string; note?: string } | { ok: false; reason: string };

/** The first candidate some reader applies; a reader at a deeper path (the one that renders it) is asked first. */
function firstRead(
  candidates: readonly string[],
  readers: readonly PathReader[],
  files: ReadonlyMap<string, string>,
): { file: string; kustomization?: string } | { reasons: string[] } {
  const reasons: string[] = [];
  const deepestFirst = [...readers].sort((a, b) => b.path.length - a.path.length);
  for (const file of candidates) {
    const covering = deepestFirst.filter((reader) => isInside(file, reader.path));
    if (covering.length === 0) reasons.push(`no source of this cluster applies ${file}`);
    for (const reader of covering) {
      const reading = readsNewFile(reader, files, file);
      if (reading.reads) return { file, ...(reading.kustomization ? { kustomization: reading.kustomization } : {}) };
      reasons.push(reading.reason);
    }
  }
  return { reasons: [...new Set(reasons)] };
}

/**
 * Where the manifest of `key` goes: into `home` (the directory a source renders its namespace from), else
 * where `template` (pullRequests.newResourcePath) says under `root` — or, when nothing reads that place,
 * at the top level of it, with a note saying why.
 */
export function placeNewFile(
  key: ResourceKey,
  where: { home?: string; root: string; template: string; cluster?: string },
  readers: readonly PathReader[],
  files: ReadonlyMap<string, string>,
): Placement {
  const { home, root, template, cluster } = where;
  const top = (dir: string): string => newResourcePath('{cluster_path}/{kind}-{name}.yaml', key, dir, cluster);
  const preferred = home !== undefined ? top(home) : newResourcePath(template, key, root, cluster);
  if (!isInside(preferred, home ?? root))
    return {
      ok: false,
      reason: `pullRequests.newResourcePath gives ${preferred}, outside the cluster path ${root || '(repository root)'}: keep {cluster_path} at its start`,
    };
  const candidates = [...new Set([preferred, ...(home !== undefined ? [] : [top(root)])])];
  const found = firstRead(candidates, readers, files);
  if ('reasons' in found) return { ok: false, reason: `no file is written: ${found.reasons.join('; ')}` };
  if (found.file === preferred) return { ok: true, ...found };
  const why = firstRead([preferred], readers, files) as { reasons: string[] };
  return {
    ok: true,
    ...found,
    note: `written at the top level of ${root || 'the repository'}, not at ${preferred}: ${why.reasons.join('; ')}`,
  };
}
