// Where codify writes a hand-made resource's manifest: only where what applies the repository reads it.
// The reading rules, per controller, from their source and docs:
// - Flux: with no kustomization file at `spec.path`, kustomize-controller generates one listing every
//   `.yaml`/`.yml` below it, a subdirectory with its own kustomization file as one resource that is not
//   descended (fluxcd/pkg kustomize/kustomize_generator.go `generateKustomization`, `scan`).
// - Argo CD: a directory source reads only the top level of its path unless `directory.recurse`; then
//   `exclude` (which wins) and `include` globs (argo-cd reposerver/repository/repository.go; docs
//   user-guide/directory.md "Enabling Recursive Resource Detection", "Including/Excluding Files").
// - kubectl: `kubectl apply -f DIR` reads a directory's subdirectories only with `-R, --recursive=false`
//   (kubectl `apply --help`; k8s.io/kubectl pkg/cmd/util AddFilenameOptionFlags).
// - A directory with a kustomization file reads what it lists: the new file is added to its `resources:`.
import { describe, expect, it } from 'vitest';
import { placeNewFile, readsNewFile, type PathReader } from '../../../src/core/codify/new-file-place.js';
import type { ResourceKey } from '../../../src/core/model/index.js';

const KEY: ResourceKey = { group: '', kind: 'ConfigMap', namespace: 'tools', name: 'feature-flags' };
const TEMPLATE = '{cluster_path}/{namespace}/{kind}-{name}.yaml';

const files = (paths: string[]): Map<string, string> => new Map(paths.map((path) => [path, 'kind: x\n']));

const flux = (path = 'clusters/prod'): PathReader => ({
  name: 'Flux Kustomization flux-system/flux-system',
  path,
  reading: { type: 'flux' },
});
const argo = (directory: { recurse?: boolean; include?: string; exclude?: string } = {}): PathReader => ({
  name: 'Argo CD Application argocd/root',
  path: 'clusters/prod',
  reading: { type: 'argocd', recurse: false, ...directory },
});
const kubectl = (recursive: boolean): PathReader => ({
  name: "kubectl applying cluster prod's path",
  path: 'clusters/prod',
  reading: { type: 'kubectl', recursive },
});

describe('readsNewFile', () => {
  const inSubdirectory = 'clusters/prod/tools/configmap-feature-flags.yaml';
  const atTop = 'clusters/prod/configmap-feature-flags.yaml';
  it.each([
    ['Flux, no kustomization file: every manifest below the path', flux(), [], inSubdirectory, { reads: true }],
    [
      'Flux: a subdirectory with its own kustomization is one resource, not descended',
      flux(),
      ['clusters/prod/tools/kustomization.yaml'],
      inSubdirectory,
      {
        reads: false,
        reason:
          'Flux Kustomization flux-system/flux-system builds clusters/prod/tools by its own kustomization, which does not list configmap-feature-flags.yaml',
      },
    ],
    [
      'any reader: a kustomization file at the path lists it',
      flux(),
      ['clusters/prod/kustomization.yaml'],
      inSubdirectory,
      { reads: true, kustomization: 'clusters/prod/kustomization.yaml' },
    ],
    [
      'Argo CD without recurse: not a subdirectory',
      argo(),
      [],
      inSubdirectory,
      {
        reads: false,
        reason: 'Argo CD Application argocd/root reads only the top level of clusters/prod (directory.recurse is off)',
      },
    ],
    ['Argo CD without recurse: the top level', argo(), [], atTop, { reads: true }],
    ['Argo CD with recurse: a subdirectory', argo({ recurse: true }), [], inSubdirectory, { reads: true }],
    [
      'Argo CD: exclude wins',
      argo({ recurse: true, include: '*.yaml', exclude: '{config.json,tools/*}' }),
      [],
      inSubdirectory,
      {
        reads: false,
        reason: 'Argo CD Application argocd/root leaves out files matching directory.exclude `{config.json,tools/*}`',
      },
    ],
    [
      'Argo CD: include must match',
      argo({ include: 'deploy-*.yaml' }),
      [],
      atTop,
      {
        reads: false,
        reason: 'Argo CD Application argocd/root reads only files matching directory.include `deploy-*.yaml`',
      },
    ],
    [
      'kubectl without -R: not a subdirectory',
      kubectl(false),
      [],
      inSubdirectory,
      {
        reads: false,
        reason:
          "kubectl applying cluster prod's path reads the subdirectories of clusters/prod only with kubectl apply -R, and none of its manifests is in one",
      },
    ],
    ['kubectl without -R: the top level', kubectl(false), [], atTop, { reads: true }],
    ['kubectl with -R: a subdirectory', kubectl(true), [], inSubdirectory, { reads: true }],
  ])('%s', (_name, reader, present, file, expected) => {
    expect(readsNewFile(reader, files(present), file)).toEqual(expected);
  });
});

describe('placeNewFile', () => {
  const where = { root: 'clusters/prod', template: TEMPLATE, cluster: 'prod' };

  it('keeps newResourcePath when the source reads it (Flux generates a kustomization of everything below)', () => {
    expect(placeNewFile(KEY, where, [flux()], files([]))).toEqual({
      ok: true,
      file: 'clusters/prod/tools/configmap-feature-flags.yaml',
    });
  });

  it('takes the top level of the path, and says why, when nothing reads the subdirectory', () => {
    expect(placeNewFile(KEY, where, [argo()], files([]))).toEqual({
      ok: true,
      file: 'clusters/prod/configmap-feature-flags.yaml',
      note: 'written at the top level of clusters/prod, not at clusters/prod/tools/configmap-feature-flags.yaml: Argo CD Application argocd/root reads only the top level of clusters/prod (directory.recurse is off)',
    });
  });

  it('a deeper source that reads the place is asked first', () => {
    const apps: PathReader = {
      name: 'Flux Kustomization flux-system/tools',
      path: 'clusters/prod/tools',
      reading: { type: 'flux' },
    };
    expect(placeNewFile(KEY, where, [argo(), apps], files([]))).toEqual({
      ok: true,
      file: 'clusters/prod/tools/configmap-feature-flags.yaml',
    });
  });

  it('writes nothing, and says why, when no place is read', () => {
    expect(placeNewFile(KEY, where, [argo({ include: 'deploy-*.yaml' })], files([]))).toEqual({
      ok: false,
      reason:
        'no file is written: Argo CD Application argocd/root reads only the top level of clusters/prod (directory.recurse is off); Argo CD Application argocd/root reads only files matching directory.include `deploy-*.yaml`',
    });
    expect(
      placeNewFile(KEY, where, [{ ...flux('apps'), name: 'Flux Kustomization flux-system/apps' }], files([])),
    ).toEqual({
      ok: false,
      reason:
        'no file is written: no source of this cluster applies clusters/prod/tools/configmap-feature-flags.yaml; no source of this cluster applies clusters/prod/configmap-feature-flags.yaml',
    });
  });

  it("the home of the object's namespace is its source's top level, checked like any other place", () => {
    const home = { ...where, home: 'apps/web' };
    const web: PathReader = {
      name: 'Argo CD Application argocd/web',
      path: 'apps/web',
      reading: { type: 'argocd', recurse: false },
    };
    expect(placeNewFile(KEY, home, [web], files([]))).toEqual({
      ok: true,
      file: 'apps/web/configmap-feature-flags.yaml',
    });
    const excluded: PathReader = { ...web, reading: { type: 'argocd', recurse: false, exclude: 'configmap-*' } };
    expect(placeNewFile(KEY, home, [excluded], files([]))).toEqual({
      ok: false,
      reason:
        'no file is written: Argo CD Application argocd/web leaves out files matching directory.exclude `configmap-*`',
    });
  });
});
