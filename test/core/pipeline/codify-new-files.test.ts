// A ConfigMap a person made by hand, codified through the one drift pipeline on a cluster of each
// controller style: the new manifest goes where the cluster's source reads it, or nowhere. The reading
// rules and their upstream sources are in test/core/codify/new-file-place.test.ts.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import type { KubeObject, Snapshot } from '../../../src/core/model/index.js';
import { codifyEvaluated, evaluateDrift, type DriftInput } from '../../../src/core/pipeline/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { handMadeConfigMap } from '../codify/support.js';

const REPOSITORY = 'acme/platform-gitops';
const REPO_URL = 'https://github.com/acme/platform-gitops.git';
const NOW = '2026-12-02T04:00:00Z';

const DEPLOYMENT = (namespace: string): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  namespace: ${namespace}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n        - name: api\n          image: nginx:1.25\n`;

function application(name: string, path: string, namespace: string, directory = ''): string {
  return `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: ${name}\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: ${REPO_URL}\n    path: ${path}\n    targetRevision: main\n${directory}  destination:\n    server: https://kubernetes.default.svc\n    namespace: ${namespace}\n`;
}

function fluxKustomization(name: string, path: string): string {
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./${path}\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n`;
}

/** The cluster after its controller applied Git (the render, as applied), plus `extra` live objects. */
function codifyOn(files: Record<string, string>, clusterYaml: string, extra: KubeObject[]) {
  const parsed = parseConfig(`clusters:\n  - name: prod\n${clusterYaml}drift:\n  minSnapshots: 1\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const config = parsed.config;
  const cluster = config.clusters![0];
  const repository = new Map(Object.entries(files));
  const bare = { apiVersion: 'driftback.dev/v1', kind: 'Snapshot', repository: REPOSITORY, cluster: 'prod' };
  const live = (items: KubeObject[]) =>
    ({ ...bare, capturedAt: NOW, scope: { complete: true, errors: [] }, items }) as unknown as Snapshot;
  const roots = extra.filter((object) => object.kind === 'Application');
  const applied = renderCluster(repository, cluster, { live: live(roots) }).objects.map((desired) => ({
    ...structuredClone(desired.object),
    metadata: {
      ...structuredClone(desired.object.metadata),
      managedFields: [
        {
          manager: 'argocd-controller',
          operation: 'Apply',
          apiVersion: desired.object.apiVersion,
          time: '2026-12-01T09:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {},
        },
      ],
    },
  })) as KubeObject[];
  const input: DriftInput = {
    snapshot: live([...applied, ...extra]),
    config,
    cluster,
    files: repository,
    history: [],
    declined: new Set(),
  };
  const evaluated = evaluateDrift(input);
  if (evaluated.type !== 'evaluated') throw new Error(JSON.stringify(evaluated));
  return codifyEvaluated(input, evaluated);
}

const newFiles = (result: ReturnType<typeof codifyOn>) =>
  result.codified
    .filter((entry) => entry.kind === 'new-file')
    .map((entry) => ({ file: entry.file, ...(entry.note ? { note: entry.note } : {}) }));

describe('Argo CD: an app of apps whose root reads only the top level of the cluster path', () => {
  const files = {
    'clusters/prod/web.yaml': application('web', 'apps/web', 'web'),
    'apps/web/deployment.yaml': DEPLOYMENT('web'),
  };
  // The root Application, applied by hand: in the snapshot only, no directory settings.
  const root = parse(application('root', 'clusters/prod', 'argocd')) as KubeObject;
  const cluster = '    path: clusters/prod\n    namespaces: [web, tools]\n';

  it("a namespace a source renders: its source's top level", () => {
    const result = codifyOn(files, cluster, [root, handMadeConfigMap('web')]);
    expect(result.check).toEqual({ ok: true });
    expect(newFiles(result)).toEqual([{ file: 'apps/web/configmap-feature-flags.yaml' }]);
  });

  it('a namespace no source renders: not clusters/prod/tools/…, which the root never reads, but its top level, saying why', () => {
    const result = codifyOn(files, cluster, [root, handMadeConfigMap('tools')]);
    expect(result.check).toEqual({ ok: true });
    expect(newFiles(result)).toEqual([
      {
        file: 'clusters/prod/configmap-feature-flags.yaml',
        note: 'written at the top level of clusters/prod, not at clusters/prod/tools/configmap-feature-flags.yaml: Argo CD Application argocd/root reads only the top level of clusters/prod (directory.recurse is off)',
      },
    ]);
    expect(result.edits.has('clusters/prod/configmap-feature-flags.yaml')).toBe(true);
  });

  it('a root that reads no such file: nothing is written, and the report says why', () => {
    const strict = parse(
      application('root', 'clusters/prod', 'argocd', "    directory:\n      include: '*-app.yaml'\n"),
    ) as KubeObject;
    const result = codifyOn({ ...files, 'clusters/prod/web-app.yaml': files['clusters/prod/web.yaml'] }, cluster, [
      strict,
      handMadeConfigMap('tools'),
    ]);
    expect(newFiles(result)).toEqual([]);
    expect(result.edits.size).toBe(0);
    expect(result.reported).toContainEqual({
      key: expect.objectContaining({ kind: 'ConfigMap', namespace: 'tools' }),
      reason:
        'no file is written: Argo CD Application argocd/root reads only the top level of clusters/prod (directory.recurse is off); Argo CD Application argocd/root reads only files matching directory.include `*-app.yaml`',
    });
  });
});

describe('Flux: the cluster path without a kustomization file', () => {
  const files = {
    'clusters/prod/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/prod/flux-system/gotk-sync.yaml': fluxKustomization('flux-system', 'clusters/prod'),
    'clusters/prod/apps.yaml': fluxKustomization('apps', 'apps/web'),
    'apps/web/deployment.yaml': DEPLOYMENT('web'),
  };
  const cluster = '    path: clusters/prod\n    namespaces: [web, tools]\n';

  it('kustomize-controller generates a kustomization of everything below: newResourcePath is read', () => {
    const result = codifyOn(files, cluster, [handMadeConfigMap('tools')]);
    expect(result.check).toEqual({ ok: true });
    expect(newFiles(result)).toEqual([{ file: 'clusters/prod/tools/configmap-feature-flags.yaml' }]);
  });

  it('a subdirectory with its own kustomization is built by it alone: the top level instead, saying why', () => {
    const withTools = {
      ...files,
      'clusters/prod/tools/kustomization.yaml': 'resources:\n  - namespace.yaml\n',
      'clusters/prod/tools/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: tools\n',
    };
    const result = codifyOn(withTools, cluster, [handMadeConfigMap('tools')]);
    expect(result.check).toEqual({ ok: true });
    expect(newFiles(result)).toEqual([
      {
        file: 'clusters/prod/configmap-feature-flags.yaml',
        note: 'written at the top level of clusters/prod, not at clusters/prod/tools/configmap-feature-flags.yaml: Flux Kustomization flux-system/flux-system builds clusters/prod/tools by its own kustomization, which does not list configmap-feature-flags.yaml',
      },
    ]);
  });
});

describe('kubectl: the cluster path applied from CI', () => {
  const cluster = '    path: clusters/prod\n    controller: kubectl\n';

  it('no manifest in a subdirectory: `kubectl apply -f` may not recurse, so the top level, saying why', () => {
    const result = codifyOn({ 'clusters/prod/deployment.yaml': DEPLOYMENT('web') }, cluster, [
      handMadeConfigMap('web'),
    ]);
    expect(result.check).toEqual({ ok: true });
    expect(newFiles(result)).toEqual([
      {
        file: 'clusters/prod/configmap-feature-flags.yaml',
        note: "written at the top level of clusters/prod, not at clusters/prod/web/configmap-feature-flags.yaml: kubectl applying cluster prod's path reads the subdirectories of clusters/prod only with kubectl apply -R, and none of its manifests is in one",
      },
    ]);
  });

  it('manifests already applied from subdirectories: CI recurses, newResourcePath is kept', () => {
    const result = codifyOn({ 'clusters/prod/web/deployment.yaml': DEPLOYMENT('web') }, cluster, [
      handMadeConfigMap('web'),
    ]);
    expect(newFiles(result)).toEqual([{ file: 'clusters/prod/web/configmap-feature-flags.yaml' }]);
  });

  it('a kustomization at the path: newResourcePath, listed in its resources', () => {
    const files = {
      'clusters/prod/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
      'clusters/prod/deployment.yaml': DEPLOYMENT('web'),
    };
    const result = codifyOn(files, cluster, [handMadeConfigMap('web')]);
    expect(newFiles(result)).toEqual([{ file: 'clusters/prod/web/configmap-feature-flags.yaml' }]);
    expect(result.edits.get('clusters/prod/kustomization.yaml')).toBe(
      'resources:\n  - deployment.yaml\n  - web/configmap-feature-flags.yaml\n',
    );
  });
});
