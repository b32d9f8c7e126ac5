// `driftback plan` on a pull request after which an ApplicationSet no longer generates one of its
// Applications (its directory removed): the ApplicationSet controller deletes that Application, and Argo CD
// deletes what it deployed when it carries the resources finalizer (the default; not with
// `syncPolicy.preserveResourcesOnDeletion`). Under the `create-update` policy nothing is deleted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { expandApplicationSet } from '../../src/core/render/appset-expand.js';
import { parse } from 'yaml';
import { liveOf } from '../core/plan/build.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-appset-delete-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const appset = (syncPolicy: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: apps
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - git:
        repoURL: https://github.com/acme/gitops.git
        revision: HEAD
        directories:
          - path: apps/*
${syncPolicy}  template:
    metadata:
      name: '{{.path.basename}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/gitops.git
        targetRevision: HEAD
        path: '{{.path.path}}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{.path.basename}}'
      syncPolicy:
        automated: {prune: true, selfHeal: true}
`;

const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: ${name}
          image: nginx:1.27
`;

const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n';

function writeTree(root: string, files: Record<string, string>): Map<string, string> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, root, path)), { recursive: true });
    writeFileSync(join(work, root, path), text);
  }
  return new Map(Object.entries(files));
}

const tree = (syncPolicy: string, dirs: string[]) => ({
  '.github/driftback.yml': CONFIG,
  'clusters/prod/appset.yaml': appset(syncPolicy),
  ...Object.fromEntries(dirs.map((dir) => [`apps/${dir}/deployment.yaml`, deployment(dir)])),
});

/**
 * The cluster as the ApplicationSet controller left it at base: each generated Application (owned by the
 * ApplicationSet, with the finalizers it gives it, its resources in its status) and what it deployed.
 */
function snapshot(name: string, syncPolicy: string): void {
  const files = writeTree(`${name}-base`, tree(syncPolicy, ['web', 'api']));
  const cluster = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default' };
  const applied = renderCluster(files, cluster, { live: { items: [], repository: 'acme/gitops' } });
  const set = parse(files.get('clusters/prod/appset.yaml')!) as KubeObject;
  const expansion = expandApplicationSet(set, { files, live: [], isThisRepository: () => true });
  if (!expansion.ok) throw new Error(expansion.reason);
  const applications = expansion.applications.map((application) => ({
    ...application,
    metadata: {
      ...application.metadata,
      ownerReferences: [
        { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'apps', uid: 'u1', controller: true },
      ],
    },
    status: {
      resources: applied.objects
        .filter((desired) => desired.key.namespace === application.metadata.name)
        .map(({ key }) => ({ group: 'apps', version: 'v1', kind: key.kind, namespace: key.namespace, name: key.name })),
    },
  }));
  const items = [...applied.objects.map((desired) => liveOf(desired)), ...applications];
  const document = { apiVersion: 'driftback.dev/v1', kind: 'Snapshot', repository: 'acme/gitops', cluster: 'prod' };
  const capturedAt = new Date(Date.now() - 60_000).toISOString();
  const live = { ...document, capturedAt, scope: { complete: true, errors: [] }, items };
  writeFileSync(join(work, `${name}-live.json`), JSON.stringify(live));
  writeTree(`${name}-head`, tree(syncPolicy, ['web']));
}

const plan = (name: string) =>
  runCli(
    ['plan', '--head', `${name}-head`, '--base', `${name}-base`, '--live', `${name}-live.json`, '--cluster', 'prod'],
    {
      cwd: work,
    },
  );

snapshot('cascade', '');
snapshot('preserve', '  syncPolicy:\n    preserveResourcesOnDeletion: true\n');
snapshot('create-update', '  syncPolicy:\n    applicationsSync: create-update\n');

describe('driftback plan when an ApplicationSet stops generating an Application', () => {
  it('prunes the Application and what it deployed (the resources finalizer)', async () => {
    const result = await plan('cascade');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 2 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).toContain('  - Deployment/api/api');
    expect(result.stdout).not.toContain('Deployment/web/web');
  });

  it('prunes only the Application under preserveResourcesOnDeletion: what it deployed stays', async () => {
    const result = await plan('preserve');
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 1 to prune');
    expect(result.stdout).toContain('  - Application/argocd/api');
    expect(result.stdout).toContain(
      '  = Deployment/api/api: ApplicationSet argocd/apps no longer generates Application argocd/api: the controller ' +
        'deletes it without the resources finalizer (syncPolicy.preserveResourcesOnDeletion), so this stays in the ' +
        'cluster, managed by no Application',
    );
  });

  it('deletes nothing under the create-update policy', async () => {
    const result = await plan('create-update');
    expect(result.stdout).not.toContain('Application/argocd/api');
    expect(result.stdout).not.toMatch(/- Deployment\/api\/api/);
    // The Application stays, its path gone: Argo CD's repo server refuses it, so it syncs nothing.
    expect(result.stdout).toContain('prod: 0 to create, 0 to update, 0 to prune');
    expect(result.stdout).toContain(
      'argocd/api: not rendered: apps/api: spec.source.path: Application argocd/api: app path apps/api does not exist',
    );
  });
});
