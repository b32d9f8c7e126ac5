// Reading Flux Kustomizations and Argo CD Applications as sources, from the rendered repository and the
// snapshot. Field names and defaults follow fluxcd/kustomize-controller api/v1/kustomization_types.go and
// argoproj/argo-cd pkg/apis/application/v1alpha1/types.go (docs/upstream/controllers.md §2, §4).
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../../src/core/manifests/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import {
  fluxInventoryId,
  parseFluxInventoryId,
  parseImageOverride,
  readArgoSettings,
  readSources,
  sourceName,
  type ArgoTransforms,
  type FluxTransforms,
} from '../../../src/core/sources/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

describe('Flux inventory ids (fluxcd/cli-utils pkg/object/objmetadata.go ParseObjMetadata)', () => {
  it.each([
    ['_podinfo__Namespace', { group: '', kind: 'Namespace', namespace: '', name: 'podinfo' }],
    ['podinfo_podinfo__Service', { group: '', kind: 'Service', namespace: 'podinfo', name: 'podinfo' }],
    ['podinfo_podinfo_apps_Deployment', { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' }],
    [
      '_system__controller__x_rbac.authorization.k8s.io_ClusterRole',
      { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', namespace: '', name: 'system:controller:x' },
    ],
    [
      'flux-system_apps_kustomize.toolkit.fluxcd.io_Kustomization',
      { group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', namespace: 'flux-system', name: 'apps' },
    ],
  ])('%s', (id, key) => {
    expect(parseFluxInventoryId(id)).toEqual(key);
    expect(fluxInventoryId(key)).toBe(id);
  });

  it('refuses an id without four fields', () => {
    expect(parseFluxInventoryId('podinfo_Service')).toBeUndefined();
    expect(parseFluxInventoryId('nothing')).toBeUndefined();
  });
});

describe('Argo CD kustomize.images strings (kustomize edit set image)', () => {
  it.each([
    [
      'cartservice=us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice:v0.10.3',
      {
        name: 'cartservice',
        newName: 'us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice',
        newTag: 'v0.10.3',
      },
    ],
    ['nginx:1.27', { name: 'nginx', newTag: '1.27' }],
    ['registry:5000/app@sha256:abc', { name: 'registry:5000/app', digest: 'sha256:abc' }],
    ['app=other:1@sha256:abc', { name: 'app', newName: 'other', newTag: '1', digest: 'sha256:abc' }],
  ])('%s', (text, image) => {
    expect(parseImageOverride(text)).toEqual(image);
  });
});

describe('sources of flux-podinfo (test/fixtures/controllers/flux-podinfo/expected.md)', () => {
  const files = scenarioRepository('flux-podinfo');
  const desired = renderManifests(files, 'clusters/kind-dev', {}).objects;
  const live = scenarioSnapshot('flux-podinfo', 'unchanged').items;
  const sources = readSources({ desired, live });
  const root = sources.find((source) => source.id.name === 'flux-system')!;
  const apps = sources.find((source) => source.id.name === 'apps')!;

  it('finds the root and the apps Kustomization, declared in the repository', () => {
    expect(sources.map((source) => sourceName(source.id)).sort()).toEqual([
      'flux-system/apps',
      'flux-system/flux-system',
    ]);
    expect([root, apps].map((source) => [source.path, source.declaredIn?.file])).toEqual([
      ['clusters/kind-dev', 'clusters/kind-dev/flux-system/gotk-sync.yaml'],
      ['apps/kind-dev', 'clusters/kind-dev/apps.yaml'],
    ]);
    expect(apps.origin).toEqual({
      type: 'flux-source',
      kind: 'GitRepository',
      namespace: 'flux-system',
      name: 'flux-system',
    });
  });

  it('reads every transform of apps', () => {
    const transforms = apps.transforms as FluxTransforms;
    expect(transforms.targetNamespace).toBe('podinfo');
    expect(transforms.commonMetadata).toEqual({
      labels: { 'app.kubernetes.io/part-of': 'podinfo', team: 'web' },
      annotations: {},
    });
    expect(transforms.patches).toHaveLength(2);
    expect(transforms.patches[0]!.target).toEqual({ kind: 'Deployment', name: 'podinfo' });
    expect(transforms.patches[1]!.patch).toContain('memory: 256Mi');
    expect(transforms.images).toEqual([{ name: 'ghcr.io/stefanprodan/podinfo', newTag: '6.14.0' }]);
    expect(transforms.postBuild).toEqual({
      substitute: { cluster_env: 'dev' },
      substituteFrom: [
        { kind: 'ConfigMap', name: 'cluster-vars', optional: false },
        { kind: 'Secret', name: 'cluster-secret-vars', optional: false },
      ],
      always: false,
    });
    expect(transforms.prune).toBe(true);
    expect(transforms.suspend).toBe(false);
  });

  it('reads the live status: applied revision, inventory, health, not suspended', () => {
    const status = apps.status!;
    expect(status.appliedRevision).toBe('main@sha1:7c1f4e2a9b3d5c8e0f6a1b2c3d4e5f60718293a4');
    expect(status.suspended).toBe(false);
    expect(status.health.status).toBe('Healthy');
    expect(status.inventory!.map((entry) => entry.key)).toEqual([
      { group: '', kind: 'Namespace', namespace: '', name: 'podinfo' },
      { group: '', kind: 'Service', namespace: 'podinfo', name: 'podinfo' },
      { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' },
    ]);
    expect(root.status!.inventory).toHaveLength(36);
  });

  it('a repository-only source has no status; a live-only source has no declaration', () => {
    expect(readSources({ desired }).every((source) => source.status === undefined)).toBe(true);
    const liveOnly = readSources({ live });
    expect(liveOnly.every((source) => source.declaredIn === undefined && source.status)).toBe(true);
  });
});

describe('sources of argocd-ssa-annotation (app of apps, kustomize overrides, ignoreDifferences)', () => {
  const files = scenarioRepository('argocd-ssa-annotation');
  const desired = renderManifests(files, 'argocd', {}).objects;
  const live = scenarioSnapshot('argocd-ssa-annotation', 'unchanged').items;
  const sources = readSources({ desired, live });
  const byName = new Map(sources.map((source) => [source.id.name, source]));

  it('reads root, the two children and where each comes from', () => {
    expect([...byName.keys()].sort()).toEqual(['online-boutique', 'platform-redis', 'root']);
    expect(byName.get('root')!.path).toBe('argocd/apps');
    expect(byName.get('platform-redis')!.origin).toEqual({
      type: 'git',
      repoURL: 'https://github.com/acme/platform-manifests.git',
      targetRevision: 'v1.4.0',
    });
  });

  it('reads the kustomize overrides, destination, sync policy and ignoreDifferences', () => {
    const transforms = byName.get('online-boutique')!.transforms as ArgoTransforms;
    expect(transforms.destination).toEqual({ namespace: 'boutique', server: 'https://kubernetes.default.svc' });
    expect(transforms.kustomize!.commonLabels).toEqual({ 'app.kubernetes.io/part-of': 'online-boutique' });
    expect(transforms.kustomize!.images).toHaveLength(10);
    expect(transforms.kustomize!.images[1]).toEqual({
      name: 'cartservice',
      newName: 'us-central1-docker.pkg.dev/google-samples/microservices-demo/cartservice',
      newTag: 'v0.10.3',
    });
    expect(transforms.syncPolicy).toEqual({
      automated: true,
      prune: true,
      selfHeal: false,
      syncOptions: ['ServerSideApply=true', 'CreateNamespace=true', 'RespectIgnoreDifferences=true'],
    });
    expect(
      transforms.ignoreDifferences.map((rule) => [rule.name, rule.jsonPointers, rule.jqPathExpressions.length]),
    ).toEqual([
      ['frontend', ['/spec/replicas'], 0],
      [undefined, [], 1],
    ]);
  });

  it('reads the live status: revision, operation, inventory of 33 and of the root its two children', () => {
    const status = byName.get('online-boutique')!.status!;
    expect(status.appliedRevision).toBe('b865c4cad62238eff6da9361753cb6b648c39f6c');
    expect(status.operationPhase).toBe('Succeeded');
    expect(status.suspended).toBe(false);
    expect(status.inventory).toHaveLength(33);
    expect(
      byName
        .get('root')!
        .status!.inventory!.map((entry) => entry.key.name)
        .sort(),
    ).toEqual(['online-boutique', 'platform-redis']);
  });

  it('takes the tracking method from argocd-cm, or Argo CD 3.x defaults (util/settings/settings.go)', () => {
    expect(readArgoSettings(live)).toEqual({
      trackingMethod: 'annotation',
      instanceLabelKey: 'app.kubernetes.io/instance',
      controlPlaneNamespace: 'argocd',
      from: 'argocd-cm',
      // resource.compareoptions unset: Argo CD ignores the status (and preserveUnknownFields) of CRDs only.
      compareOptions: {
        ignoreAggregatedRoles: false,
        ignoreResourceStatusField: 'crd',
        ignoreDifferencesOnResourceUpdates: false,
      },
      ignoreDifferences: [
        {
          group: 'apiextensions.k8s.io',
          kind: 'CustomResourceDefinition',
          jsonPointers: ['/status', '/spec/preserveUnknownFields'],
          jqPathExpressions: [],
          managedFieldsManagers: [],
        },
      ],
    });
    expect(readArgoSettings(scenarioSnapshot('argocd-ssa-annotation', 'annotation-label').items).trackingMethod).toBe(
      'annotation+label',
    );
    expect(readArgoSettings(scenarioSnapshot('argocd-csa-label', 'unchanged').items).trackingMethod).toBe('label');
    expect(readArgoSettings([]).from).toBe('defaults');
  });
});

describe('suspension read from the live object', () => {
  const application = (automated: unknown): KubeObject => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'a', namespace: 'argocd' },
    spec: {
      source: { repoURL: 'r', path: 'p' },
      destination: {},
      ...(automated === undefined ? {} : { syncPolicy: { automated } }),
    },
  });

  it('Argo CD: automated absent or enabled: false is off (docs/user-guide/auto_sync.md)', () => {
    expect(readSources({ live: [application(undefined)] })[0]!.status!.suspended).toBe(true);
    expect(readSources({ live: [application({ enabled: false, prune: true })] })[0]!.status!.suspended).toBe(true);
    expect(readSources({ live: [application({ prune: true })] })[0]!.status!.suspended).toBe(false);
  });

  it('Flux: spec.suspend after `flux suspend` (emergency/flux-2-suspended)', () => {
    const sources = readSources({ live: scenarioSnapshot('emergency', 'flux-2-suspended').items });
    const apps = sources.find((source) => source.id.name === 'apps')!;
    expect(apps.status!.suspended).toBe(true);
    expect((apps.transforms as FluxTransforms).suspend).toBe(true);
    expect(apps.status!.health.status).toBe('Suspended');
  });
});

describe('a multi-source Application (pkg/apis/application/v1alpha1/types.go GetSources, IsRef)', () => {
  const app: KubeObject = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'guestbook', namespace: 'argocd' },
    spec: {
      source: { repoURL: 'https://github.com/acme/old.git', path: 'old' },
      sources: [
        { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'main', ref: 'values' },
        {
          repoURL: 'https://charts.example.com',
          chart: 'guestbook',
          targetRevision: '1.2.0',
          helm: { valueFiles: ['$values/guestbook/values.yaml'] },
        },
        { repoURL: 'https://github.com/acme/gitops.git', path: './guestbook/extra/', ref: 'extra' },
      ],
      destination: { namespace: 'guestbook' },
    },
  };

  it('reads spec.sources over spec.source, each entry with its ref, and the first that renders as the source', () => {
    const [source] = readSources({ live: [app] });
    const transforms = source!.transforms as ArgoTransforms;
    expect(source!.origin).toEqual({
      type: 'git',
      repoURL: 'https://charts.example.com',
      targetRevision: '1.2.0',
      chart: 'guestbook',
    });
    expect(source!.path).toBeUndefined();
    expect(transforms.helm).toEqual({ valueFiles: ['$values/guestbook/values.yaml'] });
    expect(transforms.sourceIndex).toBe(1);
    expect(transforms.sources!.map((entry) => [entry.index, entry.ref, entry.refOnly, entry.path])).toEqual([
      [0, 'values', true, ''],
      [1, undefined, false, undefined],
      // A ref with a path renders too.
      [2, 'extra', false, 'guestbook/extra'],
    ]);
  });

  it('reads spec.source when spec.sources is empty', () => {
    const single = { ...app, spec: { ...(app.spec as object), sources: [] } };
    const [source] = readSources({ live: [single] });
    expect(source!.path).toBe('old');
    expect((source!.transforms as ArgoTransforms).sources).toBeUndefined();
  });
});
