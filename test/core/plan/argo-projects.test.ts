// Argo CD in a plan beyond the diff: what an AppProject refuses (app_project_types.go
// IsSourcePermitted / isDestinationMatched / IsGroupKindPermitted, controller/sync.go's permission
// validator), the sync options that change what a sync does (docs/user-guide/sync-options.md:
// Replace, ServerSideApply, CreateNamespace, Prune=confirm), and one object two Applications render
// (SharedResourceWarning). The AppProject is Argo CD's documented `docs/operator-manual/project.yaml`
// and the application Argo CD's e2e `guestbook`, both copied byte for byte (test/fixtures/upstream).
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import { displayKey, type KubeObject, type PlanWarning } from '../../../src/core/model/index.js';
import { evaluateDrift, planCluster, type DriftInput } from '../../../src/core/pipeline/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { readFixture, readFixtureTree } from '../../support/fixtures.js';

const PROJECT = readFixture('manifests', 'argo-cd/docs/operator-manual/project.yaml');
const GUESTBOOK = readFixtureTree('manifests', 'argo-cd/test/e2e/testdata/guestbook');
const parsed = parseConfig('clusters:\n  - name: prod\n    path: apps\n');
if (!parsed.ok) throw new Error('config');
const config = parsed.config;

function application(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd' },
    spec: {
      project: 'my-project',
      source: { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'main', path: 'guestbook' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
      ...spec,
    },
  };
}

function files(apps: KubeObject[], extra: Array<[string, string]> = []): Map<string, string> {
  return new Map([
    ...apps.map((app): [string, string] => [`apps/${app.metadata.name}.yaml`, stringify(app)]),
    ['projects/my-project.yaml', PROJECT],
    ...[...GUESTBOOK].map(([path, text]): [string, string] => [`guestbook/${path}`, text]),
    ...extra,
  ]);
}

const namespace = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

function plan(repo: Map<string, string>, live: KubeObject[]) {
  const head = renderCluster(
    repo,
    { name: 'prod', path: 'apps', controller: 'argocd', defaultNamespace: 'default' },
    { live: { items: live, repository: 'acme/gitops' } },
  );
  const snapshot = { items: live, capturedAt: '2026-12-01T12:00:00Z', scope: { complete: true, errors: [] } };
  const result = planCluster({
    config,
    cluster: config.clusters![0]!,
    path: 'apps',
    head: head.objects,
    headFiles: repo,
    snapshot,
    now: '2026-12-01T12:05:00Z',
    sources: head,
  });
  const warnings = (code: PlanWarning['code']) =>
    result.warnings.filter((w) => w.code === code).map((w) => `${w.id ? `${displayKey(w.id)}: ` : ''}${w.message}`);
  return { result, warnings, created: result.create.map((entry) => displayKey(entry.id)) };
}

// The project lives in the snapshot (Argo CD reads it there); the repository need not declare it.
const liveProject = { ...(parse(PROJECT) as KubeObject) };
const cluster = [namespace('argocd'), namespace('guestbook'), namespace('shop'), liveProject];

describe('an AppProject refuses what it does not permit', () => {
  it('a kind outside namespaceResourceWhitelist is refused by Argo CD, not created', () => {
    const { created, warnings } = plan(files([application('guestbook', {})]), cluster);
    expect(created).toContain('Deployment/guestbook/guestbook-ui');
    expect(created).not.toContain('Service/guestbook/guestbook-ui');
    expect(warnings('refused-by-argocd')).toEqual([
      'Service/guestbook/guestbook-ui: Not created: refused by Argo CD. Application argocd/guestbook: resource :Service ' +
        'is not permitted in project my-project (core/Service is not in its namespaceResourceWhitelist).',
    ]);
  });

  it('a namespace that is no destination of the project is refused', () => {
    const app = application('shop', { destination: { server: 'https://kubernetes.default.svc', namespace: 'shop' } });
    const { created, warnings } = plan(files([app]), cluster);
    expect(created.filter((id) => id.includes('/shop/'))).toEqual([]);
    expect(warnings('refused-by-argocd')).toContainEqual(
      expect.stringContaining(
        "Deployment/shop/guestbook-ui: Not created: refused by Argo CD. Application argocd/shop: namespace shop is not permitted in project 'my-project'",
      ),
    );
  });

  it('a repository sourceRepos does not list refuses the whole Application', () => {
    const project = parse(PROJECT) as KubeObject & { spec: Record<string, unknown> };
    project.spec.sourceRepos = ['https://github.com/acme/other.git', '!https://github.com/acme/gitops'];
    const { created, warnings } = plan(files([application('guestbook', {})]), [...cluster.slice(0, 3), project]);
    expect(created.filter((id) => id.includes('guestbook-ui'))).toEqual([]);
    expect(warnings('refused-by-argocd')).toHaveLength(2);
    expect(warnings('refused-by-argocd')[0]).toContain(
      "application repo https://github.com/acme/gitops.git is not permitted in project 'my-project' (sourceRepos)",
    );
  });

  it('an Application whose project is nowhere in view is not checked', () => {
    const { created, warnings } = plan(files([application('guestbook', {})]), cluster.slice(0, 3));
    expect(created).toContain('Service/guestbook/guestbook-ui');
    expect(warnings('refused-by-argocd')).toEqual([]);
  });
});

describe('sync options in the plan', () => {
  const open = {
    ...(parse(PROJECT) as KubeObject),
    spec: {
      sourceRepos: ['*'],
      destinations: [{ server: '*', namespace: '*' }],
      clusterResourceWhitelist: [{ group: '*', kind: '*' }],
    },
  };
  const base = [namespace('argocd'), open];

  it('CreateNamespace=true: the destination namespace is created by the sync, not missing', () => {
    const without = plan(files([application('guestbook', {})]), base);
    expect(without.warnings('namespace-missing')).toHaveLength(2);
    const app = application('guestbook', { syncPolicy: { syncOptions: ['CreateNamespace=true'] } });
    const { warnings } = plan(files([app]), base);
    expect(warnings('namespace-missing')).toEqual([]);
    expect(warnings('argocd-sync-option')).toEqual([
      'Argo CD Application argocd/guestbook creates namespace `guestbook` before it syncs (`CreateNamespace=true`).',
    ]);
  });

  it('Replace=true on an update, and ServerSideApply=true, are said', () => {
    const live = parse(GUESTBOOK.get('guestbook-ui-deployment.yaml')!) as KubeObject;
    live.metadata.namespace = 'guestbook';
    (live.spec as Record<string, unknown>).replicas = 2;
    const app = application('guestbook', { syncPolicy: { syncOptions: ['Replace=true', 'ServerSideApply=true'] } });
    const { warnings } = plan(files([app]), [...base, namespace('guestbook'), live]);
    expect(warnings('argocd-sync-option')).toEqual([
      expect.stringMatching(
        /^Deployment\/guestbook\/guestbook-ui: Argo CD Application argocd\/guestbook replaces it \(`Replace=true`\)/,
      ),
      expect.stringMatching(
        /^Argo CD Application argocd\/guestbook applies server-side \(`ServerSideApply=true`\).*\(2 objects of this plan\)/,
      ),
    ]);
  });

  it('Prune=confirm on the live object: its prune waits for a person', () => {
    const gone: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'legacy',
        namespace: 'guestbook',
        annotations: {
          'argocd.argoproj.io/sync-options': 'Prune=confirm',
          'argocd.argoproj.io/tracking-id': 'guestbook:/ConfigMap:guestbook/legacy',
        },
      },
    };
    const app = application('guestbook', { syncPolicy: { automated: { prune: true } } });
    const live = {
      ...app,
      status: { resources: [{ version: 'v1', kind: 'ConfigMap', namespace: 'guestbook', name: 'legacy' }] },
    };
    const { result, warnings } = plan(files([app]), [...base, namespace('guestbook'), live, gone]);
    expect(result.prune.map((entry) => displayKey(entry.id))).toEqual(['ConfigMap/guestbook/legacy']);
    expect(warnings('argocd-sync-option')).toEqual([
      expect.stringMatching(/^ConfigMap\/guestbook\/legacy: Pruned only once a person confirms it \(`Prune=confirm`\)/),
    ]);
  });
});

describe('one object, two Applications', () => {
  it('is a conflict naming both, not silently given to the first', () => {
    const open = {
      ...(parse(PROJECT) as KubeObject),
      spec: { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }] },
    };
    const apps = [application('guestbook', {}), application('guestbook-copy', {})];
    const { warnings } = plan(files(apps), [namespace('argocd'), namespace('guestbook'), open]);
    expect(warnings('conflict')).toEqual([
      expect.stringMatching(
        /^Deployment\/guestbook\/guestbook-ui: Argo CD Application argocd\/guestbook(-copy)? also rendered by Argo CD Application argocd\/guestbook(-copy)?: two Applications claim it/,
      ),
      expect.stringMatching(/^Service\/guestbook\/guestbook-ui: .*SharedResourceWarning/),
    ]);
  });

  // The copy pins another image (spec.source.kustomize.images): the two renderings differ, and live was scaled
  // by hand. Neither Application wins: the live object is compared against each, and nothing is codified.
  const open = () => ({
    ...(parse(PROJECT) as KubeObject),
    spec: { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }] },
  });
  const pinned = {
    source: {
      repoURL: 'https://github.com/acme/gitops.git',
      targetRevision: 'main',
      path: 'guestbook',
      kustomize: { images: ['quay.io/argoprojlabs/argocd-e2e-container:0.3'] },
    },
  };
  const scaled = (): KubeObject => {
    const object = parse(GUESTBOOK.get('guestbook-ui-deployment.yaml')!) as KubeObject;
    object.metadata.namespace = 'guestbook';
    // The copy synced last: its tracking id is on the object.
    object.metadata.annotations = {
      'argocd.argoproj.io/tracking-id': 'guestbook-copy:apps/Deployment:guestbook/guestbook-ui',
    };
    (object.spec as Record<string, unknown>).replicas = 3;
    object.metadata.managedFields = [
      {
        manager: 'kubectl-scale',
        operation: 'Update',
        time: '2026-12-01T11:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ];
    return object;
  };

  it('the plan compares the live object against each Application’s rendering', () => {
    const apps = [application('guestbook', {}), application('guestbook-copy', pinned)];
    const { warnings } = plan(files(apps), [namespace('argocd'), namespace('guestbook'), open(), scaled()]);
    const [deployment] = warnings('conflict').filter((w) => w.startsWith('Deployment/'));
    expect(deployment).toContain('Compared with live against argocd/guestbook');
    expect(deployment).toMatch(
      /against argocd\/guestbook-copy: [^;]*`spec\.template\.spec\.containers\[guestbook-ui\]\.image`/,
    );
    expect(deployment).toMatch(/against argocd\/guestbook: `spec\.replicas`[;.]/);
  });

  it('a hand change to the shared object is reported naming both Applications, never codified', () => {
    const apps = [application('guestbook', {}), application('guestbook-copy', pinned)];
    const items = [namespace('argocd'), namespace('guestbook'), open(), scaled()];
    const snapshot = { repository: 'acme/gitops', cluster: 'prod', capturedAt: '2026-12-01T12:00:00Z', items };
    const input: DriftInput = {
      ...{ snapshot, config, cluster: config.clusters![0]!, files: files(apps) },
      ...{ history: [], minSnapshots: 1, declined: new Set<string>() },
    };
    const evaluated = evaluateDrift(input);
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    const resource = evaluated.diff.resources.find((r) => r.key.kind === 'Deployment')!;
    expect(resource.changes).toEqual([]);
    const replicas = resource.reported?.find((change) => change.path === '/spec/replicas');
    expect(replicas?.reported?.code).toBe('shared-resource');
    expect(replicas?.reported?.reason).toContain(
      'claimed by Argo CD Applications argocd/guestbook-copy and argocd/guestbook',
    );
    expect(replicas?.reported?.reason).toContain('against argocd/guestbook: `spec.replicas`');
    expect(replicas?.reported?.reason).toMatch(
      /against argocd\/guestbook-copy: [^;]*containers\[guestbook-ui\]\.image/,
    );
  });

  // Both Applications ignore replicas (`ignoreDifferences`), and a person also annotated the object by hand.
  it('drift and plan name the same fields against each Application, ignored ones by neither', () => {
    const ignore = { ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] }] };
    const apps = [application('guestbook', ignore), application('guestbook-copy', { ...pinned, ...ignore })];
    const live = scaled();
    live.metadata.annotations = { ...live.metadata.annotations, team: 'web' };
    const annotate = { 'f:metadata': { 'f:annotations': { 'f:team': {} } } };
    live.metadata.managedFields!.push({ manager: 'kubectl-annotate', operation: 'Update', fieldsV1: annotate });
    const items = [namespace('argocd'), namespace('guestbook'), open(), live];
    const [planned] = plan(files(apps), items)
      .warnings('conflict')
      .filter((w) => w.startsWith('Deployment/'));
    const snapshot = { repository: 'acme/gitops', cluster: 'prod', capturedAt: '2026-12-01T12:00:00Z', items };
    const evaluated = evaluateDrift({
      ...{ snapshot, config, cluster: config.clusters![0]!, files: files(apps) },
      ...{ history: [], minSnapshots: 1, declined: new Set<string>() },
    });
    if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
    const resource = evaluated.diff.resources.find((r) => r.key.kind === 'Deployment')!;
    const reason = resource.reported?.find((change) => change.reported?.code === 'shared-resource')?.reported?.reason;
    const compared =
      'against argocd/guestbook-copy: `spec.template.spec.containers[guestbook-ui].image`, ' +
      '`metadata.annotations.team`; against argocd/guestbook: `metadata.annotations.team`';
    expect(reason).toContain(`Compared ${compared}. Never codified`);
    expect(planned).toContain(`Compared with live ${compared}.`);
  });
});
