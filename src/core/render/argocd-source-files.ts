// Parameter override files in an Application's path, as Argo CD's repo server merges them
// (reposerver/repository/repository.go mergeSourceParameters): `.argocd-source.yaml`, then
// `.argocd-source-<app>.yaml`, each a JSON merge patch (RFC 7386: maps merge, lists and scalars
// replace) on the Application's `spec.source`; `repoURL`, `path`, `chart` and `targetRevision` stay
// the Application's. `<app>` is the request's AppName, the Application's instance name
// (controller/state.go: `app.InstanceName(controllerNamespace)`): `<name>` in the control plane's
// namespace, `<namespace>_<name>` for an Application in any other namespace. Argo CD Image Updater's git write-back writes the second one (`kustomize.images`,
// `helm.parameters`), so the images it sets are part of what the Application renders, not drift.
import { parse } from 'yaml';
import { isPlainObject, type SourceProblem } from '../model/index.js';
import { readArgoApplication } from '../sources/argocd.js';
import { argoInstanceName } from '../sources/identity.js';
import type { DeclaredSource } from './types.js';

const KEPT = ['repoURL', 'path', 'chart', 'targetRevision'] as const;

function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const merged: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

function overrideFiles(path: string, name: string): string[] {
  const dir = path ? `${path}/` : '';
  return [`${dir}.argocd-source.yaml`, `${dir}.argocd-source-${name}.yaml`];
}

/**
 * The Application with its path's parameter files merged into `spec.source`, the files read, and a
 * problem for a file that is not a YAML map (Argo CD fails the manifest generation then).
 */
export function withSourceFiles(
  declared: DeclaredSource,
  files: ReadonlyMap<string, string>,
  controlPlaneNamespace: string,
): { declared: DeclaredSource; filesRead: string[]; problems: SourceProblem[] } {
  const application = declared.desired?.object;
  const spec = application?.spec;
  const none = { declared, filesRead: [], problems: [] };
  // One source only: a multi-source Application's entries are rendered apart.
  if (!application || !isPlainObject(spec) || !isPlainObject(spec.source) || declared.source.path === undefined)
    return none;
  const app = argoInstanceName(declared.source.id, controlPlaneNamespace);
  const found = overrideFiles(declared.source.path, app).filter((file) => files.has(file));
  if (found.length === 0) return none;
  let source: unknown = spec.source;
  const problems: SourceProblem[] = [];
  for (const file of found) {
    let patch: unknown;
    try {
      patch = parse(files.get(file)!, { maxAliasCount: 100 });
    } catch (error) {
      problems.push({ file, message: `Argo CD parameter file: ${(error as Error).message}` });
      continue;
    }
    if (patch === null || patch === undefined) continue;
    if (!isPlainObject(patch))
      problems.push({ file, message: 'Argo CD parameter file: expected a map of source fields' });
    else source = mergePatch(source, patch);
  }
  const original = spec.source;
  const kept = Object.fromEntries(KEPT.filter((key) => key in original).map((key) => [key, original[key]]));
  const patched = { ...application, spec: { ...spec, source: { ...(source as Record<string, unknown>), ...kept } } };
  const transforms = readArgoApplication(patched, false).transforms;
  return { declared: { ...declared, source: { ...declared.source, transforms } }, filesRead: found, problems };
}
