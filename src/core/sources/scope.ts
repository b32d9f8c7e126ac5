// Which sources apply this repository. A Flux Kustomization reads an artifact of a source object
// (`spec.sourceRef`); it is this repository's when that is the GitRepository of the Kustomization
// whose path is the cluster's path, `flux-system/flux-system` (what `flux bootstrap` writes), or a
// GitRepository whose URL names the repository. An Argo CD Application is this repository's when its
// repoURL names the repository, or is the repoURL of a root Application declared under the cluster path.
import { isPlainObject, type KubeObject } from '../model/index.js';
import type { Source } from './types.js';

/** `https://github.com/acme/app.git`, `ssh://git@github.com/acme/app`, `git@github.com:acme/app` → `acme/app`. */
export function repositoryOfUrl(url: string): string {
  return url
    .trim()
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')
    .replace(/^.*?[:/]([^/:]+\/[^/:]+)$/, '$1')
    .toLowerCase();
}

function refText(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

export interface RepositoryMatcher {
  isThisRepository(source: Source): boolean;
  /** An Argo CD repoURL (of a `spec.sources` entry, of a git generator) that names this repository. */
  isThisRepositoryUrl(repoURL: string): boolean;
}

export function repositoryMatcher(
  sources: readonly Source[],
  objects: readonly KubeObject[],
  clusterPath: string | undefined,
  repository: string | undefined,
): RepositoryMatcher {
  const fluxRefs = fluxSourcesOf(objects, repository);
  const argoRepos = new Set<string>(repository ? [repository.toLowerCase()] : []);
  const declared = sources.filter(
    (source) =>
      source.declaredIn !== undefined &&
      clusterPath !== undefined &&
      (clusterPath === '' || source.declaredIn.file.startsWith(`${clusterPath}/`)),
  );
  for (const source of declared) {
    if (source.origin.type === 'flux-source' && source.path === clusterPath) {
      fluxRefs.add(refText(source.origin.kind, source.origin.namespace, source.origin.name));
    }
    // An Application at the cluster path that no other one there renders is applied by hand from this
    // repository (the root of an app of apps, or a single app): it names this repository.
    if (source.origin.type === 'git' && !repository && !renderedByAnother(source, declared))
      argoRepos.add(repositoryOfUrl(source.origin.repoURL));
  }
  return {
    isThisRepositoryUrl: (repoURL) => argoRepos.has(repositoryOfUrl(repoURL)),
    isThisRepository(source) {
      switch (source.origin.type) {
        case 'this-repository':
          return true;
        case 'flux-source':
          return fluxRefs.has(refText(source.origin.kind, source.origin.namespace, source.origin.name));
        case 'git':
          return argoRepos.has(repositoryOfUrl(source.origin.repoURL));
      }
    },
  };
}

/** Flux's own GitRepository, and every GitRepository in live whose URL is this repository's. */
function fluxSourcesOf(objects: readonly KubeObject[], repository: string | undefined): Set<string> {
  const fluxRefs = new Set([refText('GitRepository', 'flux-system', 'flux-system')]);
  for (const obj of objects) {
    if (obj.kind !== 'GitRepository' || !repository) continue;
    if (!isPlainObject(obj.spec) || typeof obj.spec.url !== 'string') continue;
    if (repositoryOfUrl(obj.spec.url) === repository.toLowerCase()) {
      fluxRefs.add(refText('GitRepository', obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''));
    }
  }
  return fluxRefs;
}

/** Whether another Application declared at the cluster path renders the directory `source` is declared in. */
function renderedByAnother(source: Source, declared: readonly Source[]): boolean {
  const file = source.declaredIn!.file;
  return declared.some(
    (other) =>
      other !== source &&
      other.origin.type === 'git' &&
      other.path !== undefined &&
      (other.path === '' || file.startsWith(`${other.path}/`)),
  );
}
