import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config/index.js';
import {
  indexSuspensions,
  objectsOfSuspended,
  resumeStep,
  revisionCommit,
  suspensionsOf,
} from '../../../src/core/emergency/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { evaluateDrift } from '../../../src/core/pipeline/index.js';
import { emergencyRepoFiles, emergencySnapshot, SCOPED_CONFIG } from '../../support/emergency-fixture.js';

const parsed = parseConfig(SCOPED_CONFIG);
if (!parsed.ok) throw new Error('config');
const config = parsed.config;

describe('suspensions from live objects', () => {
  it('finds none before anyone suspends anything', () => {
    expect(suspensionsOf(emergencySnapshot('flux-1-before').items, config)).toEqual([]);
    expect(suspensionsOf(emergencySnapshot('argo-1-before').items, config)).toEqual([]);
  });

  it('names who suspended a Flux Kustomization and since when (managedFields), and how to resume it', () => {
    const [suspension, ...others] = suspensionsOf(emergencySnapshot('flux-2-suspended').items, config);
    expect(others).toEqual([]);
    expect(suspension).toMatchObject({
      id: 'flux-system/apps',
      kind: 'flux-kustomization',
      method: 'suspend',
      who: 'flux',
      since: '2026-12-01T10:02:00Z',
      path: 'apps/podinfo',
    });
    expect(resumeStep(suspension!).command).toBe('flux resume kustomization apps -n flux-system');
  });

  it('sees Argo CD automated sync removed, with no recorded writer', () => {
    const [suspension] = suspensionsOf(emergencySnapshot('argo-2-autosync-off').items, config);
    expect(suspension).toMatchObject({
      id: 'argocd/guestbook',
      kind: 'argocd-application',
      method: 'automated-sync-off',
      path: 'web/guestbook',
    });
    expect(suspension!.who).toBeUndefined();
    expect(suspension!.since).toBeUndefined();
    expect(resumeStep(suspension!).command).toBe('argocd app set guestbook --sync-policy automated');
  });

  it('reads Argo CD enabled: false and the Flux reconcile annotation with their writers', () => {
    const app = emergencySnapshot('argo-1-before').items.find((o) => o.kind === 'Application')!;
    const off = structuredClone(app);
    (off.spec as { syncPolicy: { automated: Record<string, unknown> } }).syncPolicy.automated.enabled = false;
    off.metadata.managedFields = [
      {
        manager: 'argocd-server',
        operation: 'Update',
        time: '2026-12-01T11:02:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:syncPolicy': { 'f:automated': { 'f:enabled': {} } } } },
      },
    ];
    expect(suspensionsOf([off], config)[0]).toMatchObject({
      method: 'automated-sync-off',
      who: 'argocd-server',
      since: '2026-12-01T11:02:00Z',
    });
    const deployment = emergencySnapshot('flux-1-before').items.find(
      (o) => o.kind === 'Deployment' && o.metadata.namespace === 'podinfo',
    )!;
    const disabled = structuredClone(deployment);
    disabled.metadata.annotations = { 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled' };
    disabled.metadata.managedFields = [
      {
        manager: 'kubectl-annotate',
        operation: 'Update',
        time: '2026-12-01T10:03:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:kustomize.toolkit.fluxcd.io/reconcile': {} } } },
      },
    ];
    const [suspension] = suspensionsOf([disabled], config);
    expect(suspension).toMatchObject({
      id: 'Deployment/podinfo/podinfo',
      kind: 'object',
      method: 'reconcile-disabled',
      who: 'kubectl-annotate',
      since: '2026-12-01T10:03:00Z',
    });
    expect(resumeStep(suspension!).command).toBe(
      'kubectl -n podinfo annotate deployment podinfo kustomize.toolkit.fluxcd.io/reconcile-',
    );
  });

  it('reads a suspended HelmRelease and an Application told to skip reconciling', () => {
    const release = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: {
        name: 'podinfo',
        namespace: 'podinfo',
        managedFields: [
          {
            manager: 'flux',
            operation: 'Update',
            time: '2026-12-01T10:01:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:suspend': {} } },
          },
        ],
      },
      spec: { suspend: true, chart: { spec: { chart: 'podinfo' } } },
    };
    const [helm] = suspensionsOf([release], config);
    expect(helm).toMatchObject({
      id: 'podinfo/podinfo',
      kind: 'flux-helmrelease',
      who: 'flux',
      since: '2026-12-01T10:01:00Z',
    });
    expect(resumeStep(helm!).command).toBe('flux resume helmrelease podinfo -n podinfo');
    const app = structuredClone(emergencySnapshot('argo-1-before').items.find((o) => o.kind === 'Application')!);
    app.metadata.annotations = { 'argocd.argoproj.io/skip-reconcile': 'true' };
    app.metadata.managedFields = [
      {
        manager: 'kubectl-annotate',
        operation: 'Update',
        time: '2026-12-01T11:01:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:argocd.argoproj.io/skip-reconcile': {} } } },
      },
    ];
    const [skipped] = suspensionsOf([app], config);
    expect(skipped).toMatchObject({ id: 'argocd/guestbook', method: 'skip-reconcile', who: 'kubectl-annotate' });
    expect(resumeStep(skipped!).command).toBe(
      'kubectl -n argocd annotate application guestbook argocd.argoproj.io/skip-reconcile-',
    );
  });

  it('covers what the suspended source manages, not what another source manages', () => {
    const items = emergencySnapshot('flux-2-suspended').items;
    const index = indexSuspensions(suspensionsOf(items, config), items);
    expect(index.coveringKey({ group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' })?.id).toBe(
      'flux-system/apps',
    );
    expect(
      index.coveringKey({
        group: 'source.toolkit.fluxcd.io',
        kind: 'GitRepository',
        namespace: 'flux-system',
        name: 'flux-system',
      }),
    ).toBeUndefined();
  });
});

describe('drift under a suspension', () => {
  const files = emergencyRepoFiles();
  const kindDev = config.clusters!.find((c) => c.name === 'kind-dev')!;
  const kindArgo = config.clusters!.find((c) => c.name === 'kind-argo')!;
  const input = { config, files, history: [], declined: new Set<string>() };

  it('passes the persistence gate in one snapshot and is named an emergency change', () => {
    const evaluated = evaluateDrift({ ...input, cluster: kindDev, snapshot: emergencySnapshot('flux-2-suspended') });
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    expect(evaluated.pending).toBe(0);
    const emergency = evaluated.emergency.get('flux-system/apps');
    expect(emergency?.changes.map((c) => [c.field, c.value, c.manager, c.time])).toEqual([
      [
        'spec.template.spec.containers[podinfod].resources.limits.memory',
        '1Gi',
        'kubectl-edit',
        '2026-12-01T10:05:00Z',
      ],
    ]);
  });

  it('under Argo CD with automated sync off as well', () => {
    const evaluated = evaluateDrift({
      ...input,
      cluster: kindArgo,
      snapshot: emergencySnapshot('argo-2-autosync-off'),
    });
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    expect(evaluated.pending).toBe(0);
    expect(evaluated.emergency.get('argocd/guestbook')?.changes.map((c) => [c.field, c.value, c.manager])).toEqual([
      ['spec.replicas', 5, 'kubectl'],
    ]);
  });

  it('is no emergency when nothing is suspended: Flux takes the hand change back, so it is shown at once with the remedy', () => {
    const snapshot = emergencySnapshot('flux-2-suspended');
    const resume = (o: KubeObject): KubeObject => {
      const { suspend: _suspend, ...spec } = o.spec as Record<string, unknown>;
      return { ...o, spec };
    };
    const resumed = {
      ...snapshot,
      items: snapshot.items.map((o) => (o.kind === 'Kustomization' && o.metadata.name === 'apps' ? resume(o) : o)),
    };
    const evaluated = evaluateDrift({ ...input, cluster: kindDev, snapshot: resumed });
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    expect(evaluated.emergency.size).toBe(0);
    // Not held for drift.minSnapshots: kustomize-controller removes a kubectl edit at its next reconcile.
    expect(evaluated.pending).toBe(0);
    const changes = evaluated.drift.resources.flatMap((r) => r.changes);
    expect(changes).toHaveLength(1);
    expect(changes[0].next).toMatchObject({
      what: 'undo',
      suspend: expect.stringContaining('flux suspend kustomization apps'),
    });
  });
});

describe('applied revisions', () => {
  it('names the commit of a Flux and an Argo CD revision, and nothing else', () => {
    const sha = '9d9a3d545f04f5513e4260e9f24877672dfab10c';
    expect(revisionCommit(`main@sha1:${sha}`)).toBe(sha);
    expect(revisionCommit(sha)).toBe(sha);
    expect(revisionCommit('6.14.1')).toBeUndefined();
    expect(revisionCommit(undefined)).toBeUndefined();
  });
});

describe('the suspension itself', () => {
  const files = emergencyRepoFiles();
  const whole = parseConfig(
    'clusters:\n  - name: kind-dev\n    path: clusters/kind-dev\n  - name: kind-argo\n    path: argocd\n',
  );
  if (!whole.ok) throw new Error('config');
  const input = { config: whole.config, files, history: [], declined: new Set<string>() };

  it.each([
    ['kind-dev', 'flux-2-suspended', 'Kustomization', '/spec/suspend', 'flux resume kustomization apps -n flux-system'],
    [
      'kind-argo',
      'argo-2-autosync-off',
      'Application',
      '/spec/syncPolicy/automated',
      'argocd app set guestbook --sync-policy automated',
    ],
  ] as const)(
    '%s: the %s switch is set aside with the resume step, never drift',
    (clusterName, snapshot, kind, path, command) => {
      const cluster = whole.config.clusters!.find((c) => c.name === clusterName)!;
      const evaluated = evaluateDrift({ ...input, cluster, snapshot: emergencySnapshot(snapshot) });
      if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
      const source = evaluated.diff.resources.find((r) => r.key.kind === kind)!;
      expect(source.changes.filter((c) => c.path.startsWith(path))).toEqual([]);
      expect(source.ignored.find((c) => c.path.startsWith(path))?.ignored?.reason).toContain(command);
    },
  );
});

describe('a suspension of a source that applies another repository', () => {
  const TENANT = 'ssh://git@github.com/acme/tenant-gitops';
  /** This repository declares `tenant`, a Kustomization of acme/tenant-gitops; someone ran `flux suspend kustomization tenant`. */
  function withTenant(): { files: Map<string, string>; snapshot: ReturnType<typeof emergencySnapshot> } {
    const files = new Map(emergencyRepoFiles());
    const declared = files.get('clusters/kind-dev/apps.yaml')!;
    const tenant = declared
      .replace('name: apps', 'name: tenant')
      .replace('./apps/podinfo', './deploy')
      .replace('name: flux-system\n  targetNamespace: podinfo', 'name: tenant\n  targetNamespace: podinfo');
    const source = `---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: tenant\n  namespace: flux-system\nspec:\n  interval: 1m0s\n  ref:\n    branch: main\n  url: ${TENANT}\n`;
    files.set('clusters/kind-dev/tenant.yaml', `${tenant}${source}`);
    const snapshot = emergencySnapshot('flux-2-suspended');
    const copy = (kind: string, name: string) =>
      structuredClone(snapshot.items.find((o) => o.kind === kind && o.metadata?.name === name)!) as KubeObject & {
        spec: Record<string, unknown>;
        metadata: { name: string };
      };
    const ks = copy('Kustomization', 'apps');
    ks.metadata.name = 'tenant';
    ks.spec.path = './deploy';
    ks.spec.sourceRef = { kind: 'GitRepository', name: 'tenant' };
    delete (ks as { status?: unknown }).status;
    const git = copy('GitRepository', 'flux-system');
    git.metadata.name = 'tenant';
    git.spec.url = TENANT;
    delete git.spec.secretRef;
    // This repository's own `apps` is resumed: the tenant's suspension is the only one.
    const apps = snapshot.items.find((o) => o.kind === 'Kustomization' && o.metadata?.name === 'apps')!;
    delete (apps.spec as Record<string, unknown>).suspend;
    return { files, snapshot: { ...snapshot, items: [...snapshot.items, ks, git] } };
  }

  it("is the other repository's: no suspension and no emergency here", () => {
    const { files, snapshot } = withTenant();
    const repoConfig = parseConfig(files.get('.github/driftback.yml')!);
    if (!repoConfig.ok) throw new Error('config');
    const cluster = repoConfig.config.clusters!.find((c) => c.name === 'kind-dev')!;
    const evaluated = evaluateDrift({
      config: repoConfig.config,
      cluster,
      files,
      snapshot,
      history: [],
      declined: new Set(),
    });
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    expect(suspensionsOf(snapshot.items, repoConfig.config).map((s) => s.id)).toEqual(['flux-system/tenant']);
    expect(evaluated.sources.find((s) => s.name === 'flux-system/tenant')?.scope).toBe('out-of-scope');
    expect(evaluated.suspensions).toEqual([]);
    expect([...evaluated.emergency.keys()]).toEqual([]);
  });
});

describe('a suspended HelmRelease only live, its chart from elsewhere', () => {
  const TENANT = 'ssh://git@github.com/acme/tenant-gitops';
  /** `flux suspend helmrelease api -n flux-system` on a release no source of this repository declares. */
  function release(sourceRef: Record<string, string>): KubeObject {
    return {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'api', namespace: 'flux-system' },
      spec: { interval: '10m', suspend: true, chart: { spec: { chart: './charts/api', sourceRef } } },
    };
  }
  const gitRepository = (name: string, url: string): KubeObject => ({
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name, namespace: 'flux-system' },
    spec: { interval: '1m0s', url, ref: { branch: 'main' } },
  });
  const helmRepository: KubeObject = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmRepository',
    metadata: { name: 'tenant-charts', namespace: 'flux-system' },
    spec: { interval: '1h', url: 'https://charts.tenant.example' },
  };

  function evaluate(extra: KubeObject[]) {
    const files = emergencyRepoFiles();
    const repoConfig = parseConfig(files.get('.github/driftback.yml')!);
    if (!repoConfig.ok) throw new Error('config');
    const cluster = repoConfig.config.clusters!.find((c) => c.name === 'kind-dev')!;
    const snapshot = emergencySnapshot('flux-1-before');
    const withExtra = { ...snapshot, items: [...snapshot.items, ...extra] };
    const evaluated = evaluateDrift({
      config: repoConfig.config,
      cluster,
      files,
      snapshot: withExtra,
      history: [],
      declined: new Set(),
    });
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    return evaluated;
  }

  it("from another repository's GitRepository: that repository's source, its suspension not here", () => {
    const evaluated = evaluate([release({ kind: 'GitRepository', name: 'tenant' }), gitRepository('tenant', TENANT)]);
    expect(evaluated.sources.find((s) => s.name === 'flux-system/api')?.scope).toBe('out-of-scope');
    expect(evaluated.suspensions).toEqual([]);
  });

  it('from a HelmRepository this repository does not declare: the same', () => {
    const evaluated = evaluate([release({ kind: 'HelmRepository', name: 'tenant-charts' }), helmRepository]);
    expect(evaluated.suspensions).toEqual([]);
  });

  it("from this repository's GitRepository: still this repository's suspension", () => {
    const evaluated = evaluate([release({ kind: 'GitRepository', name: 'flux-system' })]);
    expect(evaluated.suspensions.map((s) => s.id)).toEqual(['flux-system/api']);
  });
});

describe('what a suspended source applies', () => {
  it('is every object of its inventory or stamps, not only what drifted', () => {
    const snapshot = emergencySnapshot('flux-2-suspended');
    const [suspension] = suspensionsOf(snapshot.items, config);
    expect([...(objectsOfSuspended(suspension!, snapshot.items) ?? [])].sort()).toEqual([
      '/Namespace//podinfo',
      '/Service/podinfo/podinfo',
      'apps/Deployment/podinfo/podinfo',
    ]);
  });
});
